// expect: __syncthreads|expected|race
#define BLOCK 256
__global__ void sum_tree(Array<const float> x, Array<float> sum, int n) {
  __shared__ float partial[BLOCK];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
  }
  if (threadIdx.x == 0) atomicAdd(&sum[0], partial[0]);
}
