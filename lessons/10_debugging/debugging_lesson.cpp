// Lesson 10: the adjacent difference, right or with one planted bug, timed and traced. Modelled on
// the scratch SAXPY lesson (tools/lessons/scratch_saxpy/), with what a buggy kernel needs around
// it: a guard zone after the arrays on the emulator, an output left uninitialised where the bug is
// reading it, and a null output whose fault is reported by the call that saw it.

#include "debugging_lesson.hpp"

#include <algorithm>
#include <vector>

#include "compute/lessons/parameterized_lesson.hpp"
#include "compute/lessons/run_support.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/sweep/size_sweep.hpp"
#include "debugging.hpp"
#include "lessons/10_debugging/kernels/debugging_kernels.hpp"

namespace tl::compute {
namespace {

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"n", "N elements", lessons::ParamKind::kCount, "1000", {}, "How many floats to difference"},
      {"grid",
       "blocks",
       lessons::ParamKind::kDim3,
       "auto",
       {},
       "Blocks in the grid; auto: enough to give every element a thread, ceil(N / threads per "
       "block)"},
      {"block", "threads / block", lessons::ParamKind::kDim3, "256", {}, "Threads in each block"},
      {"bug",
       "planted bug",
       lessons::ParamKind::kChoice,
       "none",
       {std::begin(lessons::kBugNames), std::end(lessons::kBugNames)},
       "none: the right kernel; wrong-index, no-guard, no-barrier, divergent, accumulates: that "
       "bug planted in it; null: the right kernel given a null output (a GPU only)"},
  };
  return kSpecs;
}

// The launch function of a bug's kernel (the null bug runs the right kernel).
kernels::DebuggingKernels::Launch timed_kernel(const kernels::DebuggingKernels& k,
                                               lessons::Bug bug) {
  switch (bug) {
    case lessons::Bug::kWrongIndex:
      return k.wrong_index;
    case lessons::Bug::kNoGuard:
      return k.no_guard;
    case lessons::Bug::kNoBarrier:
      return k.no_barrier;
    case lessons::Bug::kDivergentBarrier:
      return k.divergent_barrier;
    case lessons::Bug::kAccumulates:
      return k.accumulates;
    case lessons::Bug::kNone:
    case lessons::Bug::kNull:
      break;
  }
  return k.difference;
}

kernels::DebuggingKernels::LaunchTraced traced_kernel(const kernels::DebuggingKernels& k,
                                                      lessons::Bug bug) {
  switch (bug) {
    case lessons::Bug::kWrongIndex:
      return k.wrong_index_traced;
    case lessons::Bug::kNoGuard:
      return k.no_guard_traced;
    case lessons::Bug::kNoBarrier:
      return k.no_barrier_traced;
    case lessons::Bug::kDivergentBarrier:
      return k.divergent_barrier_traced;
    case lessons::Bug::kAccumulates:
      return k.accumulates_traced;
    case lessons::Bug::kNone:
    case lessons::Bug::kNull:
      break;
  }
  return k.difference_traced;
}

// The inputs of a run and the output they must give.
struct Inputs {
  std::vector<float> in, expected;
};

Inputs make_inputs(std::uint64_t n) {
  Inputs inputs;
  inputs.in.assign(n, 0.0f);
  lessons::fill_random(inputs.in, 1);
  inputs.expected.assign(n, 0.0f);
  lessons::difference_reference(inputs.in, inputs.expected);
  return inputs;
}

// The emulator runs the kernels in this process: a write past `out` or a read past `in` would
// land in the app's own memory, so both arrays get a watched guard zone there. A GPU gets them at
// their exact sizes, as a program allocates them, so that compute-sanitizer sees what it would.
std::uint64_t guard_floats(const Device& device) {
  return device.is_gpu() ? 0 : lessons::kGuardFloats;
}

// The device arrays of one launch: `in` with the inputs (and the guard, never read by the right
// kernel, holding zeros), `out` with its guard.
struct Arrays {
  DeviceArray<float> in;
  DeviceArray<float> out;
  std::uint64_t guard = 0;
};

Result<Arrays> allocate_arrays(Device& device, const Inputs& inputs) {
  const std::uint64_t n = inputs.in.size();
  const std::uint64_t guard = guard_floats(device);
  auto in = allocate_array<float>(device, n + guard);
  if (!in) return in.error();
  auto out = allocate_array<float>(device, n + guard);
  if (!out) return out.error();
  std::vector<float> padded = inputs.in;
  padded.resize(n + guard, 0.0f);
  TL_RETURN_IF_ERROR(device.copy_to_device(in->data(), padded.data(), padded.size() * 4));
  return Arrays{std::move(*in), std::move(*out), guard};
}

