// The capstone's rows for the benchmark suites: one training step (forward, loss, backward and an
// SGD-with-momentum update) of a 2-256-256-2 network at batch 4096 (issue #21's step; smaller on
// the emulator), its flop rate against the device's cuBLAS SGEMM ceiling measured in the same
// run, and its samples per second. The comparison with eager PyTorch lives outside the app
// (tools/gpu/torch_mlp_step.py), since PyTorch is never a dependency.

#include "training_benchmark.hpp"

#include <string>

#include "lessons/09_training/training.hpp"

namespace tl::compute {

Status training_benchmark(const BenchContext& context, std::vector<RatioRow>& rows) {
  Device& device = context.device;
  const bool gpu = device.is_gpu();
  const std::string hidden = gpu ? "256" : "32";
  const std::string batch = gpu ? "4096" : "256";
  auto report = run_lesson_once(device, lessons::kTrainingId,
                                {{"hidden", hidden},
                                 {"depth", "2"},
                                 {"batch", batch},
                                 {"optimizer", "sgd"},
                                 {"data", "spirals"}},
                                context.repeats);
  if (!report) return report.error();
  const TimingRow* step = find_timed_row(*report, {TimingRole::kKernel, "step"});
  if (step == nullptr) return Error{ErrorKind::kCudaError, "training: no timing for the step"};
  const std::string what = std::string(gpu ? "" : "emulated (CPU) ") +
                           "training step (SGD momentum), 2-" + hidden + "-" + hidden +
                           "-2, batch " + batch;
  RatioRow rate;
  if (context.ceilings.sgemm_flops_per_second > 0) {
    rate = rate_ratio(what, per_second(step->flops, *step) / 1e9, "GFLOP/s",
                      "cuBLAS SGEMM (this device's ceiling)",
                      context.ceilings.sgemm_flops_per_second / 1e9);
  } else {
    rate.what = what;
    rate.value = per_second(step->flops, *step) / 1e9;
    rate.unit = "GFLOP/s";
    rate.against = "cuBLAS SGEMM";
    rate.absent = gpu ? "cuBLAS could not be timed here" : "cuBLAS runs only on an NVIDIA GPU";
  }
  rows.push_back(std::move(rate));
  // The same step captured once as a CUDA Graph, against it launched kernel by kernel (a GPU only).
  if (const TimingRow* graph = find_timed_row(*report, {TimingRole::kKernel, "step-graph"})) {
    rows.push_back(time_ratio(what + ", captured as a CUDA Graph", graph->stats.median_ms,
                              "the same step launched kernel by kernel", step->stats.median_ms));
  }
  RatioRow time;
  time.what = what + ", time per step";
  time.value = step->stats.median_ms;
  time.unit = "ms";
  time.against = "eager PyTorch";
  time.absent = "PyTorch is not part of ThreadLab: run tools/gpu/torch_mlp_step.py on the same GPU";
  rows.push_back(std::move(time));
  return Status::ok();
}

}  // namespace tl::compute
