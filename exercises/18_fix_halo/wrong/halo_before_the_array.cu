// expect: before its start
// The halo loaded without its guard: block 0's thread 0 reads in[-1], before the array's start.
#define BLOCK 256
__global__ void difference(Array<const float> in, Array<float> out, int n) {
  __shared__ float tile[BLOCK + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * BLOCK + t;
  if (i < n) tile[t + 1] = in[i];
  if (t == 0) tile[0] = in[i - 1];
  __syncthreads();
  if (i < n) out[i] = tile[t + 1] - tile[t];
}