// `out` and its guard, every float the unwritten value: what an element never written keeps. Where
// the bug is that the kernel reads `out` before writing it, `out` itself is left as allocated (a
// program would not have initialised it either) and only the guard is marked.
Status mark_unwritten(Device& device, Arrays& arrays, std::uint64_t n, lessons::Bug bug) {
  const bool keep_out = bug == lessons::Bug::kAccumulates;
  const std::uint64_t first = keep_out ? n : 0;
  const std::vector<float> unwritten(n + arrays.guard - first, lessons::unwritten_value());
  if (unwritten.empty()) return Status::ok();
  return device.copy_to_device(arrays.out.data() + first, unwritten.data(), unwritten.size() * 4);
}

// What the checked launch left: out's n elements and the guard after them.
Result<lessons::DebuggingCheck> read_back(Device& device, const Arrays& arrays,
                                          const Inputs& inputs) {
  const std::uint64_t n = inputs.in.size();
  std::vector<float> got(n + arrays.guard);
  TL_RETURN_IF_ERROR(device.copy_to_host(got.data(), arrays.out.data(), got.size() * 4));
  return lessons::check_difference(inputs.expected, std::span<const float>(got).first(n),
                                   std::span<const float>(got).subspan(n));
}

// The error of a launch that itself reported none, as the synchronisation after it returned it.
Status after_a_quiet_launch(const Error& waited) {
  return Error{waited.kind,
               "the launch returned no error (cudaGetLastError: cudaSuccess); the next "
               "synchronisation returned " +
                   waited.message};
}

// The null bug on a GPU: the program's output allocation failed, nobody checked, and the kernel
// writes through the null pointer. The launch itself reports nothing; the fault comes back from
// the next call that waits for the kernel, and it is sticky. Both calls are named in the error,
// whose kind (sticky) makes the launch session reset the GPU (interop/launch_session.cpp).
Status launch_through_null(Device& device, const kernels::DebuggingKernels& k,
                           const LaunchConfig& config, int n, const float* in) {
  const Status launched = k.difference(config, n, in, nullptr);
  if (!launched) return launched;
  const Status waited = device.synchronize();
  if (waited) {
    return Error{ErrorKind::kCudaError,
                 "the kernel wrote through a null pointer and no error came back: this device "
                 "did not fault"};
  }
  return after_a_quiet_launch(waited.error());
}

Status refuse_null_on_emulator() {
  return Error{ErrorKind::kInvalidArgument,
               "bug=null writes through a null pointer: on a GPU that is an illegal address, a "
               "sticky error ThreadLab survives by resetting the GPU; the emulator runs kernels "
               "inside this process, where the same write would end it. Run it on a GPU."};
}

