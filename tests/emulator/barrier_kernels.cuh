// Kernels that exercise __shared__ and __syncthreads() in the emulator. Included inside a namespace
// by the test, exactly as the lesson kernels are.

// Reverses each block's slice through shared memory: correct only if every thread's write lands
// before any thread's read, i.e. only if the barrier works.
__global__ void reverse_each_block(const int* in, int* out) {
  __shared__ int tile[1024];
  const int t = threadIdx.x;
  const int base = blockIdx.x * blockDim.x;
  tile[t] = in[base + t];
  __syncthreads();
  out[base + t] = tile[blockDim.x - 1 - t];
}

// Sums each block's slice with a tree reduction: many barriers, in a loop.
__global__ void block_sum(const int* in, int* sums) {
  __shared__ int partial[1024];
  const int t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

// A barrier only half the block reaches: undefined behaviour on a GPU, an error on the emulator.
__global__ void divergent_barrier(int* out) {
  if (threadIdx.x < blockDim.x / 2) {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}
