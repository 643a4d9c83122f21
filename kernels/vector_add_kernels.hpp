#pragma once
// Lesson 1's launch functions (kernels/vector_add.cuh), one set per executor.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct VectorAddKernels {
  Status (*add)(const LaunchConfig& config, const float* a, const float* b, float* c, int n);
  Status (*add_traced)(const LaunchConfig& config, const float* a, const float* b, float* c, int n,
                       TraceRecord* trace);
};

VectorAddKernels vector_add_emulated();
VectorAddKernels vector_add_gpu();  // only with CUDA

}  // namespace tl::kernels
