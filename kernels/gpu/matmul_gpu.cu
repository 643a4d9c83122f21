// Lesson 4's kernels compiled by nvcc, and their launch functions. The tile size is a template
// parameter (the shared tiles are fixed-size arrays), so the runtime tile picks an instantiation.

#include <cuda_runtime.h>

#include "gpu_launch.cuh"
#include "kernel_symbols.hpp"
#include "kernels/matmul_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::gpu {
#include "kernels/matmul.cuh"
}  // namespace tl::gpu

namespace tl::kernels {
namespace {

Status naive(const LaunchConfig& config, const float* a, const float* b, float* c, int m, int n,
             int k) {
  gpu::matmul_naive<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, m, n, k);
  return launch_status("matmul_naive", config);
}

Status naive_traced(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                    int n, int k, TraceRecord* trace) {
  gpu::matmul_naive_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, m, n, k,
                                                                            trace);
  return launch_status("matmul_naive_traced", config);
}

template <int kTile>
Status tiled_with(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                  int n, int k) {
  gpu::matmul_tiled<kTile><<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, m, n, k);
  return launch_status("matmul_tiled", config);
}

template <int kTile>
Status tiled_traced_with(const LaunchConfig& config, const float* a, const float* b, float* c,
                         int m, int n, int k, TraceRecord* trace) {
  gpu::matmul_tiled_traced<kTile>
      <<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, m, n, k, trace);
  return launch_status("matmul_tiled_traced", config);
}

Status tiled(const LaunchConfig& config, int tile, const float* a, const float* b, float* c, int m,
             int n, int k) {
  TL_RETURN_IF_ERROR(check_tiled_launch(tile, config));
  switch (tile) {
    case 8:
      return tiled_with<8>(config, a, b, c, m, n, k);
    case 16:
      return tiled_with<16>(config, a, b, c, m, n, k);
    default:
      return tiled_with<32>(config, a, b, c, m, n, k);
  }
}

Status tiled_traced(const LaunchConfig& config, int tile, const float* a, const float* b, float* c,
                    int m, int n, int k, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(check_tiled_launch(tile, config));
  switch (tile) {
    case 8:
      return tiled_traced_with<8>(config, a, b, c, m, n, k, trace);
    case 16:
      return tiled_traced_with<16>(config, a, b, c, m, n, k, trace);
    default:
      return tiled_traced_with<32>(config, a, b, c, m, n, k, trace);
  }
}

}  // namespace

MatmulKernels matmul_gpu() {
  return {naive, tiled, naive_traced, tiled_traced};
}

std::span<const KernelSymbol> matmul_gpu_symbols() {
  static const KernelSymbol kSymbols[] = {
      {"matmul_naive", reinterpret_cast<const void*>(&gpu::matmul_naive)},
      {"matmul_tiled<8>", reinterpret_cast<const void*>(&gpu::matmul_tiled<8>)},
      {"matmul_tiled<16>", reinterpret_cast<const void*>(&gpu::matmul_tiled<16>)},
      {"matmul_tiled<32>", reinterpret_cast<const void*>(&gpu::matmul_tiled<32>)},
  };
  return kSymbols;
}

}  // namespace tl::kernels
