// expect: no thread wrote it|expected
#define THREADS 128
__global__ void softmax_rows(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  __shared__ float scratch[THREADS];
  const int row = blockIdx.x;
  const int c = threadIdx.x;  // only the first 128 columns of each row
  const float x = c < cols ? in(row, c) : -3.4e38f;
  scratch[threadIdx.x] = x;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) scratch[threadIdx.x] = fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + s]);
    __syncthreads();
  }
  const float m = scratch[0];
  __syncthreads();
  scratch[threadIdx.x] = c < cols ? expf(x - m) : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  if (c < cols) out(row, c) = expf(x - m) / scratch[0];
}
