// expect: expected
__global__ void sum_shuffle(Array<const float> x, Array<float> sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  // Offset 32 is past the warp: each lane gets its own value back and doubles it.
  for (int offset = 32; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if (threadIdx.x % 32 == 0) atomicAdd(&sum[0], v);
}
