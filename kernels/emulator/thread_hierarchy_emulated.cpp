// Lesson 2's kernels compiled by the host compiler for the CPU emulator. The traced kernels call
// __syncthreads() (thread 0 waits for its block before it writes the block's record), so they run
// with Barriers::kUsed: each block's threads as fibers.

#include "cuda_emulation.hpp"
#include "emulate.hpp"
#include "kernels/thread_hierarchy_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::emulated {
#include "kernels/thread_hierarchy.cuh"
}  // namespace tl::emulated

namespace tl::kernels {
namespace {

constexpr emu::GridOptions kWithBarriers{emu::Barriers::kUsed};

Status one_per_thread(const LaunchConfig& config, const float* in, float* out, std::uint64_t n) {
  return emu::emulate("hierarchy_one_per_thread", config, {},
                      [=] { emulated::hierarchy_one_per_thread(in, out, n); });
}

Status grid_stride(const LaunchConfig& config, const float* in, float* out, std::uint64_t n) {
  return emu::emulate("hierarchy_grid_stride", config, {},
                      [=] { emulated::hierarchy_grid_stride(in, out, n); });
}

Status one_per_thread_traced(const LaunchConfig& config, const float* in, float* out,
                             std::uint64_t n, TraceRecord* trace, BlockRecord* blocks) {
  return emu::emulate("hierarchy_one_per_thread_traced", config, kWithBarriers, [=] {
    emulated::hierarchy_one_per_thread_traced(in, out, n, trace, blocks);
  });
}

Status grid_stride_traced(const LaunchConfig& config, const float* in, float* out, std::uint64_t n,
                          TraceRecord* trace, BlockRecord* blocks) {
  return emu::emulate("hierarchy_grid_stride_traced", config, kWithBarriers,
                      [=] { emulated::hierarchy_grid_stride_traced(in, out, n, trace, blocks); });
}

}  // namespace

ThreadHierarchyKernels thread_hierarchy_emulated() {
  return {one_per_thread, grid_stride, one_per_thread_traced, grid_stride_traced};
}

}  // namespace tl::kernels
