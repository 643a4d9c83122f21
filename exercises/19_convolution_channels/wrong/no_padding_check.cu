// expect: before its start|outside its
__global__ void conv_channels(Array<const float> in, Array<const float> w, Array<float> out,
                              int channels, int height, int width, int filters) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z;
  if (x >= width || y >= height || k >= filters) return;
  // Reads the window without asking whether it is inside the image: the border reads before the
  // first pixel and past the last.
  float sum = 0.0f;
  for (int c = 0; c < channels; ++c) {
    for (int r = 0; r < 3; ++r) {
      for (int s = 0; s < 3; ++s) {
        sum += w[((k * channels + c) * 3 + r) * 3 + s] *
               in[(c * height + y + r - 1) * width + x + s - 1];
      }
    }
  }
  out[(k * height + y) * width + x] = sum;
}
