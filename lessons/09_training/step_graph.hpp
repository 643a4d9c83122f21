#pragma once
// One training step captured as a CUDA Graph and replayed, against the same kernels launched one by
// one: a graph hands the GPU the whole step at once, so the CPU's cost of each launch leaves the
// critical path. Only built with CUDA (cuda/step_graph.cpp); the header keeps CUDA's types out.

#include <functional>
#include <vector>

#include "core/result.hpp"

namespace tl::compute {

// Captures `work` (kernel launches of lessons/09_training/kernels/mlp.cuh only: no copies, no
// synchronisation) once, then replays it `warmup` times untimed and `repeats` times, each timed
// with CUDA events. Milliseconds per replay.
Result<std::vector<double>> time_as_cuda_graph(const std::function<Status()>& work, int warmup,
                                               int repeats);

}  // namespace tl::compute
