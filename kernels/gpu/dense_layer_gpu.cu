// Lesson 5's kernels compiled by nvcc, and their launch functions.

#include <cuda_runtime.h>

#include "lessons/05_dense_layer/dense_layer.hpp"
#include "gpu_launch.cuh"
#include "kernel_symbols.hpp"
#include "kernels/dense_layer_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::gpu {
#include "kernels/dense_layer.cuh"
}  // namespace tl::gpu

namespace tl::kernels {
namespace {

// The model validates launches against the kernel's shared-memory tiles: both must agree.
static_assert(gpu::kDenseMaxTileOut == static_cast<int>(lessons::kDenseLayerMaxBlockX));
static_assert(gpu::kDenseMaxTileRows == static_cast<int>(lessons::kDenseLayerMaxBlockY));

Status product(const LaunchConfig& config, const float* x, const float* w, float* z, int batch,
               int in, int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  gpu::dense_product<<<to_dim3(config.grid), to_dim3(config.block)>>>(x, w, z, batch, in, out);
  return launch_status("dense_product", config);
}

Status add_bias(const LaunchConfig& config, float* z, const float* b, int batch, int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  gpu::dense_add_bias<<<to_dim3(config.grid), to_dim3(config.block)>>>(z, b, batch, out);
  return launch_status("dense_add_bias", config);
}

Status sigmoid(const LaunchConfig& config, const float* z, float* y, int batch, int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  gpu::dense_sigmoid<<<to_dim3(config.grid), to_dim3(config.block)>>>(z, y, batch, out);
  return launch_status("dense_sigmoid", config);
}

Status fused(const LaunchConfig& config, const float* x, const float* w, const float* b, float* y,
             int batch, int in, int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  gpu::dense_fused<<<to_dim3(config.grid), to_dim3(config.block)>>>(x, w, b, y, batch, in, out);
  return launch_status("dense_fused", config);
}

Status bias_sigmoid(const LaunchConfig& config, const float* z, const float* b, float* y, int batch,
                    int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  gpu::dense_bias_sigmoid<<<to_dim3(config.grid), to_dim3(config.block)>>>(z, b, y, batch, out);
  return launch_status("dense_bias_sigmoid", config);
}

Status sigmoid_traced(const LaunchConfig& config, const float* z, float* y, int batch, int out,
                      TraceRecord* trace) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  gpu::dense_sigmoid_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(z, y, batch, out,
                                                                             trace);
  return launch_status("dense_sigmoid_traced", config);
}

Status fused_traced(const LaunchConfig& config, const float* x, const float* w, const float* b,
                    float* y, int batch, int in, int out, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  gpu::dense_fused_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(x, w, b, y, batch, in,
                                                                           out, trace);
  return launch_status("dense_fused_traced", config);
}

Status bias_sigmoid_traced(const LaunchConfig& config, const float* z, const float* b, float* y,
                           int batch, int out, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  gpu::dense_bias_sigmoid_traced<<<to_dim3(config.grid), to_dim3(config.block)>>>(z, b, y, batch,
                                                                                  out, trace);
  return launch_status("dense_bias_sigmoid_traced", config);
}

bool use_gemv(int batch) {
  return static_cast<std::uint64_t>(batch) < lessons::kDenseGemvMaxBatch;
}

// A GEMM launch: the variant the sizes allow (whole tiles, copied without bounds checks, or tiles
// across the matrices' edges), with its pipeline's dynamic shared memory. That stays within the
// 48 KiB every kernel may have without opting in (DenseGemmShape asserts it), so a launch needs no
// cudaFuncSetAttribute first.
template <class... Params, class... Args>
Status launch_gemm(const char* name, const LaunchConfig& config, bool whole_tiles,
                   void (*for_whole_tiles)(Params...), void (*for_edge_tiles)(Params...),
                   Args... args) {
  auto* kernel = whole_tiles ? for_whole_tiles : for_edge_tiles;
  kernel<<<to_dim3(config.grid), to_dim3(config.block), gpu::dense_gemm_shared_bytes()>>>(args...);
  return launch_status(name, config);
}

Status product_fast(const LaunchConfig& config, const float* x, const float* w, float* z, int batch,
                    int in, int out) {
  TL_RETURN_IF_ERROR(check_dense_fast_launch(config, batch, in, out));
  const dim3 grid = to_dim3(config.grid), block = to_dim3(config.block);
  if (use_gemv(batch)) {
    gpu::dense_gemv_product<<<grid, block>>>(x, w, z, in, out);
    return launch_status("dense_gemv_product", config);
  }
  return launch_gemm("dense_gemm_product", config, gpu::dense_gemm_whole_tiles(batch, in, out),
                     &gpu::dense_gemm_product<true>, &gpu::dense_gemm_product<false>, x, w, z,
                     batch, in, out);
}

Status fused_fast(const LaunchConfig& config, const float* x, const float* w, const float* b,
                  float* y, int batch, int in, int out) {
  TL_RETURN_IF_ERROR(check_dense_fast_launch(config, batch, in, out));
  const dim3 grid = to_dim3(config.grid), block = to_dim3(config.block);
  if (use_gemv(batch)) {
    gpu::dense_gemv_fused<<<grid, block>>>(x, w, b, y, in, out);
    return launch_status("dense_gemv_fused", config);
  }
  return launch_gemm("dense_gemm_fused", config, gpu::dense_gemm_whole_tiles(batch, in, out),
                     &gpu::dense_gemm_fused<true>, &gpu::dense_gemm_fused<false>, x, w, b, y, batch,
                     in, out);
}

Status fused_fast_traced(const LaunchConfig& config, const float* x, const float* w, const float* b,
                         float* y, int batch, int in, int out, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(check_dense_fast_launch(config, batch, in, out));
  const dim3 grid = to_dim3(config.grid), block = to_dim3(config.block);
  if (use_gemv(batch)) {
    gpu::dense_gemv_fused_traced<<<grid, block>>>(x, w, b, y, in, out, trace);
    return launch_status("dense_gemv_fused_traced", config);
  }
  return launch_gemm("dense_gemm_fused_traced", config, gpu::dense_gemm_whole_tiles(batch, in, out),
                     &gpu::dense_gemm_fused_traced<true>, &gpu::dense_gemm_fused_traced<false>, x,
                     w, b, y, batch, in, out, trace);
}

}  // namespace

