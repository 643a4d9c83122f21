// expect: expected
#define TILE 16
__global__ void convolution(Matrix<const float> in, Array<const float> w, Matrix<float> out,
                            int rows, int cols) {
  __shared__ float tile[TILE + 2][TILE + 2];
  // Loads only the block's own pixels: the halo stays 0, wrong at every tile edge.
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  for (int at = threadIdx.y * TILE + threadIdx.x; at < (TILE + 2) * (TILE + 2); at += TILE * TILE) {
    tile[at / (TILE + 2)][at % (TILE + 2)] = 0.0f;
  }
  __syncthreads();
  if (row < rows && col < cols) tile[threadIdx.y + 1][threadIdx.x + 1] = in(row, col);
  __syncthreads();
  if (row >= rows || col >= cols) return;
  float sum = 0.0f;
  for (int dr = 0; dr < 3; ++dr) {
    for (int dc = 0; dc < 3; ++dc) sum += w[dr * 3 + dc] * tile[threadIdx.y + dr][threadIdx.x + dc];
  }
  out(row, col) = sum;
}
