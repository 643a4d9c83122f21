// expect: expected
// The halo is the element before the block, in[i - 1], not thread 0's own in[i]: every block's
// first difference comes out 0.
#define BLOCK 256
__global__ void difference(Array<const float> in, Array<float> out, int n) {
  __shared__ float tile[BLOCK + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * BLOCK + t;
  if (i < n) tile[t + 1] = in[i];
  if (t == 0 && i < n) tile[0] = in[i];
  __syncthreads();
  if (i < n) out[i] = tile[t + 1] - tile[t];
}
