#pragma once
// Lesson 1's launch functions (lessons/01_vector_add/kernels/vector_add.cuh), one set per executor.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct VectorAddKernels {
  Status (*add)(const LaunchConfig& config, const float* a, const float* b, float* c, int n);
  Status (*add_traced)(const LaunchConfig& config, const float* a, const float* b, float* c, int n,
                       TraceRecord* trace);
  // vector_add_vectorized (float4 per thread), timed only; launched with
  // lessons::vectorized_vector_add_config.
  Status (*add_vectorized)(const LaunchConfig& config, const float* a, const float* b, float* c,
                           int n);
};

}  // namespace tl::kernels
