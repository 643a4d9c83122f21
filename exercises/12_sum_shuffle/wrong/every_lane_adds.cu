// expect: expected
__global__ void sum_shuffle(Array<const float> x, Array<float> sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  atomicAdd(&sum[0], v);  // every lane's partial sum, not just lane 0's total
}
