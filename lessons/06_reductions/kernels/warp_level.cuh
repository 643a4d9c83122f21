// The reductions lesson's warp-level kernels (section 8): votes and cooperative groups. Both
// count on blocks of whole warps, which every reduction launch has (check_reduction_block).
// `namespace cg = cooperative_groups;` comes from the executor file: CUDA's <cooperative_groups.h>
// on the GPU, kernels/emulator/cooperative_groups_emulation.hpp on the emulator.

// How many elements exceed `threshold`, one atomic per element that does: the queue of rung 1.
__global__ void count_above_atomic(const float* in, int n, float threshold, unsigned int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > threshold) atomicAdd(count, 1u);
}

// The same count with one vote per warp. __ballot_sync gives every lane a 32-bit word with bit l
// set where lane l's predicate holds; __popc counts its bits; one lane adds the warp's count.
__global__ void count_above_ballot(const float* in, int n, float threshold, unsigned int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  // Every lane of the warp is here, so the full mask is right. The answer is the lanes that hold
  // an element: all 32, except in the last warp of the array.
  const unsigned int has_element = __ballot_sync(0xffffffffu, i < n);
  if (i < n) {
    // Only the lanes with an element take this branch: the mask names exactly them. The full mask
    // here would name lanes that never arrive (the emulator stops with their numbers).
    const unsigned int above = __ballot_sync(has_element, in[i] > threshold);
    // The lowest lane present adds the warp's count: one atomic per warp instead of per element.
    if (lane == __ffs(has_element) - 1) atomicAdd(count, static_cast<unsigned int>(__popc(above)));
  }
}

// Sum rung 7: the warp-shuffle tail written with cooperative groups. The block is an object, a
// warp is a tile of it (tiled_partition<32>), and the tile's shfl_down needs no mask: the tile
// knows its lanes. Every warp sums its values in registers (no shared-memory tree at all), lane 0
// of each puts its warp's sum in shared memory, and the first warp sums those.
template <class Trace>
__global__ void sum_cooperative_groups(const float* in, float* out, int n, Trace trace) {
  __shared__ float warp_sums[kSumMaxBlock / 32];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int tid = threadIdx.x;
  const int rank = static_cast<int>(warp.thread_rank());  // the lane
  const int i = blockIdx.x * (2 * blockDim.x) + tid;
  float sum = 0.0f;
  if (i < n) {
    sum = in[i];
    trace.wrote(i);
  }
  if (i + static_cast<int>(blockDim.x) < n) {
    sum += in[i + blockDim.x];
    trace.wrote(i + blockDim.x);
  }
  int level = 0;
  for (int offset = warp.size() / 2; offset > 0; offset /= 2, ++level) {
    sum += warp.shfl_down(sum, offset);
    if (rank < offset) trace.added(level, tid, tid + offset);
  }
  if (rank == 0) warp_sums[warp.meta_group_rank()] = sum;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    const int warps = static_cast<int>(warp.meta_group_size());
    sum = rank < warps ? warp_sums[rank] : 0.0f;
    // In the tree's terms, lane l now holds the sum of warp l, which thread 32·l had.
    for (int offset = warp.size() / 2; offset > 0; offset /= 2, ++level) {
      sum += warp.shfl_down(sum, offset);
      if (rank + offset < warps) trace.added(level, 32 * rank, 32 * (rank + offset));
    }
    if (rank == 0) atomicAdd(out, sum);
  }
}
