// expect: no thread wrote it|outside its
__global__ void matrix_add(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                           int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;  // x is the column here, not the row
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) C(row, col) = A(row, col) + B(row, col);
}
