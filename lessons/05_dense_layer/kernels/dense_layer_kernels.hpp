#pragma once
// Lesson 5's launch functions (lessons/05_dense_layer/kernels/dense_layer.cuh), one set per
// executor. Every kernel gives each thread one element of Y (batch × out): x along the neurons, y
// along the batch rows. The launch functions refuse a block too large for the shared-memory tiles
// (kernels::validate_dense_layer_launch) before launching anything.

#include <string>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_shapes.hpp"

namespace tl::kernels {

struct DenseLayerKernels {
  // Unfused, in order: Z = X · Wᵀ; Z += b; Y = sigmoid(Z).
  Status (*product)(const LaunchConfig& config, const float* x, const float* w, float* z, int batch,
                    int in, int out);
  Status (*add_bias)(const LaunchConfig& config, float* z, const float* b, int batch, int out);
  Status (*sigmoid)(const LaunchConfig& config, const float* z, float* y, int batch, int out);
  // Fused: Y = sigmoid(X · Wᵀ + b) in one kernel.
  Status (*fused)(const LaunchConfig& config, const float* x, const float* w, const float* b,
                  float* y, int batch, int in, int out);
  // The epilogue after a cuBLAS product: Y = sigmoid(Z + b).
  Status (*bias_sigmoid)(const LaunchConfig& config, const float* z, const float* b, float* y,
                         int batch, int out);

  // Traced variants: one TraceRecord per element of Y, element r * out + o.
  Status (*sigmoid_traced)(const LaunchConfig& config, const float* z, float* y, int batch, int out,
                           TraceRecord* trace);
  Status (*fused_traced)(const LaunchConfig& config, const float* x, const float* w, const float* b,
                         float* y, int batch, int in, int out, TraceRecord* trace);
  Status (*bias_sigmoid_traced)(const LaunchConfig& config, const float* z, const float* b,
                                float* y, int batch, int out, TraceRecord* trace);

  // The fast product (lesson 5's "fast" product): a GEMV below kDenseGemvMaxBatch, the
  // pipelined GEMM (dense_gemm_pipelined.cuh) from it on. The configuration must be
  // dense_layer_fast_config.
  Status (*product_fast)(const LaunchConfig& config, const float* x, const float* w, float* z,
                         int batch, int in, int out);
  Status (*fused_fast)(const LaunchConfig& config, const float* x, const float* w, const float* b,
                       float* y, int batch, int in, int out);
  Status (*fused_fast_traced)(const LaunchConfig& config, const float* x, const float* w,
                              const float* b, float* y, int batch, int in, int out,
                              TraceRecord* trace);
};

// The fast kernels compute their share of Y from their block index and a fixed thread count:
// another configuration would leave elements unwritten or compute some twice.
inline Status check_dense_fast_launch(const LaunchConfig& config, int batch, int out) {
  const LaunchConfig expected =
      dense_layer_fast_config(static_cast<std::uint64_t>(batch), static_cast<std::uint64_t>(out));
  if (config.grid != expected.grid || config.block != expected.block) {
    return invalid_argument("the fast dense-layer kernels need " + expected.to_string() +
                            " for batch " + std::to_string(batch) + " and " + std::to_string(out) +
                            " neurons, not " + config.to_string() + ".");
  }
  return Status::ok();
}

}  // namespace tl::kernels
