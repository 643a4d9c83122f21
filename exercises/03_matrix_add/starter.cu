// C = A + B, element by element; x → columns, y → rows.
__global__ void matrix_add(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                           int rows, int cols) {
  // TODO: this thread's row and column, then its element — if it is inside the matrix.
}
