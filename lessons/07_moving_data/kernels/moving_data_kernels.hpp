#pragma once
// Lesson 7's launch functions (lessons/07_moving_data/kernels/moving_data.cuh), one set per
// executor.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct MovingDataKernels {
  Status (*transform)(const LaunchConfig& config, const float* in, float* out, int n, int rounds);
  Status (*transform_traced)(const LaunchConfig& config, const float* in, float* out, int n,
                             int rounds, TraceRecord* trace);
  // The same untraced kernel launched on a stream (a cudaStream_t passed as an opaque pointer, so
  // callers need no CUDA headers): the streams-and-overlap pipeline. Null on the emulator, which
  // has no streams; the lesson models its timeline instead.
  Status (*transform_on_stream)(void* stream, const LaunchConfig& config, const float* in,
                                float* out, int n, int rounds);
};

}  // namespace tl::kernels
