// C = A · B; A is M × K, B is K × N, C is M × N.
__global__ void matmul(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                       int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float sum = 0.0f;  // in a register: C is written once
  for (int k = 0; k < K; ++k) sum += A(row, k) * B(k, col);
  C(row, col) = sum;
}
