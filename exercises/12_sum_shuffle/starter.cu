// sum[0] += the sum of x: each warp adds its 32 values with shuffles, lane 0 adds the total.
__global__ void sum_shuffle(Array<const float> x, Array<float> sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  // TODO: five __shfl_down_sync steps, then one atomicAdd per warp.
}
