// Lesson 4's kernels compiled by nvcc, and their launch functions. The tile size is a template
// parameter (the shared tiles are fixed-size arrays), so the runtime tile picks an instantiation.

#include <cuda_runtime.h>

#include "gpu_launch.cuh"
#include "kernel_symbols.hpp"
#include "kernels/matmul_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::gpu {
#include "kernels/matmul.cuh"
#include "kernels/matmul_regtile_1d.cuh"
#include "kernels/matmul_regtile_2d.cuh"
#include "kernels/matmul_tile_io.cuh"
#include "kernels/matmul_vectorized.cuh"
#include "kernels/matmul_warptile.cuh"
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

Status uncoalesced(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                   int n, int k) {
  gpu::matmul_uncoalesced<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, m, n, k);
  return launch_status("matmul_uncoalesced", config);
}

Status uncoalesced_traced(const LaunchConfig& config, const float* a, const float* b, float* c,
                          int m, int n, int k, TraceRecord* trace) {
  gpu::matmul_uncoalesced_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(a, b, c, m, n, k,
                                                                                  trace);
  return launch_status("matmul_uncoalesced_traced", config);
}

// The shapes the register-tiled kernels are compiled with must be the ones the lesson plans with.
constexpr bool matches(lessons::MatmulKernel kernel, int tile_m, int tile_n, int tile_k,
                       int threads) {
  const auto shape = lessons::matmul_block_tile(kernel);
  return shape && static_cast<int>(shape->tile_m) == tile_m &&
         static_cast<int>(shape->tile_n) == tile_n && static_cast<int>(shape->tile_k) == tile_k &&
         static_cast<int>(shape->threads) == threads;
}
static_assert(matches(lessons::MatmulKernel::kRegtile1d, gpu::kRegtile1dTileM, gpu::kRegtile1dTileN,
                      gpu::kRegtile1dTileK, gpu::kRegtile1dThreads));
static_assert(matches(lessons::MatmulKernel::kRegtile2d, gpu::kRegtile2dTileM, gpu::kRegtile2dTileN,
                      gpu::kRegtile2dTileK, gpu::kRegtile2dThreads));
static_assert(matches(lessons::MatmulKernel::kVectorized, gpu::kVectorizedTileM,
                      gpu::kVectorizedTileN, gpu::kVectorizedTileK, gpu::kVectorizedThreads));
static_assert(matches(lessons::MatmulKernel::kWarptile, gpu::MatmulWarptile::BM,
                      gpu::MatmulWarptile::BN, gpu::MatmulWarptile::BK,
                      gpu::MatmulWarptile::THREADS));

Status block_tiled_with_trace(const LaunchConfig& config, lessons::MatmulKernel kernel,
                              const float* a, const float* b, float* c, int m, int n, int k,
                              TraceRecord* trace) {
  TL_RETURN_IF_ERROR(check_block_tile_launch(kernel, config));
  const dim3 grid = to_dim3(config.grid), block = to_dim3(config.block);
  switch (kernel) {
    case lessons::MatmulKernel::kRegtile1d:
      if (trace) {
        gpu::matmul_regtile_1d_traced<<<grid, block>>>(a, b, c, m, n, k, trace);
      } else {
        gpu::matmul_regtile_1d<<<grid, block>>>(a, b, c, m, n, k);
      }
      return launch_status("matmul_regtile_1d", config);
    case lessons::MatmulKernel::kRegtile2d:
      if (trace) {
        gpu::matmul_regtile_2d_traced<<<grid, block>>>(a, b, c, m, n, k, trace);
      } else {
        gpu::matmul_regtile_2d<<<grid, block>>>(a, b, c, m, n, k);
      }
      return launch_status("matmul_regtile_2d", config);
    case lessons::MatmulKernel::kVectorized:
      if (trace) {
        gpu::matmul_vectorized_traced<<<grid, block>>>(a, b, c, m, n, k, trace);
      } else {
        gpu::matmul_vectorized<<<grid, block>>>(a, b, c, m, n, k);
      }
      return launch_status("matmul_vectorized", config);
    default:
      if (trace) {
        gpu::matmul_warptile_traced<gpu::MatmulWarptile><<<grid, block>>>(a, b, c, m, n, k, trace);
      } else {
        gpu::matmul_warptile<gpu::MatmulWarptile><<<grid, block>>>(a, b, c, m, n, k);
      }
      return launch_status("matmul_warptile", config);
  }
}

Status block_tiled(const LaunchConfig& config, lessons::MatmulKernel kernel, const float* a,
                   const float* b, float* c, int m, int n, int k) {
  return block_tiled_with_trace(config, kernel, a, b, c, m, n, k, nullptr);
}

}  // namespace

MatmulKernels matmul_gpu() {
  return {naive,        tiled,
          naive_traced, tiled_traced,
          uncoalesced,  uncoalesced_traced,
          block_tiled,  block_tiled_with_trace};
}

std::span<const KernelSymbol> matmul_gpu_symbols() {
  static const KernelSymbol kSymbols[] = {
      {"matmul_naive", reinterpret_cast<const void*>(&gpu::matmul_naive)},
      {"matmul_tiled<8>", reinterpret_cast<const void*>(&gpu::matmul_tiled<8>)},
      {"matmul_tiled<16>", reinterpret_cast<const void*>(&gpu::matmul_tiled<16>)},
      {"matmul_tiled<32>", reinterpret_cast<const void*>(&gpu::matmul_tiled<32>)},
      {"matmul_uncoalesced", reinterpret_cast<const void*>(&gpu::matmul_uncoalesced)},
      {"matmul_regtile_1d", reinterpret_cast<const void*>(&gpu::matmul_regtile_1d)},
      {"matmul_regtile_2d", reinterpret_cast<const void*>(&gpu::matmul_regtile_2d)},
      {"matmul_vectorized", reinterpret_cast<const void*>(&gpu::matmul_vectorized)},
      {"matmul_warptile",
       reinterpret_cast<const void*>(&gpu::matmul_warptile<gpu::MatmulWarptile>)},
  };
  return kSymbols;
}

}  // namespace tl::kernels
