// expect: outside its|expected
__global__ void transpose(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out(row, col) = in(row, col);
}
