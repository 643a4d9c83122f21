// expect: expected
__global__ void im2col(Array<const float> in, Array<float> col, int channels, int height,
                       int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int pixels = height * width;
  if (i >= channels * 9 * pixels) return;
  // Numbers the window's elements fastest, so col comes out transposed: only a 1 × 1 image, whose
  // col is a single column, is right.
  const int column = i / (channels * 9);
  const int row = i % (channels * 9);
  const int c = row / 9;
  const int r = row / 3 % 3;
  const int s = row % 3;
  const int y = column / width + r - 1;
  const int x = column % width + s - 1;
  col[i] = (y >= 0 && y < height && x >= 0 && x < width) ? in[(c * height + y) * width + x]
                                                         : 0.0f;
}
