// Lesson 1's kernels compiled by nvcc, and their launch functions.

#include <cuda_runtime.h>

#include "gpu_launch.cuh"
#include "kernel_symbols.hpp"
#include "kernels/trace.cuh"
#include "kernels/vector_add_kernels.hpp"

namespace tl::gpu {
#include "kernels/vector_add.cuh"
}  // namespace tl::gpu

namespace tl::kernels {
namespace {

Status add(const LaunchConfig& config, const float* a, const float* b, float* c, int n) {
  gpu::vector_add<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, n);
  return launch_status("vector_add", config);
}

Status add_traced(const LaunchConfig& config, const float* a, const float* b, float* c, int n,
                  TraceRecord* trace) {
  gpu::vector_add_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, n, trace);
  return launch_status("vector_add_traced", config);
}

}  // namespace

VectorAddKernels vector_add_gpu() {
  return {add, add_traced};
}

std::span<const KernelSymbol> vector_add_gpu_symbols() {
  static const KernelSymbol kSymbols[] = {
      {"vector_add", reinterpret_cast<const void*>(&gpu::vector_add)},
  };
  return kSymbols;
}

}  // namespace tl::kernels
