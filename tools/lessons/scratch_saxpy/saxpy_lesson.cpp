// The scratch SAXPY lesson: its parameters, a timed run (copies, the kernel, the CPU) and a traced
// launch, modelled on lesson 1 (lessons/01_vector_add/vector_add_lesson.cpp) but small.

#include "saxpy_lesson.hpp"

#include <algorithm>
#include <vector>

#include "compute/lessons/parameterized_lesson.hpp"
#include "compute/lessons/run_support.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/sweep/size_sweep.hpp"
#include "lessons/12_saxpy/kernels/saxpy_kernels.hpp"
#include "saxpy.hpp"

namespace tl::compute {
namespace {

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"n", "N elements", lessons::ParamKind::kCount, "1000", {}, "How many floats to update"},
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

// The inputs of a run: x and y from fixed seeds, and what y must become.
struct Inputs {
  std::vector<float> x, y, expected;
};

Inputs make_inputs(std::uint64_t n) {
  Inputs in;
  in.x.assign(n, 0.0f);
  in.y.assign(n, 0.0f);
  lessons::fill_random(in.x, 1);
  lessons::fill_random(in.y, 2);
  in.expected = in.y;
  lessons::saxpy_reference(lessons::kSaxpyA, in.x, in.expected);
  return in;
}

// What a launch needs before anything is allocated: the emulator's thread budget, the memory, and
// the int index (only for configurations CUDA would accept, so that its own error shows for the
// others).
Status check_before_launching(Device& device, std::uint64_t n, const LaunchConfig& config,
                              bool traced) {
  TL_RETURN_IF_ERROR(check_emulator_budget(device, config, traced));
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(lessons::validate_saxpy_size(n, memory->free_bytes, device.is_gpu() ? 1 : 2));
  if (!validate(config, device.info().limits).empty()) return Status::ok();
  return lessons::check_saxpy_index_range(config);
}

class SaxpyLesson final : public ParameterizedLesson {
 public:
  SaxpyLesson()
      : ParameterizedLesson({.info = lessons::kSaxpyInfo,
                             .specs = specs(),
                             .size_params = {"n"},
                             .sweep_resets = {{"grid", "auto"}},
                             .blocks = BlockSweepShape::kOneDimension}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader,
               const lessons::ParamValues& /*values*/) override {
    auto n = reader.count("n");
    if (!n) return n.error();
    TL_RETURN_IF_ERROR(lessons::validate_saxpy_size(*n, 0));
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
  [[nodiscard]] DataShape data_shape() const override { return {1, n_}; }
  [[nodiscard]] std::optional<ThreadCoverage> thread_coverage() const override {
    return ThreadCoverage::linear(n_);
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override { return "saxpy"; }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    TL_RETURN_IF_ERROR(check_before_launching(device, n_, config_, /*traced=*/false));
    Inputs in = make_inputs(n_);
    const std::size_t bytes = n_ * sizeof(float);
    auto x = allocate_array<float>(device, n_);
    if (!x) return x.error();
    auto y = allocate_array<float>(device, n_);
    if (!y) return y.error();
    const auto& kernels = device.kernels().get<kernels::SaxpyKernels>();
    const int n = static_cast<int>(n_);
    const int warmup = 1;

    auto upload = [&]() -> Status {
      TL_RETURN_IF_ERROR(device.copy_to_device(x->data(), in.x.data(), bytes));
      return device.copy_to_device(y->data(), in.y.data(), bytes);
    };
    auto h2d = device.time_repeated(upload, 0, repeats());
    if (!h2d) return h2d.error();
    if (cancel_requested(cancel)) return cancelled_error();
    // In place: every timed launch updates y again, so the check below starts from fresh inputs.
    auto launch = [&]() -> Status {
      return kernels.saxpy(config_, n, lessons::kSaxpyA, x->data(), y->data(), y->data());
    };
    auto kernel = device.time_repeated(launch, warmup, repeats());
    if (!kernel) return kernel.error();
    TL_RETURN_IF_ERROR(device.synchronize());
    if (cancel_requested(cancel)) return cancelled_error();

    // The checked launch. y is an input as well as the output, so it cannot start as NaN the way
    // lesson 1's C does: it is uploaded afresh, updated once and compared with the CPU's y bit for
    // bit (an element no thread wrote keeps its old y, which is not a·x + y where x is not 0).
    TL_RETURN_IF_ERROR(upload());
    TL_RETURN_IF_ERROR(launch());
    TL_RETURN_IF_ERROR(device.synchronize());
    std::vector<float> result(n_);
    auto download = [&]() -> Status {
      return device.copy_to_host(result.data(), y->data(), bytes);
    };
    auto d2h = device.time_repeated(download, 0, repeats());
    if (!d2h) return d2h.error();
    const lessons::SaxpyCheck check = lessons::check_saxpy(in.expected, result);

    const bool gpu = device.is_gpu();
    const double count = static_cast<double>(n_);
    LessonReport report;
    report.on_gpu = gpu;
    const TimingStats kernel_stats = summarize_timings(*kernel);
    const TimingStats h2d_stats = summarize_timings(*h2d);
    const TimingStats d2h_stats = summarize_timings(*d2h);
    report.rows.push_back({{TimingRole::kKernel, ""},
                           gpu ? "GPU kernel" : "Emulated kernel (CPU)",
                           kernel_stats,
                           lessons::saxpy_bytes(n_),
                           lessons::saxpy_flops(n_),
                           true,
                           gpu});
    report.rows.push_back({{TimingRole::kCopy, "to-device"},
                           gpu ? "copy x, y host → device" : "copy x, y (emulated)",
                           h2d_stats,
                           8.0 * count,
                           0,
                           false});
    report.rows.push_back({{TimingRole::kCopy, "to-host"},
                           gpu ? "copy y device → host" : "copy y (emulated)",
                           d2h_stats,
                           4.0 * count,
                           0,
                           false});
    const TimingStats stages[] = {h2d_stats, kernel_stats, d2h_stats};
    report.rows.push_back({{TimingRole::kEndToEndPageable, ""},
                           gpu ? "GPU end to end" : "Emulated end to end (CPU)",
                           add_stages(stages),
                           lessons::saxpy_bytes(n_),
                           lessons::saxpy_flops(n_),
                           true});
    if (time_cpu()) {
      std::vector<float> reference = in.y;
      report.rows.push_back(
          {{TimingRole::kCpuOneThread, ""},
           "CPU, 1 thread",
           time_on_host([&] { lessons::saxpy_reference(lessons::kSaxpyA, in.x, reference); },
                        warmup, repeats()),
           lessons::saxpy_bytes(n_),
           lessons::saxpy_flops(n_),
           true});
    }
    report.check = LessonCheck{check.passed, check.describe()};
    return report;
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    TL_RETURN_IF_ERROR(check_before_launching(device, n_, config_, /*traced=*/true));
    Inputs in = make_inputs(n_);
    const std::size_t bytes = n_ * sizeof(float);
    auto x = allocate_array<float>(device, n_);
    if (!x) return x.error();
    auto y = allocate_array<float>(device, n_);
    if (!y) return y.error();
    TL_RETURN_IF_ERROR(device.copy_to_device(x->data(), in.x.data(), bytes));
    TL_RETURN_IF_ERROR(device.copy_to_device(y->data(), in.y.data(), bytes));
    auto records = sink.acquire(device, n_);
    if (!records) return records.error();
    Status launched = device.kernels().get<kernels::SaxpyKernels>().saxpy_traced(
        config_, static_cast<int>(n_), lessons::kSaxpyA, x->data(), y->data(), y->data(), *records);
    if (launched) launched = device.synchronize();
    // Publish even after a failed launch: the sink must give its buffer back, and the view then
    // shows that nothing was written.
    const Status published = sink.publish(device);
    if (!launched) return launched.error();
    TL_RETURN_IF_ERROR(published);
    std::vector<float> result(n_);
    TL_RETURN_IF_ERROR(device.copy_to_host(result.data(), y->data(), bytes));
    const lessons::SaxpyCheck check = lessons::check_saxpy(in.expected, result);
    TracedLaunch traced;
    traced.shape = {1, n_};
    traced.config = config_;
    traced.check = LessonCheck{check.passed, check.describe()};
    return traced;
  }

  [[nodiscard]] std::string size_label() const override { return "elements N"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    // The emulator runs every thread on the CPU, so its sweep stops earlier.
    const std::uint64_t top = device.is_gpu() ? (std::uint64_t{1} << 28) : (std::uint64_t{1} << 22);
    const std::uint64_t fits = elements_fitting(device.info().global_memory_free, 8.0);
    return size_sweep(1 << 10, std::max<std::uint64_t>(1 << 10, std::min(top, fits)), 1);
  }
  [[nodiscard]] std::optional<std::pair<TimingKey, TimingKey>> crossover() const override {
    return std::make_pair(TimingKey{TimingRole::kCpuOneThread, ""},
                          TimingKey{TimingRole::kEndToEndPageable, ""});
  }

 private:
  std::uint64_t n_ = 1000;
  LaunchConfig config_;
};

}  // namespace

std::unique_ptr<Lesson> make_saxpy_lesson() {
  return std::make_unique<SaxpyLesson>();
}

}  // namespace tl::compute
