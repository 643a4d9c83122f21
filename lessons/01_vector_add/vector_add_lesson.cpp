#include "vector_add_lesson.hpp"

#include <algorithm>

#include "compute/lessons/memory_lesson.hpp"
#include "compute/lessons/parameterized_lesson.hpp"
#include "core/format.hpp"
#include "core/parallel_chunks.hpp"
#include "core/sweep/size_sweep.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "vector_add_runner.hpp"

namespace tl::compute {
namespace {

// The names of the timed rows, which are also the sweep's series. On the emulator the "GPU" rows
// say what they are: CPU timings of the emulated kernel.
struct SeriesNames {
  const char* cpu_single;
  const char* cpu_multi;
  const char* kernel;
  const char* kernel_vectorized;  // vector_add_vectorized, float4 per thread
  const char* end_to_end;         // copies from and to pageable memory (std::vector)
  const char* end_to_end_pinned;  // the same copies from and to pinned memory
};

SeriesNames series_names(bool on_gpu) {
  if (on_gpu) {
    return {"CPU, 1 thread",      "CPU, all threads", "GPU kernel",
            "GPU kernel, float4", "GPU end to end",   "GPU end to end, pinned"};
  }
  return {"CPU, 1 thread",
          "CPU, all threads",
          "Emulated kernel (CPU)",
          "Emulated kernel, float4 (CPU)",
          "Emulated end to end (CPU)",
          "Emulated end to end, pinned (CPU)"};
}

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"n", "N elements", lessons::ParamKind::kCount, "1000", {}, "How many floats to add"},
      {"grid",
       "blocks",
       lessons::ParamKind::kDim3,
       "auto",
       {},
       "Blocks in the grid; auto: enough to give every element a thread, ceil(N / threads per "
       "block)"},
      {"block", "threads / block", lessons::ParamKind::kDim3, "256", {}, "Threads in each block"},
  };
  return kSpecs;
}

