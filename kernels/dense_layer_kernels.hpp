#pragma once
// Lesson 5's launch functions (kernels/dense_layer.cuh), one set per executor. Every kernel gives
// each thread one element of Y (batch × out): x along the neurons, y along the batch rows. The
// launch functions refuse a block too large for the shared-memory tiles
// (lessons::validate_dense_layer_launch) before launching anything.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

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
};

DenseLayerKernels dense_layer_emulated();
DenseLayerKernels dense_layer_gpu();  // only with CUDA

}  // namespace tl::kernels
