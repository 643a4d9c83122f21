#pragma once
// The scratch SAXPY lesson's launch functions (lessons/12_saxpy/kernels/saxpy.cuh), one table per
// executor, found by this type: device.kernels().get<kernels::SaxpyKernels>().

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct SaxpyKernels {
  // out = a * x + y over n floats; out may be y (in place).
  Status (*saxpy)(const LaunchConfig& config, int n, float a, const float* x, const float* y,
                  float* out);
  Status (*saxpy_traced)(const LaunchConfig& config, int n, float a, const float* x, const float* y,
                         float* out, TraceRecord* trace);
};

}  // namespace tl::kernels