class VectorAddLesson final : public ParameterizedLesson, public MemoryLesson {
 public:
  VectorAddLesson()
      : ParameterizedLesson({.info = lessons::kVectorAddInfo,
                             .specs = specs(),
                             .size_params = {"n"},
                             .sweep_resets = {{"grid", "auto"}},
                             .blocks = BlockSweepShape::kOneDimension}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader, const lessons::ParamValues&) override {
    auto n = reader.count("n");
    if (!n) return n.error();
    TL_RETURN_IF_ERROR(lessons::validate_vector_add_size(*n, 0));
    auto block = reader.dim3("block");
    if (!block) return block.error();
    auto grid = reader.grid("grid");
    if (!grid) return grid.error();
    LaunchConfig config{*grid, *block};
    if (grid->volume() == 0) {
      config.grid = {blocks_to_cover(*n, static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                             block->volume(), 0xFFFFFFFFu))),
                     1, 1};
    }
    n_ = *n;
    config_ = config;
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override { return config_; }
  // The plain kernel on the configuration asked for, and the float4 one on the launch a timed
  // run gives it (one float4 per thread and pass, lessons::vectorized_vector_add_config).
  [[nodiscard]] std::vector<memory::MemoryExperiment> memory_experiments() const override {
    const std::vector<memory::KernelArgument> arguments = {
        memory::KernelArgument::floats("a", n_), memory::KernelArgument::floats("b", n_),
        memory::KernelArgument::floats("c", n_),
        memory::KernelArgument::integer("n", static_cast<int>(n_))};
    memory::MemoryExperiment plain;
    plain.label = "one float per thread";
    plain.source = "lessons/01_vector_add/kernels/vector_add.cuh";
    plain.kernel = "vector_add";
    plain.arguments = arguments;
    plain.config = config_;
    memory::MemoryExperiment quads = plain;
    quads.label = "float4 per thread";
    quads.kernel = "vector_add_vectorized";
    quads.template_arguments = "1, false";  // as vector_add_launch.inl instantiates it
    quads.config = lessons::vectorized_vector_add_config(n_);
    return {plain, quads};
  }
  [[nodiscard]] DataShape data_shape() const override { return {1, n_}; }
  [[nodiscard]] std::optional<ThreadCoverage> thread_coverage() const override {
    return ThreadCoverage::linear(n_);
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    return "vector_add";
  }

  [[nodiscard]] std::vector<LessonPreset> presets() const override {
    return {{"<<<1, N>>>",
             "The article's first try: one block with a thread per element",
             {{"grid", "1"}, {"block", std::to_string(n_)}}}};
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    VectorAddRequest request;
    request.n = n_;
    request.config = config_;
    request.cancel = cancel;
    request.repeats = repeats();
    request.time_cpu = time_cpu();
    auto report = run_vector_add(device, request);
    if (!report) return report.error();
    return to_lesson_report(*report);
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    TracedLaunch traced;
    traced.shape = {1, n_};
    traced.config = config_;
    auto check = trace_vector_add(device, n_, config_, sink, 1,
                                  keep_traced_inputs() ? &traced_inputs_ : nullptr);
    if (!check) return check.error();
    traced.check = LessonCheck{check->passed, check->describe()};
    return traced;
  }

  void release_device_data() override { traced_inputs_.release(); }

  [[nodiscard]] std::string size_label() const override { return "elements N"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    // The emulator runs every thread on the CPU, so its sweep stops earlier.
    const std::uint64_t top = device.is_gpu() ? (std::uint64_t{1} << 28) : (std::uint64_t{1} << 24);
    const std::uint64_t fits = elements_fitting(device.info().global_memory_free, 12.0);
    return size_sweep(1 << 10, std::max<std::uint64_t>(1 << 10, std::min(top, fits)), 1);
  }
  [[nodiscard]] std::optional<std::pair<TimingKey, TimingKey>> crossover() const override {
    // On the emulator there is no GPU row to overtake the CPU, so nothing crosses there.
    return std::make_pair(TimingKey{TimingRole::kCpuOneThread, ""},
                          TimingKey{TimingRole::kEndToEndPageable, ""});
  }

 private:
  static LessonReport to_lesson_report(const VectorAddReport& r) {
    const SeriesNames names = series_names(r.on_gpu);
    LessonReport report;
    report.on_gpu = r.on_gpu;
    const double n = static_cast<double>(r.n);
    report.rows.push_back(
        {{TimingRole::kKernel, ""}, names.kernel, r.kernel, 12.0 * n, n, true, r.on_gpu});
    // The same sum by vector_add_vectorized, on its own launch (the lesson's "At the copy
    // ceiling"): what the device copy's bandwidth takes.
    if (!r.kernel_vectorized.empty()) {
      report.rows.push_back({{TimingRole::kKernel, "vectorized"},
                             names.kernel_vectorized,
                             r.kernel_vectorized,
                             12.0 * n,
                             n,
                             true,
                             r.on_gpu});
      report.notes.push_back(std::string(names.kernel_vectorized) + ": vector_add_vectorized on " +
                             r.vectorized_config.to_string() +
                             ", one float4 (4 elements) per thread");
    }
    report.rows.push_back({{TimingRole::kCopy, "to-device"},
                           r.on_gpu ? "copy A, B host → device" : "copy A, B (emulated)",
                           r.host_to_device,
                           8.0 * n,
                           0,
                           false});
    report.rows.push_back({{TimingRole::kCopy, "to-host"},
                           r.on_gpu ? "copy C device → host" : "copy C (emulated)",
                           r.device_to_host,
                           4.0 * n,
                           0,
                           false});
    const TimingStats stages[] = {r.host_to_device, r.kernel, r.device_to_host};
    report.rows.push_back({{TimingRole::kEndToEndPageable, ""},
                           names.end_to_end,
                           add_stages(stages),
                           12.0 * n,
                           n,
                           true});
    // The second end-to-end series: the same copies from and to pinned host memory, which the
    // GPU's copy engines reach without the driver's staging copy.
    if (r.has_pinned()) {
      const TimingStats pinned_stages[] = {r.host_to_device_pinned, r.kernel,
                                           r.device_to_host_pinned};
      report.rows.push_back(
          {{TimingRole::kCopy, "to-device-pinned"},
           r.on_gpu ? "copy A, B pinned host → device" : "copy A, B from pinned (emulated)",
           r.host_to_device_pinned,
           8.0 * n,
           0,
           false});
      report.rows.push_back(
          {{TimingRole::kCopy, "to-host-pinned"},
           r.on_gpu ? "copy C device → pinned host" : "copy C to pinned (emulated)",
           r.device_to_host_pinned,
           4.0 * n,
           0,
           false});
      report.rows.push_back({{TimingRole::kEndToEndPinned, ""},
                             names.end_to_end_pinned,
                             add_stages(pinned_stages),
                             12.0 * n,
                             n,
                             true});
    } else if (!r.pinned_unavailable.empty()) {
      report.notes.push_back(r.pinned_unavailable);
    }
    if (!r.on_gpu) {
      report.notes.push_back(
          "the emulator has no link to cross: its 'pinned' copies are plain memory copies, like "
          "the pageable ones");
    }
    if (!r.cpu_single.empty())
      report.rows.push_back(
          {{TimingRole::kCpuOneThread, ""}, names.cpu_single, r.cpu_single, 12.0 * n, n, true});
    if (!r.cpu_multi.empty()) {
      report.rows.push_back(
          {{TimingRole::kCpuAllThreads, ""}, names.cpu_multi, r.cpu_multi, 12.0 * n, n, true});
      report.notes.push_back(cpu_threads_note(names.cpu_multi, r.cpu_threads));
    }
    if (r.check) {
      report.check = LessonCheck{r.check->passed, r.check->describe()};
      if (r.check_vectorized) {
        report.check->passed = report.check->passed && r.check_vectorized->passed;
        report.check->description += "; the float4 kernel: " + r.check_vectorized->describe();
      }
    }
    return report;
  }

  std::uint64_t n_ = 1000;
  LaunchConfig config_;
  TracedVectorAddInputs traced_inputs_;  // kept for relaunches of the same size
};

}  // namespace

std::unique_ptr<Lesson> make_vector_add_lesson() {
  return std::make_unique<VectorAddLesson>();
}

}  // namespace tl::compute
