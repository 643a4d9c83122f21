// expect: expected
#define THREADS 128
__global__ void softmax_rows(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  __shared__ float scratch[THREADS];
  const int row = blockIdx.x;
  float local_sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += THREADS) local_sum += expf(in(row, c));  // overflows
  scratch[threadIdx.x] = local_sum;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  for (int c = threadIdx.x; c < cols; c += THREADS) out(row, c) = expf(in(row, c)) / scratch[0];
}
