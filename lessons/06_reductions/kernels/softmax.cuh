// The reductions lesson's softmax, row by row: y[r][c] = exp(x[r][c]) / sum_c' exp(x[r][c']).
// One block per row (gridDim.x = rows); the block's threads share the row's reductions.

// The sum (or the maximum) of `value` over the block, returned to every thread. blockDim.x must be
// a multiple of 32. `scratch` holds one value per warp.
__device__ float block_reduce(float value, bool maximum, float* scratch) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset /= 2) {
    const float other = __shfl_xor_sync(0xffffffffu, value, offset);
    value = maximum ? fmaxf(value, other) : value + other;
  }
  if (lane == 0) scratch[warp] = value;
  __syncthreads();
  const int warps = blockDim.x / 32;
  value = lane < warps ? scratch[lane] : (maximum ? -INFINITY : 0.0f);
  for (int offset = 16; offset > 0; offset /= 2) {
    const float other = __shfl_xor_sync(0xffffffffu, value, offset);
    value = maximum ? fmaxf(value, other) : value + other;
  }
  // Every thread has read scratch before the next call writes it.
  __syncthreads();
  return value;
}

// The textbook formula, as written. exp(89) is already more than a float holds: a row with a
// logit of 89 or more sums to infinity, and inf / inf is NaN.
template <class Trace>
__global__ void softmax_naive(const float* x, float* y, int rows, int cols, Trace trace) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  if (row >= rows) return;
  const float* in = x + row * cols;
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(in[c]);
  sum = block_reduce(sum, false, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    y[row * cols + c] = expf(in[c]) / sum;
    trace.wrote(row * cols + c);
  }
}

// Numerically stable: exp(x - m) / sum exp(x - m) with m the row's maximum is the same softmax
// (the factor exp(-m) cancels), but now every exponent is <= 0, so nothing overflows and the
// largest term is exactly 1. Each thread keeps its elements of the row in registers (float4, up
// to kSoftmaxCached per thread), so the row is read from memory once and written once: two
// reductions (max, then sum) cost no extra memory traffic. Rows that do not fit, or whose length
// is not a multiple of 4, are read again from memory (mostly from cache).
constexpr int kSoftmaxCached = 4;

template <class Trace>
__global__ void softmax_stable(const float* x, float* y, int rows, int cols, Trace trace) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  if (row >= rows) return;
  const float* in = x + row * cols;
  float* out = y + row * cols;
  const int cols4 = cols / 4;
  const bool cached = cols % 4 == 0 && cols4 <= kSoftmaxCached * static_cast<int>(blockDim.x);
  float4 v[kSoftmaxCached];
  float m = -INFINITY;
  if (cached) {
    const float4* in4 = reinterpret_cast<const float4*>(in);
    for (int k = 0; k < kSoftmaxCached; ++k) {
      const int c4 = threadIdx.x + k * blockDim.x;
      v[k] = c4 < cols4 ? in4[c4] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
      m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, in[c]);
  }
  m = block_reduce(m, true, scratch);

  float sum = 0.0f;
  if (cached) {
    for (int k = 0; k < kSoftmaxCached; ++k) {
      v[k] = make_float4(expf(v[k].x - m), expf(v[k].y - m), expf(v[k].z - m), expf(v[k].w - m));
      sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(in[c] - m);
  }
  sum = block_reduce(sum, false, scratch);

  const float inverse = 1.0f / sum;
  if (cached) {
    float4* out4 = reinterpret_cast<float4*>(out);
    for (int k = 0; k < kSoftmaxCached; ++k) {
      const int c4 = threadIdx.x + k * blockDim.x;
      if (c4 < cols4) {
        out4[c4] =
            make_float4(v[k].x * inverse, v[k].y * inverse, v[k].z * inverse, v[k].w * inverse);
        for (int e = 0; e < 4; ++e) trace.wrote(row * cols + 4 * c4 + e);
      }
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
      out[c] = expf(in[c] - m) * inverse;
      trace.wrote(row * cols + c);
    }
  }
}
