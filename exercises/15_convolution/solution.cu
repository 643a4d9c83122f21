// out = in filtered by the 3 × 3 kernel w (zero outside the image), through a shared halo tile.
#define TILE 16
__global__ void convolution(Matrix<const float> in, Array<const float> w, Matrix<float> out,
                            int rows, int cols) {
  __shared__ float tile[TILE + 2][TILE + 2];
  // Tile element (ty, tx) is input pixel (first_row + ty, first_col + tx): the block's pixels
  // shifted by one, so that the halo sits at rows and columns 0 and TILE + 1.
  const int first_row = blockIdx.y * TILE - 1;
  const int first_col = blockIdx.x * TILE - 1;
  const int thread = threadIdx.y * TILE + threadIdx.x;
  for (int at = thread; at < (TILE + 2) * (TILE + 2); at += TILE * TILE) {
    const int ty = at / (TILE + 2);
    const int tx = at % (TILE + 2);
    const int r = first_row + ty;
    const int c = first_col + tx;
    tile[ty][tx] = (r >= 0 && r < rows && c >= 0 && c < cols) ? in(r, c) : 0.0f;
  }
  __syncthreads();
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  if (row >= rows || col >= cols) return;
  float sum = 0.0f;
  for (int dr = 0; dr < 3; ++dr) {
    for (int dc = 0; dc < 3; ++dc) sum += w[dr * 3 + dc] * tile[threadIdx.y + dr][threadIdx.x + dc];
  }
  out(row, col) = sum;
}