DenseLayerKernels dense_layer_gpu() {
  return {product,      add_bias,       sigmoid,          fused,
          bias_sigmoid, sigmoid_traced, fused_traced,     bias_sigmoid_traced,
          product_fast, fused_fast,     fused_fast_traced};
}

std::span<const KernelSymbol> dense_layer_gpu_symbols() {
  static const KernelSymbol kSymbols[] = {
      {"dense_product", reinterpret_cast<const void*>(&gpu::dense_product)},
      {"dense_add_bias", reinterpret_cast<const void*>(&gpu::dense_add_bias)},
      {"dense_sigmoid", reinterpret_cast<const void*>(&gpu::dense_sigmoid)},
      {"dense_fused", reinterpret_cast<const void*>(&gpu::dense_fused)},
      {"dense_bias_sigmoid", reinterpret_cast<const void*>(&gpu::dense_bias_sigmoid)},
      {"dense_gemv_fused", reinterpret_cast<const void*>(&gpu::dense_gemv_fused)},
      // The variant for whole tiles (sizes that are multiples of 128, such as the lesson's 4096);
      // the edge variant has the same shape and shared memory.
      {"dense_gemm_fused", reinterpret_cast<const void*>(&gpu::dense_gemm_fused<true>),
       &gpu::dense_gemm_shared_bytes},
  };
  return kSymbols;
}

}  // namespace tl::kernels
