// sum[0] += every x[i]; sum[0] starts at 0.
__global__ void sum_atomic(Array<const float> x, Array<float> sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&sum[0], x[i]);  // one indivisible read-add-write per element
}
