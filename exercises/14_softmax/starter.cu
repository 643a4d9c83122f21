// out = softmax of each row of in; one block of 128 threads per row.
#define THREADS 128
__global__ void softmax_rows(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  __shared__ float scratch[THREADS];
  const int row = blockIdx.x;
  // TODO: 1. the row's maximum, 2. the sum of exp(x - max), 3. write exp(x - max) / sum.
}
