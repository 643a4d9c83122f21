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
    // TODO: load a_tile and b_tile (0 past the edges), synchronise, multiply, synchronise.
  }
  // TODO: write C(row, col) if it is inside C.
}
