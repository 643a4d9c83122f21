// The reductions lesson's scan (section 9): out[i] = in[0] + ... + in[i], the inclusive prefix
// sum, in three steps. A warp scans its 32 values with shuffles; a block scans its warps' totals
// the same way and adds them; the array scans its blocks' totals (the same kernel, launched again
// on them) and a second pass adds each block's offset. reductions_launch.inl chains the launches.

// Lane l gets the sum of lanes 0 .. l (Hillis and Steele: at step d every lane adds the value d
// lanes below it, so after 5 steps each lane has summed 1, 2, 4, 8 and 16 lanes back).
__device__ __forceinline__ float warp_inclusive_scan(float value) {
  const int lane = threadIdx.x % 32;
  for (int delta = 1; delta < 32; delta *= 2) {
    // Every lane shuffles, the lanes below delta too: a shuffle inside `if (lane >= delta)` would
    // leave lanes out of the full mask.
    const float below = __shfl_up_sync(0xffffffffu, value, delta);
    if (lane >= delta) value += below;
  }
  return value;
}

// Each block scans its blockDim.x elements: warp scans, then the first warp scans the warps'
// totals, and every warp but the first adds the total of the warps before it. The block's total
// goes to block_totals[blockIdx.x] (none when block_totals is null: a single block). `in` and
// `out` may be the same array: each thread reads its element before any thread writes.
template <class Trace>
__global__ void scan_blocks(const float* in, float* out, float* block_totals, int n, Trace trace) {
  __shared__ float warp_totals[32];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int i = blockIdx.x * blockDim.x + tid;
  // Past the end a lane scans a 0: all 32 lanes of every warp take part in every shuffle.
  float value = warp_inclusive_scan(i < n ? in[i] : 0.0f);
  if (lane == 31) warp_totals[warp] = value;
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / 32;
    const float total = warp_inclusive_scan(lane < warps ? warp_totals[lane] : 0.0f);
    // Each lane rewrites only the word it read, after the shuffles: no other lane reads it now.
    if (lane < warps) warp_totals[lane] = total;
  }
  __syncthreads();
  if (warp > 0) value += warp_totals[warp - 1];
  if (i < n) {
    out[i] = value;
    trace.wrote(i);
  }
  if (block_totals != nullptr && tid == static_cast<int>(blockDim.x) - 1) {
    block_totals[blockIdx.x] = value;
  }
}

// The second pass: block b > 0 adds the scanned total of blocks 0 .. b-1 to each of its elements.
__global__ void scan_add_block_offsets(float* out, const float* scanned_totals, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += scanned_totals[blockIdx.x - 1];
}
