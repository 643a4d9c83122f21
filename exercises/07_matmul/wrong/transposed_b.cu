// expect: outside its|expected
__global__ void matmul(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                       int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A(row, k) * B(col, k);
  C(row, col) = sum;
}
