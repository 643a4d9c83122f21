#pragma once
// The reductions lesson's launch functions (lessons/06_reductions/kernels/sum_ladder.cuh,
// sum_vectorized.cuh, warp_level.cuh, scan.cuh, histogram.cuh, softmax.cuh), one set per executor,
// plus CUB's device-wide sum and scan on the GPU.

#include <cstddef>
#include <cstdint>

#include "core/dim3.hpp"
#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

// The sum ladder, in teaching order. Every rung but the last adds into *out, which the caller
// zeroes before each launch; kVectorized writes *out itself (sum_vectorized.cuh).
enum class SumRung : std::uint8_t {
  kAtomic,             // one atomicAdd per element
  kInterleaved,        // shared-memory tree, interleaved addressing (divergent warps)
  kStrided,            // shared-memory tree, strided index (no divergence, bank conflicts)
  kSequential,         // shared-memory tree, sequential addressing
  kFirstAdd,           // sequential tree, first add during load (two elements per thread)
  kWarpShuffle,        // first add, sequential tree down to 64, then warp shuffles
  kCooperativeGroups,  // first add, every warp sums with a cooperative-groups tile, no tree
  kVectorized,         // one pass: grid-stride float4 loads, shuffles, last block finishes
};
inline constexpr SumRung kSumRungs[] = {
    SumRung::kAtomic,   SumRung::kInterleaved, SumRung::kStrided,           SumRung::kSequential,
    SumRung::kFirstAdd, SumRung::kWarpShuffle, SumRung::kCooperativeGroups, SumRung::kVectorized};

// The scan's passes over an array of n with blocks of `block` threads: one per level of block
// totals (n <= block: 1; n <= block²: 2; ...).
inline constexpr int scan_levels(std::uint64_t n, std::uint32_t block) {
  int levels = 1;
  for (std::uint64_t blocks = (n + block - 1) / block; blocks > 1;
       blocks = (blocks + block - 1) / block) {
    ++levels;
  }
  return levels;
}
// The floats of scratch memory the scan needs for its block totals at every level.
inline constexpr std::uint64_t scan_scratch_floats(std::uint64_t n, std::uint32_t block) {
  std::uint64_t floats = 0;
  for (std::uint64_t blocks = (n + block - 1) / block; blocks > 1;
       blocks = (blocks + block - 1) / block) {
    floats += blocks;
  }
  return floats;
}

// Levels a block's tree can have (lessons/06_reductions/kernels/reduction_trace.cuh records them):
// log2(1024) for a shared-memory tree, and a shuffle tree has 5 levels inside each warp plus 5
// across the 32 warps of a 1024-thread block.
inline constexpr int kReductionTreeLevels = 10;

// What the sums write: the result, and for kVectorized its per-block sums (one float per block of
// the grid) and the count of finished blocks (an unsigned int, 0 before the first launch and left
// at 0 by every launch).
struct SumOutputs {
  float* out = nullptr;
  float* block_sums = nullptr;
  unsigned int* blocks_done = nullptr;
};

struct ReductionKernels {
  Status (*sum)(SumRung rung, const LaunchConfig& config, const float* in, int n,
                const SumOutputs& outputs);
  // The same, recording who read each element (records[i]) and block 0's tree (`tree`:
  // kReductionTreeLevels × block threads pairs of ints, which the caller sets to -1).
  Status (*sum_traced)(SumRung rung, const LaunchConfig& config, const float* in, int n,
                       const SumOutputs& outputs, TraceRecord* records, int* tree);
  // out[i % addresses] += in[i] with one atomic per element (out zeroed by the caller).
  Status (*add_to_addresses)(const LaunchConfig& config, const float* in, float* out, int n,
                             int addresses);
  // counts[values[i]] += 1 (counts zeroed by the caller); bins <= 1024.
  Status (*histogram_global)(const LaunchConfig& config, const unsigned int* values,
                             unsigned int* counts, int n, int bins);
  Status (*histogram_shared)(const LaunchConfig& config, const unsigned int* values,
                             unsigned int* counts, int n, int bins);
  // Row-wise softmax of a rows × cols matrix, one block per row.
  Status (*softmax_naive)(const LaunchConfig& config, const float* x, float* y, int rows, int cols);
  Status (*softmax_stable)(const LaunchConfig& config, const float* x, float* y, int rows,
                           int cols);
  Status (*softmax_stable_traced)(const LaunchConfig& config, const float* x, float* y, int rows,
                                  int cols, TraceRecord* records);

  // *count = how many in[i] > threshold (count zeroed by the caller): one atomic per element
  // above, or one __ballot_sync per warp and one atomic per warp (warp_level.cuh).
  Status (*count_above_atomic)(const LaunchConfig& config, const float* in, int n, float threshold,
                               unsigned int* count);
  Status (*count_above_ballot)(const LaunchConfig& config, const float* in, int n, float threshold,
                               unsigned int* count);
  // out[i] = in[0] + ... + in[i] with blocks of `block` threads (scan.cuh): every level's block
  // scan, then the second passes; `scratch` holds scan_scratch_floats(n, block) floats. The traced
  // one records, for every element, the thread of the first pass that scanned it.
  Status (*scan)(std::uint32_t block, const float* in, float* out, int n, float* scratch);
  Status (*scan_traced)(std::uint32_t block, const float* in, float* out, int n, float* scratch,
                        TraceRecord* records);

  // CUB's cub::DeviceReduce::Sum: *out = sum of in[0 .. n). Called with temp == null it only sets
  // *temp_bytes to the scratch memory it needs, as CUB does. Null on the emulator: CUB is
  // NVIDIA's GPU library.
  Status (*library_sum)(void* temp, std::size_t* temp_bytes, const float* in, float* out, int n);
  // CUB's cub::DeviceScan::InclusiveSum, called the same way. Null on the emulator.
  Status (*library_scan)(void* temp, std::size_t* temp_bytes, const float* in, float* out, int n);
};

// The launch shapes the kernels accept: 1D blocks of 32 to 1024 threads, a power of two (the
// trees halve the block; the shuffles need whole warps).
inline Status check_reduction_block(const LaunchConfig& config) {
  const Dim3 block = config.block;
  const bool power_of_two = block.x != 0 && (block.x & (block.x - 1)) == 0;
  if (block.y != 1 || block.z != 1 || !power_of_two || block.x < 32 || block.x > 1024) {
    return invalid_argument(
        "the reduction kernels take 1D blocks of 32 to 1024 threads, a power of "
        "two (the trees halve the block, the shuffles need whole warps), not " +
        to_string(block) + ".");
  }
  if (config.grid.y != 1 || config.grid.z != 1) {
    return invalid_argument("the reduction kernels take a 1D grid, not " + to_string(config.grid) +
                            ".");
  }
  return Status::ok();
}

}  // namespace tl::kernels
