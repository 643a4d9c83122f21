// C = A · B; A is M × K, B is K × N, C is M × N.
__global__ void matmul(Matrix<const float> A, Matrix<const float> B, Matrix<float> C,
                       int M, int N, int K) {
  // TODO: one element of C per thread.
}
