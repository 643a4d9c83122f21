#include "data_parallel_lesson.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "data_parallel.hpp"

namespace tl::compute {
namespace {

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char text[160];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

std::string shares_text(const std::vector<int>& shares) {
  std::string text;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    text += (i == 0 ? "" : " + ") + std::to_string(shares[i]);
  }
  return text;
}

}  // namespace

lessons::ParamSpec data_parallel_gpus_spec() {
  return {"gpus",
          "GPUs (data parallel)",
          lessons::ParamKind::kCount,
          "1",
          {},
          "Data parallel: each of N GPUs takes 1/N of the batch and NCCL sums their gradients; "
          "the run then times the step on 1..N GPUs (needs N GPUs and NCCL)",
          {},
          true};
}

std::optional<std::string> data_parallel_unavailable(const Device& device) {
  if (!device.is_gpu()) {
    return std::string("Data parallel needs two or more CUDA GPUs; this run is on the emulator.");
  }
  static const std::optional<std::string> kOnThisMachine = []() -> std::optional<std::string> {
    const int visible = lessons::visible_gpus();
    if (visible < 2) {
      return "Data parallel needs two or more CUDA GPUs; this machine has " +
             std::to_string(visible) + ".";
    }
    const Status available = lessons::gpu_data_parallel_available(visible);
    if (!available.is_ok()) return "Data parallel is not available here: " + available.message();
    return std::nullopt;
  }();
  return kOnThisMachine;
}

Status add_data_parallel_rows(LessonReport& report, const lessons::TrainingSettings& settings,
                              const lessons::ParamValues& values, const Device& device, int repeats,
                              const std::atomic<bool>* cancel) {
  static const std::vector<lessons::ParamSpec> kSpecs{data_parallel_gpus_spec()};
  const lessons::ParamValues gpus_value{{"gpus", values.count("gpus") ? values.at("gpus") : "1"}};
  const lessons::ParamReader reader(kSpecs, gpus_value);
  auto asked = reader.count("gpus");
  if (!asked) return asked.error();
  if (*asked < 1 || *asked > 64) {
    return invalid_argument("gpus: from 1 to 64, not " + std::to_string(*asked));
  }
  const int gpus = static_cast<int>(*asked);
  if (!device.is_gpu()) {
    if (gpus > 1) {
      report.notes.push_back("data parallel (gpus " + std::to_string(gpus) +
                             ") not run: it needs CUDA GPUs, and this run is on the emulator");
    }
    return Status::ok();
  }
  const int visible = lessons::visible_gpus();
  if (gpus == 1) {
    // Say whether the option would run here, and if not why, before anyone asks for it.
    const Status available = lessons::gpu_data_parallel_available(std::max(visible, 2));
    report.notes.push_back(available.is_ok()
                               ? "data parallel: set gpus to 2" +
                                     (visible > 2 ? " to " + std::to_string(visible) : "") +
                                     " to time this step split over the GPUs"
                               : "data parallel is not available here: " + available.message());
    return Status::ok();
  }
  const Status available = lessons::gpu_data_parallel_available(gpus);
  if (!available.is_ok()) {
    report.notes.push_back("data parallel (gpus " + std::to_string(gpus) +
                           ") not run: " + available.message());
    return Status::ok();
  }
  if (cancel != nullptr && cancel->load()) return Error{ErrorKind::kCancelled, "cancelled"};
  auto scaling = lessons::measure_scaling(settings, gpus, lessons::gpu_replica_devices(),
                                          lessons::nccl_all_reduces(), std::max(repeats, 10));
  if (!scaling) return scaling.error();
  for (const lessons::ScalingPoint& p : scaling->points) {
    const std::vector<double> step{p.step_ms};
    const std::string n = std::to_string(p.replicas);
    report.rows.push_back({{TimingRole::kKernel, "data-parallel-" + n},
                           "step on " + n + (p.replicas == 1 ? " GPU" : " GPUs, data parallel") +
                               " (examples per GPU: " + shares_text(p.shares) + ")",
                           summarize_timings(step),
                           0,
                           0,
                           false,
                           false});
    if (p.replicas > 1) {
      const std::vector<double> all_reduce{p.all_reduce_ms};
      report.rows.push_back(
          {{TimingRole::kLibrary, "all-reduce-" + n},
           scaling->all_reduce + " all-reduce of the gradients over " + n + " GPUs",
           summarize_timings(all_reduce),
           lessons::ring_bytes_per_replica(scaling->gradient_bytes, p.replicas),
           0,
           false,
           false});
    }
    report.notes.push_back(
        "data parallel on " + n + (p.replicas == 1 ? " GPU" : " GPUs") + " at batch " +
        std::to_string(settings.batch) + ": " +
        format("%.4f ms a step, %.3g samples/s, %.2f× one GPU's speed", p.step_ms,
               p.samples_per_second, p.speedup) +
        " (ideal " + n + "×, efficiency " + format("%.0f %%", 100.0 * p.efficiency) + ")" +
        (p.replicas > 1 ? "; all-reduce of " + std::to_string(scaling->gradient_bytes) + " bytes " +
                              format("%.4f ms", p.all_reduce_ms)
                        : ""));
  }
  report.notes.push_back(
      "data parallel rows: wall clock per step over the timed repeats, the slowest GPU's; the "
      "all-reduce row's bytes are what each GPU sends in a ring all-reduce, 2(N-1)/N of the "
      "gradients (a rule of thumb: NCCL may choose a tree)");
  return Status::ok();
}

}  // namespace tl::compute
