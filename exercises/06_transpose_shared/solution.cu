// out = transpose(in) through a shared-memory tile: reads and writes both coalesced.
__global__ void transpose_shared(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  __shared__ float tile[32][33];  // 33: a column of the tile spans all 32 banks
  const int in_col = blockIdx.x * 32 + threadIdx.x;
  const int in_row = blockIdx.y * 32 + threadIdx.y;
  if (in_row < rows && in_col < cols) tile[threadIdx.y][threadIdx.x] = in(in_row, in_col);
  __syncthreads();  // the whole tile is loaded before anyone reads another thread's element
  // The block's tile lands at the transposed block position; x walks the columns of out.
  const int out_col = blockIdx.y * 32 + threadIdx.x;  // a row of in
  const int out_row = blockIdx.x * 32 + threadIdx.y;  // a column of in
  if (out_row < cols && out_col < rows) out(out_row, out_col) = tile[threadIdx.x][threadIdx.y];
}
