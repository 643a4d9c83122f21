// Lesson 3's kernels compiled by nvcc, and their launch functions.

#include <cuda_runtime.h>

#include "gpu_launch.cuh"
#include "kernel_symbols.hpp"
#include "kernels/matrix_add_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::gpu {
#include "kernels/matrix_add.cuh"
}  // namespace tl::gpu

namespace tl::kernels {
namespace {

Status x_to_col(const LaunchConfig& config, const float* a, const float* b, float* c, int rows,
                int cols) {
  gpu::matrix_add_x_to_col<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, rows, cols);
  return launch_status("matrix_add_x_to_col", config);
}

Status x_to_row(const LaunchConfig& config, const float* a, const float* b, float* c, int rows,
                int cols) {
  gpu::matrix_add_x_to_row<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, rows, cols);
  return launch_status("matrix_add_x_to_row", config);
}

Status x_to_col_traced(const LaunchConfig& config, const float* a, const float* b, float* c,
                       int rows, int cols, TraceRecord* trace) {
  gpu::matrix_add_x_to_col_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, rows,
                                                                                   cols, trace);
  return launch_status("matrix_add_x_to_col_traced", config);
}

Status x_to_row_traced(const LaunchConfig& config, const float* a, const float* b, float* c,
                       int rows, int cols, TraceRecord* trace) {
  gpu::matrix_add_x_to_row_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, rows,
                                                                                   cols, trace);
  return launch_status("matrix_add_x_to_row_traced", config);
}

}  // namespace

MatrixAddKernels matrix_add_gpu() {
  return {x_to_col, x_to_row, x_to_col_traced, x_to_row_traced};
}

std::span<const KernelSymbol> matrix_add_gpu_symbols() {
  static const KernelSymbol kSymbols[] = {
      {"matrix_add_x_to_col", reinterpret_cast<const void*>(&gpu::matrix_add_x_to_col)},
      {"matrix_add_x_to_row", reinterpret_cast<const void*>(&gpu::matrix_add_x_to_row)},
  };
  return kSymbols;
}

}  // namespace tl::kernels
