#pragma once
// Data parallel training in the lesson's timed run (the `gpus` parameter): with 2 or more GPUs and
// NCCL, the step at the lesson's batch on 1..N GPUs and NCCL's all-reduce of the gradients, as
// rows of the run's table, and the speedup against the ideal as notes; otherwise a note that says
// why the option does nothing here. The window and `threadlab run --lesson training --gpus N`
// show the same rows.

#include <atomic>
#include <optional>
#include <string>

#include "compute/lessons/lesson.hpp"
#include "mlp_trainer.hpp"

namespace tl::compute {

// The parameter's spec, for the lesson's list.
lessons::ParamSpec data_parallel_gpus_spec();

// Why the `gpus` parameter cannot be used on `device` (the emulator, one GPU, no NCCL), or
// nothing where data parallel can run. Asked once per process for the GPUs and NCCL: neither
// changes while ThreadLab runs.
std::optional<std::string> data_parallel_unavailable(const Device& device);

// Adds the rows and notes for `values`' "gpus" to `report` (a timed run of `settings` on
// `device`, `repeats` timed steps per GPU count).
Status add_data_parallel_rows(LessonReport& report, const lessons::TrainingSettings& settings,
                              const lessons::ParamValues& values, const Device& device, int repeats,
                              const std::atomic<bool>* cancel);

}  // namespace tl::compute
