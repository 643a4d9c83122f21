#pragma once
// Lesson 10's launch functions (lessons/10_debugging/kernels/debugging.cuh), one table per
// executor, found by this type: device.kernels().get<kernels::DebuggingKernels>().

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct DebuggingKernels {
  // out[i] = in[i] - in[i - 1] over n floats (out[0] = in[0]): the right kernel and its five
  // planted bugs, each timed and traced.
  using Launch = Status (*)(const LaunchConfig& config, int n, const float* in, float* out);
  using LaunchTraced = Status (*)(const LaunchConfig& config, int n, const float* in, float* out,
                                  TraceRecord* trace);
  Launch difference;
  Launch wrong_index;
  Launch no_guard;
  Launch no_barrier;
  Launch divergent_barrier;
  Launch accumulates;
  LaunchTraced difference_traced;
  LaunchTraced wrong_index_traced;
  LaunchTraced no_guard_traced;
  LaunchTraced no_barrier_traced;
  LaunchTraced divergent_barrier_traced;
  LaunchTraced accumulates_traced;
};

}  // namespace tl::kernels
