// sum[0] += the sum of x, one atomicAdd per block after a tree in shared memory.
#define BLOCK 256
__global__ void sum_tree(Array<const float> x, Array<float> sum, int n) {
  __shared__ float partial[BLOCK];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  // TODO: load (0 past the end), then halve the active threads each step, then one atomicAdd.
}
