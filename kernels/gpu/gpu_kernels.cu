// The lesson kernels compiled by nvcc, and their launch functions.

#include <cuda_runtime.h>

#include <string>

#include "gpu_launch.cuh"
#include "kernels/kernel_table.hpp"
#include "kernels/trace.cuh"

namespace tl::gpu {
#include "kernels/vector_add.cuh"
}  // namespace tl::gpu

namespace tl::kernels {
namespace {

Status gpu_vector_add(const LaunchConfig& config, const float* a, const float* b, float* c, int n) {
  gpu::vector_add<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, n);
  return launch_status("vector_add", config);
}

Status gpu_vector_add_traced(const LaunchConfig& config, const float* a, const float* b, float* c,
                             int n, TraceRecord* trace) {
  gpu::vector_add_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, n, trace);
  return launch_status("vector_add_traced", config);
}

}  // namespace

const KernelTable& gpu_kernels() {
  static const KernelTable table{gpu_vector_add, gpu_vector_add_traced};
  return table;
}

}  // namespace tl::kernels
