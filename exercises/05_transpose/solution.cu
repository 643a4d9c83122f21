// out = transpose(in): in is rows × cols, out is cols × rows.
__global__ void transpose(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out(col, row) = in(row, col);
}
