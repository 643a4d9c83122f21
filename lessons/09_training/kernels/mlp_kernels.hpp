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
  // Every layer's slices added in one launch: mlp_sum_all_splits_config(sums).
  Status (*sum_all_splits)(const LaunchConfig& config, MlpSplitSums sums);
  // A layer of at most kMlpThinMax neurons, forward: mlp_thin_forward_config(rows). With labels
  // (the output layer), also what softmax_cross_entropy computes, in the same launch.
  Status (*thin_forward)(const LaunchConfig& config, const float* a, const float* w, float* z,
                         int rows, int in, int out, int relu, const int* labels, float* dlogits,
                         float* row_loss, float* row_correct, float grad_scale);
  // Its weight gradient's slices and (dprev not null) the layer below's dZ:
  // mlp_thin_backward_config(rows).
  Status (*thin_backward)(const LaunchConfig& config, const float* dz, const float* input,
                          const float* w, float* partials, float* dprev, int rows, int in, int out);
  // A first layer's weight gradient when it has at most kMlpThinMax inputs:
  // mlp_thin_backward_config(rows), one slice per kMlpThinRows rows.
  Status (*narrow_input_gradient)(const LaunchConfig& config, const float* dz, const float* input,
                                  float* partials, int rows, int in, int out);
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
