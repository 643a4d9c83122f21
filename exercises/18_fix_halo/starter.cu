// out[i] = in[i] - in[i - 1], out[0] = in[0], through a shared tile: each thread loads its
// element, then each subtracts its neighbour.
// This kernel has a bug. Check it, read what the Lab says, and fix it.
#define BLOCK 256
__global__ void difference(Array<const float> in, Array<float> out, int n) {
  __shared__ float tile[BLOCK + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * BLOCK + t;
  if (i < n) tile[t + 1] = in[i];
  __syncthreads();
  if (i < n) out[i] = tile[t + 1] - tile[t];
}