class DebuggingLesson final : public ParameterizedLesson {
 public:
  DebuggingLesson()
      : ParameterizedLesson({.info = lessons::kDebuggingInfo,
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
    TL_RETURN_IF_ERROR(lessons::validate_debugging_size(*n));
    auto block = reader.dim3("block");
    if (!block) return block.error();
    if (block->y != 1 || block->z != 1) {
      return invalid_argument(
          "block: the kernels index with x alone; give one number, such as "
          "256, not " +
          to_string(*block));
    }
    if (block->x > lessons::kDebuggingMostThreads) {
      return invalid_argument("block: at most 1024 threads, the tile the kernels declare");
    }
    auto grid = reader.grid("grid");
    if (!grid) return grid.error();
    auto bug_text = reader.choice("bug");
    if (!bug_text) return bug_text.error();
    auto bug = lessons::parse_bug(*bug_text);
    if (!bug) return bug.error();
    LaunchConfig config{*grid, *block};
    if (grid->volume() == 0) config.grid = {blocks_to_cover(*n, block->x), 1, 1};
    n_ = *n;
    config_ = config;
    bug_ = *bug;
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override { return config_; }
  [[nodiscard]] DataShape data_shape() const override { return {1, n_}; }
  [[nodiscard]] std::optional<ThreadCoverage> thread_coverage() const override {
    return ThreadCoverage::linear(n_);
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    return "difference";
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    TL_RETURN_IF_ERROR(check_emulator_budget(device, config_, /*traced=*/false));
    if (bug_ == lessons::Bug::kNull && !device.is_gpu()) return refuse_null_on_emulator();
    const Inputs inputs = make_inputs(n_);
    auto arrays = allocate_arrays(device, inputs);
    if (!arrays) return arrays.error();
    const auto& kernels = device.kernels().get<kernels::DebuggingKernels>();
    const int n = static_cast<int>(n_);
    if (bug_ == lessons::Bug::kNull) {
      return launch_through_null(device, kernels, config_, n, arrays->in.data());
    }
    const auto kernel = timed_kernel(kernels, bug_);
    auto launch = [&]() -> Status {
      return kernel(config_, n, arrays->in.data(), arrays->out.data());
    };
    auto times = device.time_repeated(launch, 1, repeats());
    if (!times) return times.error();
    TL_RETURN_IF_ERROR(device.synchronize());
    if (cancel_requested(cancel)) return cancelled_error();

    // The checked launch, on an output marked unwritten, except where the bug is that the kernel
    // reads its output: there it gets a fresh allocation nobody initialised, as the program would.
    if (bug_ == lessons::Bug::kAccumulates) {
      auto fresh = allocate_arrays(device, inputs);
      if (!fresh) return fresh.error();
      *arrays = std::move(*fresh);
    }
    TL_RETURN_IF_ERROR(mark_unwritten(device, *arrays, n_, bug_));
    TL_RETURN_IF_ERROR(launch());
    TL_RETURN_IF_ERROR(device.synchronize());
    auto check = read_back(device, *arrays, inputs);
    if (!check) return check.error();

    const bool gpu = device.is_gpu();
    LessonReport report;
    report.on_gpu = gpu;
    const std::string kernel_label = std::string(gpu ? "GPU kernel " : "Emulated kernel (CPU) ") +
                                     std::string(lessons::kernel_name(bug_));
    report.rows.push_back({{TimingRole::kKernel, std::string(lessons::bug_name(bug_))},
                           kernel_label,
                           summarize_timings(*times),
                           lessons::difference_bytes(n_),
                           static_cast<double>(n_),
                           true,
                           gpu});
    if (time_cpu()) {
      std::vector<float> reference(n_);
      report.rows.push_back(
          {{TimingRole::kCpuOneThread, ""},
           "CPU, 1 thread",
           time_on_host([&] { lessons::difference_reference(inputs.in, reference); }, 1, repeats()),
           lessons::difference_bytes(n_),
           static_cast<double>(n_),
           true});
    }
    report.check = LessonCheck{check->passed, check->describe()};
    return report;
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    TL_RETURN_IF_ERROR(check_emulator_budget(device, config_, /*traced=*/true));
    if (bug_ == lessons::Bug::kNull && !device.is_gpu()) return refuse_null_on_emulator();
    const Inputs inputs = make_inputs(n_);
    auto arrays = allocate_arrays(device, inputs);
    if (!arrays) return arrays.error();
    TL_RETURN_IF_ERROR(mark_unwritten(device, *arrays, n_, bug_));
    auto records = sink.acquire(device, n_);
    if (!records) return records.error();
    const auto& kernels = device.kernels().get<kernels::DebuggingKernels>();
    float* out = bug_ == lessons::Bug::kNull ? nullptr : arrays->out.data();
    Status launched = traced_kernel(kernels, bug_)(config_, static_cast<int>(n_), arrays->in.data(),
                                                   out, *records);
    if (launched) {
      launched = device.synchronize();
      if (!launched && bug_ == lessons::Bug::kNull)
        launched = after_a_quiet_launch(launched.error());
    }
    // Publish even after a failed launch: the sink must give its buffer back, and the view then
    // shows what was written before the error.
    const Status published = sink.publish(device);
    if (!launched) return launched.error();
    TL_RETURN_IF_ERROR(published);
    auto check = read_back(device, *arrays, inputs);
    if (!check) return check.error();
    TracedLaunch traced;
    traced.shape = {1, n_};
    traced.config = config_;
    traced.check = LessonCheck{check->passed, check->describe()};
    return traced;
  }

  [[nodiscard]] std::string size_label() const override { return "elements N"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    // The emulator runs every thread on the CPU, so its sweep stops earlier.
    const std::uint64_t top = device.is_gpu() ? (std::uint64_t{1} << 26) : (std::uint64_t{1} << 20);
    const std::uint64_t fits = elements_fitting(device.info().global_memory_free, 8.0);
    return size_sweep(1 << 10, std::max<std::uint64_t>(1 << 10, std::min(top, fits)), 1);
  }

 private:
  std::uint64_t n_ = 1000;
  LaunchConfig config_;
  lessons::Bug bug_ = lessons::Bug::kNone;
};

}  // namespace

std::unique_ptr<Lesson> make_debugging_lesson() {
  return std::make_unique<DebuggingLesson>();
}

}  // namespace tl::compute
