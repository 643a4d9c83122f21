// expect: past its end
#define BLOCK 256
__global__ void sum_tree(Array<const float> x, Array<float> sum, int n) {
  __shared__ float partial[BLOCK];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  partial[threadIdx.x] = x[i];  // reads past the end of x in the last block
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&sum[0], partial[0]);
}
