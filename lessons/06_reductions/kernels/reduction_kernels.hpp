#pragma once
// The reductions lesson's launch functions (lessons/06_reductions/kernels/sum_ladder.cuh,
// sum_vectorized.cuh, histogram.cuh, softmax.cuh), one set per executor, plus CUB's device-wide sum
// on the GPU.

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
  kAtomic,       // one atomicAdd per element
  kInterleaved,  // shared-memory tree, interleaved addressing (divergent warps)
  kStrided,      // shared-memory tree, strided index (no divergence, bank conflicts)
  kSequential,   // shared-memory tree, sequential addressing
  kFirstAdd,     // sequential tree, first add during load (two elements per thread)
  kWarpShuffle,  // first add, sequential tree down to 64, then warp shuffles
  kVectorized,   // one pass: grid-stride float4 loads, shuffles, last block finishes
};
inline constexpr SumRung kSumRungs[] = {
    SumRung::kAtomic,   SumRung::kInterleaved, SumRung::kStrided,   SumRung::kSequential,
    SumRung::kFirstAdd, SumRung::kWarpShuffle, SumRung::kVectorized};

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

  // CUB's cub::DeviceReduce::Sum: *out = sum of in[0 .. n). Called with temp == null it only sets
  // *temp_bytes to the scratch memory it needs, as CUB does. Null on the emulator: CUB is
  // NVIDIA's GPU library.
  Status (*library_sum)(void* temp, std::size_t* temp_bytes, const float* in, float* out, int n);
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
