// out[k][y][x] = sum over c, r, s of w[k][c][r][s] * in[c][y + r - 1][x + s - 1] (0 outside).
__global__ void conv_channels(Array<const float> in, Array<const float> w, Array<float> out,
                              int channels, int height, int width, int filters) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z;
  if (x >= width || y >= height || k >= filters) return;
  float sum = 0.0f;
  for (int c = 0; c < channels; ++c) {
    for (int r = 0; r < 3; ++r) {
      const int yy = y + r - 1;
      if (yy < 0 || yy >= height) continue;  // a padding row adds 0
      for (int s = 0; s < 3; ++s) {
        const int xx = x + s - 1;
        if (xx < 0 || xx >= width) continue;
        sum += w[((k * channels + c) * 3 + r) * 3 + s] * in[(c * height + yy) * width + xx];
      }
    }
  }
  out[(k * height + y) * width + x] = sum;
}
