// expect: expected|atomic
__global__ void sum_atomic(Array<const float> x, Array<float> sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sum[0] += x[i];  // threads overwrite each other's totals
}
