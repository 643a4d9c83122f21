// sum[0] += the sum of x: each warp adds its 32 values with shuffles, lane 0 adds the total.
__global__ void sum_shuffle(Array<const float> x, Array<float> sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;  // threads past n stay, with 0: every lane shuffles
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if (threadIdx.x % 32 == 0) atomicAdd(&sum[0], v);  // lane 0 holds the warp's total
}
