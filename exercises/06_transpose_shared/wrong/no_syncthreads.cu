// expect: __syncthreads|expected|race
__global__ void transpose_shared(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  __shared__ float tile[32][33];
  const int in_col = blockIdx.x * 32 + threadIdx.x;
  const int in_row = blockIdx.y * 32 + threadIdx.y;
  if (in_row < rows && in_col < cols) tile[threadIdx.y][threadIdx.x] = in(in_row, in_col);
  const int out_col = blockIdx.y * 32 + threadIdx.x;
  const int out_row = blockIdx.x * 32 + threadIdx.y;
  if (out_row < cols && out_col < rows) out(out_row, out_col) = tile[threadIdx.x][threadIdx.y];
}
