// col[(c * 3 + r) * 3 + s][y * width + x] = in[c][y + r - 1][x + s - 1], 0 outside the image.
__global__ void im2col(Array<const float> in, Array<float> col, int channels, int height,
                       int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // TODO: skip threads past the end, find (row, column) of element i, then (c, r, s) and (y, x).
}
