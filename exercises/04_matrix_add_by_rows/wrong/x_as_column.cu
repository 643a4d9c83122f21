// expect: no thread wrote it|outside its
__global__ void matrix_add_by_rows(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                                   int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // the grid's x covers the rows
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) C(row, col) = A(row, col) + B(row, col);
}
