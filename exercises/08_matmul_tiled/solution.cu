// C = A · B through 16 × 16 shared-memory tiles.
#define TILE 16
__global__ void matmul_tiled(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                             int M, int N, int K) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int row = blockIdx.y * TILE + threadIdx.y;
  float sum = 0.0f;
  for (int step = 0; step < (K + TILE - 1) / TILE; ++step) {
    const int a_col = step * TILE + threadIdx.x;
    const int b_row = step * TILE + threadIdx.y;
    // Tiles hanging over an edge are padded with zeros, which add nothing to the sum.
    a_tile[threadIdx.y][threadIdx.x] = (row < M && a_col < K) ? A(row, a_col) : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = (b_row < K && col < N) ? B(b_row, col) : 0.0f;
    __syncthreads();  // both tiles complete
    for (int k = 0; k < TILE; ++k) sum += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
    __syncthreads();  // everyone is done with these tiles before the next step overwrites them
  }
  if (row < M && col < N) C(row, col) = sum;
}
