// C = A + B, element by element; x → columns, y → rows.
__global__ void matrix_add(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                           int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) C(row, col) = A(row, col) + B(row, col);
}
