// Lesson 2's kernels compiled by nvcc, and their launch functions.

#include <cuda_runtime.h>

#include "gpu_launch.cuh"
#include "kernel_symbols.hpp"
#include "kernels/thread_hierarchy_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::gpu {
#include "kernels/thread_hierarchy.cuh"
}  // namespace tl::gpu

namespace tl::kernels {
namespace {

Status one_per_thread(const LaunchConfig& config, const float* in, float* out, std::uint64_t n) {
  gpu::hierarchy_one_per_thread<<<to_dim3(config.grid), to_dim3(config.block)>>>(in, out, n);
  return launch_status("hierarchy_one_per_thread", config);
}

Status grid_stride(const LaunchConfig& config, const float* in, float* out, std::uint64_t n) {
  gpu::hierarchy_grid_stride<<<to_dim3(config.grid), to_dim3(config.block)>>>(in, out, n);
  return launch_status("hierarchy_grid_stride", config);
}

Status one_per_thread_traced(const LaunchConfig& config, const float* in, float* out,
                             std::uint64_t n, TraceRecord* trace, BlockRecord* blocks) {
  gpu::hierarchy_one_per_thread_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      in, out, n, trace, blocks);
  return launch_status("hierarchy_one_per_thread_traced", config);
}

Status grid_stride_traced(const LaunchConfig& config, const float* in, float* out, std::uint64_t n,
                          TraceRecord* trace, BlockRecord* blocks) {
  gpu::hierarchy_grid_stride_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(in, out, n,
                                                                                     trace, blocks);
  return launch_status("hierarchy_grid_stride_traced", config);
}

}  // namespace

ThreadHierarchyKernels thread_hierarchy_gpu() {
  return {one_per_thread, grid_stride, one_per_thread_traced, grid_stride_traced};
}

std::span<const KernelSymbol> thread_hierarchy_gpu_symbols() {
  static const KernelSymbol kSymbols[] = {
      {"hierarchy_one_per_thread", reinterpret_cast<const void*>(&gpu::hierarchy_one_per_thread)},
      {"hierarchy_grid_stride", reinterpret_cast<const void*>(&gpu::hierarchy_grid_stride)},
  };
  return kSymbols;
}

}  // namespace tl::kernels
