// expect: past its end|outside its
__global__ void im2col(Array<const float> in, Array<float> col, int channels, int height,
                       int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int pixels = height * width;
  // No check that i is inside col: the threads of the last block past the end write beyond it.
  const int row = i / pixels;
  const int column = i % pixels;
  const int c = row / 9;
  const int r = row / 3 % 3;
  const int s = row % 3;
  const int y = column / width + r - 1;
  const int x = column % width + s - 1;
  col[i] = (y >= 0 && y < height && x >= 0 && x < width && c < channels)
               ? in[(c * height + y) * width + x]
               : 0.0f;
}
