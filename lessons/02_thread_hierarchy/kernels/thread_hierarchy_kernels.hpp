#pragma once
// Lesson 2's launch functions (lessons/02_thread_hierarchy/kernels/thread_hierarchy.cuh), one set
// per executor. `n` is 64-bit: the lesson's grids can hold more threads, and its arrays more
// elements, than an int counts.

#include <cstdint>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct ThreadHierarchyKernels {
  // out[i] = 2 * in[i] + 1, one element per thread (elements past the grid are left untouched).
  Status (*one_per_thread)(const LaunchConfig& config, const float* in, float* out,
                           std::uint64_t n);
  // The same with a grid-stride loop: any grid covers every element.
  Status (*grid_stride)(const LaunchConfig& config, const float* in, float* out, std::uint64_t n);
  // Traced variants: one TraceRecord per element (n of them) and one BlockRecord per block
  // (config.grid.volume() of them, indexed by the linear block index).
  Status (*one_per_thread_traced)(const LaunchConfig& config, const float* in, float* out,
                                  std::uint64_t n, TraceRecord* trace, BlockRecord* blocks);
  Status (*grid_stride_traced)(const LaunchConfig& config, const float* in, float* out,
                               std::uint64_t n, TraceRecord* trace, BlockRecord* blocks);
  // Warp divergence: out[i] is one of two functions of in[i] (the same work either way), chosen by
  // the thread's number in its block: by its parity (threadIdx.x % 2 in a 1D block) or by its
  // warp's (threadIdx.x / 32 % 2). Without `grid_stride`, one element per thread.
  Status (*branch_by_thread)(const LaunchConfig& config, const float* in, float* out,
                             std::uint64_t n, bool grid_stride);
  Status (*branch_by_warp)(const LaunchConfig& config, const float* in, float* out, std::uint64_t n,
                           bool grid_stride);
  Status (*branch_by_thread_traced)(const LaunchConfig& config, const float* in, float* out,
                                    std::uint64_t n, bool grid_stride, TraceRecord* trace,
                                    BlockRecord* blocks);
  Status (*branch_by_warp_traced)(const LaunchConfig& config, const float* in, float* out,
                                  std::uint64_t n, bool grid_stride, TraceRecord* trace,
                                  BlockRecord* blocks);
};

}  // namespace tl::kernels
