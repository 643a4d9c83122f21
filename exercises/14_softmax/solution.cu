// out = softmax of each row of in; one block of 128 threads per row.
#define THREADS 128

// The block's threads combine `value` (max or sum); every thread gets the result.
__device__ float block_reduce(float value, float* scratch, bool take_max) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) {
      const float other = scratch[threadIdx.x + s];
      scratch[threadIdx.x] = take_max ? fmaxf(scratch[threadIdx.x], other)
                                      : scratch[threadIdx.x] + other;
    }
    __syncthreads();
  }
  const float result = scratch[0];
  __syncthreads();  // scratch is reused by the next reduction
  return result;
}

__global__ void softmax_rows(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  __shared__ float scratch[THREADS];
  const int row = blockIdx.x;
  float local_max = -3.4e38f;
  for (int c = threadIdx.x; c < cols; c += THREADS) local_max = fmaxf(local_max, in(row, c));
  const float row_max = block_reduce(local_max, scratch, true);
  float local_sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += THREADS) local_sum += expf(in(row, c) - row_max);
  const float row_sum = block_reduce(local_sum, scratch, false);
  for (int c = threadIdx.x; c < cols; c += THREADS) {
    out(row, c) = expf(in(row, c) - row_max) / row_sum;  // every exponent is at most 0
  }
}
