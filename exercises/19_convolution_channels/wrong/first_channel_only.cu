// expect: expected
__global__ void conv_channels(Array<const float> in, Array<const float> w, Array<float> out,
                              int channels, int height, int width, int filters) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z;
  if (x >= width || y >= height || k >= filters) return;
  // Sums channel 0 alone: right only where there is one channel.
  float sum = 0.0f;
  for (int r = 0; r < 3; ++r) {
    for (int s = 0; s < 3; ++s) {
      const int yy = y + r - 1;
      const int xx = x + s - 1;
      if (yy < 0 || yy >= height || xx < 0 || xx >= width) continue;
      sum += w[(k * channels * 3 + r) * 3 + s] * in[yy * width + xx];
    }
  }
  out[(k * height + y) * width + x] = sum;
}
