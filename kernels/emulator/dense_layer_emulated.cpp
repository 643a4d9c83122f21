// Lesson 5's kernels compiled by the host compiler for the CPU emulator, in a namespace of their
// own so their names cannot collide with the nvcc-compiled kernels of the same name.

#include <cmath>  // expf for the kernels' sigmoid, as nvcc provides it on the device

#include "cuda_emulation.hpp"
#include "emulate.hpp"
#include "kernels/dense_layer_kernels.hpp"
#include "kernels/trace.cuh"
#include "lessons/05_dense_layer/dense_layer.hpp"

namespace tl::emulated {
#include "kernels/dense_layer.cuh"
}  // namespace tl::emulated

namespace tl::kernels {
namespace {

static_assert(emulated::kDenseMaxTileOut == static_cast<int>(lessons::kDenseLayerMaxBlockX));
static_assert(emulated::kDenseMaxTileRows == static_cast<int>(lessons::kDenseLayerMaxBlockY));

// The product's tiles are shared by the threads of a block and filled between __syncthreads():
// those kernels need the emulator's fibers. The element-wise kernels take the fast path.
constexpr emu::GridOptions kWithBarriers{.barriers = emu::Barriers::kUsed};
constexpr emu::GridOptions kElementWise{};

Status product(const LaunchConfig& config, const float* x, const float* w, float* z, int batch,
               int in, int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  return emu::emulate("dense_product", config, kWithBarriers,
                      [=] { emulated::dense_product(x, w, z, batch, in, out); });
}

Status add_bias(const LaunchConfig& config, float* z, const float* b, int batch, int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  return emu::emulate("dense_add_bias", config, kElementWise,
                      [=] { emulated::dense_add_bias(z, b, batch, out); });
}

Status sigmoid(const LaunchConfig& config, const float* z, float* y, int batch, int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  return emu::emulate("dense_sigmoid", config, kElementWise,
                      [=] { emulated::dense_sigmoid(z, y, batch, out); });
}

Status fused(const LaunchConfig& config, const float* x, const float* w, const float* b, float* y,
             int batch, int in, int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  return emu::emulate("dense_fused", config, kWithBarriers,
                      [=] { emulated::dense_fused(x, w, b, y, batch, in, out); });
}

Status bias_sigmoid(const LaunchConfig& config, const float* z, const float* b, float* y, int batch,
                    int out) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  return emu::emulate("dense_bias_sigmoid", config, kElementWise,
                      [=] { emulated::dense_bias_sigmoid(z, b, y, batch, out); });
}

Status sigmoid_traced(const LaunchConfig& config, const float* z, float* y, int batch, int out,
                      TraceRecord* trace) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  return emu::emulate("dense_sigmoid_traced", config, kElementWise,
                      [=] { emulated::dense_sigmoid_traced(z, y, batch, out, trace); });
}

Status fused_traced(const LaunchConfig& config, const float* x, const float* w, const float* b,
                    float* y, int batch, int in, int out, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  return emu::emulate("dense_fused_traced", config, kWithBarriers,
                      [=] { emulated::dense_fused_traced(x, w, b, y, batch, in, out, trace); });
}

Status bias_sigmoid_traced(const LaunchConfig& config, const float* z, const float* b, float* y,
                           int batch, int out, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  return emu::emulate("dense_bias_sigmoid_traced", config, kElementWise,
                      [=] { emulated::dense_bias_sigmoid_traced(z, b, y, batch, out, trace); });
}

bool use_gemv(int batch) {
  return static_cast<std::uint64_t>(batch) < lessons::kDenseGemvMaxBatch;
}

Status product_fast(const LaunchConfig& config, const float* x, const float* w, float* z, int batch,
                    int in, int out) {
  TL_RETURN_IF_ERROR(check_dense_fast_launch(config, batch, in, out));
  if (use_gemv(batch)) {
    return emu::emulate("dense_gemv_product", config, kWithBarriers,
                        [=] { emulated::dense_gemv_product(x, w, z, in, out); });
  }
  return emu::emulate("dense_gemm_product", config, kWithBarriers, [=] {
    emulated::dense_gemm_whole_tiles(batch, in, out)
        ? emulated::dense_gemm_product<true>(x, w, z, batch, in, out)
        : emulated::dense_gemm_product<false>(x, w, z, batch, in, out);
  });
}

Status fused_fast(const LaunchConfig& config, const float* x, const float* w, const float* b,
                  float* y, int batch, int in, int out) {
  TL_RETURN_IF_ERROR(check_dense_fast_launch(config, batch, in, out));
  if (use_gemv(batch)) {
    return emu::emulate("dense_gemv_fused", config, kWithBarriers,
                        [=] { emulated::dense_gemv_fused(x, w, b, y, in, out); });
  }
  return emu::emulate("dense_gemm_fused", config, kWithBarriers, [=] {
    emulated::dense_gemm_whole_tiles(batch, in, out)
        ? emulated::dense_gemm_fused<true>(x, w, b, y, batch, in, out)
        : emulated::dense_gemm_fused<false>(x, w, b, y, batch, in, out);
  });
}

Status fused_fast_traced(const LaunchConfig& config, const float* x, const float* w, const float* b,
                         float* y, int batch, int in, int out, TraceRecord* trace) {
  TL_RETURN_IF_ERROR(check_dense_fast_launch(config, batch, in, out));
  if (use_gemv(batch)) {
    return emu::emulate("dense_gemv_fused_traced", config, kWithBarriers,
                        [=] { emulated::dense_gemv_fused_traced(x, w, b, y, in, out, trace); });
  }
  return emu::emulate("dense_gemm_fused_traced", config, kWithBarriers, [=] {
    emulated::dense_gemm_whole_tiles(batch, in, out)
        ? emulated::dense_gemm_fused_traced<true>(x, w, b, y, batch, in, out, trace)
        : emulated::dense_gemm_fused_traced<false>(x, w, b, y, batch, in, out, trace);
  });
}

}  // namespace

DenseLayerKernels dense_layer_emulated() {
  return {product,      add_bias,       sigmoid,          fused,
          bias_sigmoid, sigmoid_traced, fused_traced,     bias_sigmoid_traced,
          product_fast, fused_fast,     fused_fast_traced};
}

}  // namespace tl::kernels
