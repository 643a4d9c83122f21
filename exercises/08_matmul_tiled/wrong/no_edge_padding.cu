// expect: outside its
#define TILE 16
__global__ void matmul_tiled(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                             int M, int N, int K) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int row = blockIdx.y * TILE + threadIdx.y;
  float sum = 0.0f;
  for (int step = 0; step < (K + TILE - 1) / TILE; ++step) {
    a_tile[threadIdx.y][threadIdx.x] = A(row, step * TILE + threadIdx.x);
    b_tile[threadIdx.y][threadIdx.x] = B(step * TILE + threadIdx.y, col);
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C(row, col) = sum;
}
