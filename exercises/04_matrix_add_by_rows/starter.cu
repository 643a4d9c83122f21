// C = A + B, element by element; x → rows, y → columns.
__global__ void matrix_add_by_rows(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                                   int rows, int cols) {
  // TODO: this thread's row (from x) and column (from y), then its element.
}
