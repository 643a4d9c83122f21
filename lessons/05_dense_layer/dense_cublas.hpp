#pragma once
// Lesson 5's third path, what a framework does: cuBLAS's SGEMM computes the product Z = X · Wᵀ, and
// one kernel of ours applies bias and sigmoid in a single pass (the "epilogue"). Only built with
// CUDA: cuBLAS is NVIDIA's GPU library, so the emulator has no such path. The header keeps cuBLAS's
// types out, so callers need no CUDA headers.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

struct cublasContext;  // cuBLAS's handle type is a pointer to this

namespace tl::compute {

class CublasDenseLayer {
 public:
  CublasDenseLayer() = default;
  ~CublasDenseLayer();
  CublasDenseLayer(const CublasDenseLayer&) = delete;
  CublasDenseLayer& operator=(const CublasDenseLayer&) = delete;

  // Creates the cuBLAS handle if there is none yet. product() does it itself; calling this first
  // keeps the one-time set-up (cuBLAS loading its kernels) out of a timed run.
  Status initialize();

  // Z = X · Wᵀ for row-major X (batch × in), W (out × in) and Z (batch × out) in device memory, on
  // the default stream like ThreadLab's kernels, so CUDA events time both the same way.
  // Asynchronous, like a kernel launch; errors carry cuBLAS's status name.
  Status product(const float* x, const float* w, float* z, int batch, int in, int out);

  // Y = sigmoid(Z + b) with the epilogue kernel, traced into `trace` when it is not null.
  static Status epilogue(const LaunchConfig& config, const float* z, const float* b, float* y,
                         int batch, int out, TraceRecord* trace = nullptr);

 private:
  cublasContext* handle_ = nullptr;  // owned; created lazily
};

}  // namespace tl::compute
