// out[k][y][x] = sum over c, r, s of w[k][c][r][s] * in[c][y + r - 1][x + s - 1] (0 outside).
__global__ void conv_channels(Array<const float> in, Array<const float> w, Array<float> out,
                              int channels, int height, int width, int filters) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z;
  // TODO: skip threads past the image, sum the window over every channel, store out[k][y][x].
}
