// expect: outside its
#define TILE 16
__global__ void convolution(Matrix<const float> in, Array<const float> w, Matrix<float> out,
                            int rows, int cols) {
  __shared__ float tile[TILE + 2][TILE + 2];
  const int first_row = blockIdx.y * TILE - 1;
  const int first_col = blockIdx.x * TILE - 1;
  const int thread = threadIdx.y * TILE + threadIdx.x;
  for (int at = thread; at < (TILE + 2) * (TILE + 2); at += TILE * TILE) {
    tile[at / (TILE + 2)][at % (TILE + 2)] = in(first_row + at / (TILE + 2), first_col + at % (TILE + 2));
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
