// expect: shared memory
__global__ void transpose_shared(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  const int col = blockIdx.x * 32 + threadIdx.x;
  const int row = blockIdx.y * 32 + threadIdx.y;
  if (row < rows && col < cols) out(col, row) = in(row, col);
}
