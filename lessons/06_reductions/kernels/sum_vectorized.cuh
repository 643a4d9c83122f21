// The reductions lesson's fast rung: one pass over memory, as fast as the memory can deliver.
//   - A grid just large enough to fill the GPU; each thread walks the array with a grid-stride
//     loop and keeps its running sums in registers: almost every add happens there.
//   - float4 loads: 16 bytes per instruction, and four independent loads in flight per thread per
//     trip, so the memory system always has enough requests to stay busy.
//   - Warp shuffles sum each warp's 32 registers, shared memory holds one sum per warp, and the
//     first warp sums those.
//   - No atomic on the result and no zeroing before the launch: each block writes its sum to
//     block_sums[blockIdx.x], and the last block to finish (counted with one atomic per block) sums
//     them and writes *out. So the result is the same on every run, whatever order blocks finish
//     in. *blocks_done must be 0 before the first launch; the last block sets it back to 0.
// n % 4 leftover elements are read one by one, and so is every element when `in` is not 16-byte
// aligned (cudaMalloc's is; `d_x + 1` is not), which float4 loads need.

// The sum of `value` over the calling warp, in lane 0 (every lane of the warp must call it).
template <class Trace>
__device__ float warp_sum(float value, int& level, Trace trace) {
  const int tid = threadIdx.x;
  for (int offset = 16; offset > 0; offset /= 2, ++level) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
    if (tid % 32 < offset) trace.added(level, tid, tid + offset);
  }
  return value;
}

// The sum of `value` over the block, in thread 0; blockDim.x must be a multiple of 32.
template <class Trace>
__device__ float block_sum(float value, Trace trace) {
  __shared__ float warp_sums[32];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  int level = 0;
  value = warp_sum(value, level, trace);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / 32;
    value = lane < warps ? warp_sums[lane] : 0.0f;
    // In the tree's terms, lane l now holds the sum of warp l, which thread 32·l had.
    for (int offset = 16; offset > 0; offset /= 2, ++level) {
      value += __shfl_down_sync(0xffffffffu, value, offset);
      if (lane + offset < warps) trace.added(level, 32 * lane, 32 * (lane + offset));
    }
  }
  // warp_sums is read above and written by the next call's lanes 0: wait for every reader.
  __syncthreads();
  return value;
}

template <class Trace>
__global__ void sum_vectorized(const float* in, float* out, int n, float* block_sums,
                               unsigned int* blocks_done, Trace trace) {
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const bool aligned = reinterpret_cast<unsigned long long>(in) % 16 == 0;
  const int n4 = aligned ? n / 4 : 0;
  const int stride = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const float4 a = in4[i];
    const float4 b = in4[i + stride];
    const float4 c = in4[i + 2 * stride];
    const float4 d = in4[i + 3 * stride];
    s0 += (a.x + a.y) + (a.z + a.w);
    s1 += (b.x + b.y) + (b.z + b.w);
    s2 += (c.x + c.y) + (c.z + c.w);
    s3 += (d.x + d.y) + (d.z + d.w);
    for (int k = 0; k < 16; ++k)
      trace.wrote(4ull * (i + (k / 4) * stride) + k % 4, i / stride + k / 4);
  }
  for (; i < n4; i += stride) {
    const float4 a = in4[i];
    s0 += (a.x + a.y) + (a.z + a.w);
    for (int k = 0; k < 4; ++k) trace.wrote(4ull * i + k, i / stride);
  }
  // Aligned, at most 3 elements are left and this runs once for each; misaligned, it is the sum.
  for (int tail = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; tail < n; tail += stride) {
    s1 += in[tail];
    trace.wrote(tail);
  }
  const float sum = block_sum((s0 + s1) + (s2 + s3), trace);

  __shared__ bool last_block;
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = sum;
    // Make this block's sum visible to every block before counting it as done.
    __threadfence();
    last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last_block) {
    float total = 0.0f;
    // __ldcg reads through L2, where the other blocks' sums are, never a stale L1 line.
    for (int b = threadIdx.x; b < static_cast<int>(gridDim.x); b += blockDim.x) {
      total += __ldcg(&block_sums[b]);
    }
    total = block_sum(total, ReductionUntraced{});
    if (threadIdx.x == 0) {
      *out = total;
      *blocks_done = 0;
    }
  }
}
