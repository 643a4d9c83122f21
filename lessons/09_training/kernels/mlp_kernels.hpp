#pragma once
// The capstone's launch functions (lessons/09_training/kernels/mlp.cuh), one set per executor: the
// product every layer uses forward and backward, the loss, its sum and the two optimizers.

#include <span>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "kernels/kernel_description.hpp"
#include "lessons/09_training/kernels/mlp_shapes.hpp"

namespace tl::kernels {

struct MlpKernels {
  // C = A · B and its epilogue; the configuration must be mlp_gemm_config(g.m, g.n).
  Status (*gemm)(const LaunchConfig& config, MlpGemm g);
  // The same, recording the writer of each element of C (element m * ldc + n).
  Status (*gemm_traced)(const LaunchConfig& config, MlpGemm g, TraceRecord* trace);
  // The slices of a split product added in order; mlp_elementwise_config(count).
  Status (*sum_splits)(const LaunchConfig& config, const float* partials, float* out, int count,
                       int splits, int stride);
  // One thread per example: mlp_elementwise_config(batch).
  Status (*softmax_cross_entropy)(const LaunchConfig& config, const float* logits,
                                  const int* labels, float* dlogits, float* row_loss,
                                  float* row_correct, int batch, int classes, float grad_scale);
  Status (*softmax)(const LaunchConfig& config, const float* logits, float* probabilities,
                    int batch, int classes);
  // One block: mlp_sum_config().
  Status (*sum_losses)(const LaunchConfig& config, const float* row_loss, const float* row_correct,
                       int batch, float* out);
  // One thread per parameter: mlp_elementwise_config(count).
  Status (*sgd_momentum)(const LaunchConfig& config, float* params, const float* grads,
                         float* velocity, int count, float learning_rate, float momentum);
  Status (*adam)(const LaunchConfig& config, float* params, const float* grads, float* mean,
                 float* mean_square, int count, float corrected_rate, float beta1, float beta2,
                 float corrected_epsilon);
};

}  // namespace tl::kernels
