#include "thread_hierarchy_lesson.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "compute/lessons/parameterized_lesson.hpp"
#include "core/format.hpp"
#include "core/parallel_chunks.hpp"
#include "core/sweep/size_sweep.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"
#include "thread_hierarchy_runner.hpp"

namespace tl::compute {
namespace {

// The names of the timed rows, which are also the sweep's series. On the emulator the kernel row
// says what it is: a CPU timing of the emulated kernel.
constexpr const char* kCpuSingleRow = "CPU, 1 thread";
constexpr const char* kGpuEndToEndRow = "GPU end to end";
constexpr const char* kEmulatedEndToEndRow = "Emulated end to end (CPU)";
constexpr const char* kCpuMultiRow = "CPU, all threads";
constexpr const char* kGpuKernelRow = "GPU kernel";
constexpr const char* kEmulatedKernelRow = "Emulated kernel (CPU)";

// The emulator runs every element's thread one after another: up to 2^24 elements a sweep point
// (warm-up and repeats included) stays within a few seconds, as in the vector-add lesson.
constexpr std::uint64_t kEmulatorSweepTop = std::uint64_t{1} << 24;
constexpr std::uint64_t kGpuSweepTop = std::uint64_t{1} << 28;
// The divergence demo's two kernels cost hundreds of operations per element: on the emulator its
// sweep stops sooner.
constexpr std::uint64_t kEmulatorBranchSweepTop = std::uint64_t{1} << 14;
// A grid-stride sweep keeps the grid the user chose, so at large N each thread loops many times;
// with a grid of one thread that would be minutes per point. The sweep stops where the busiest
// thread would make more passes than this.
constexpr std::uint64_t kMaxSweepPasses = std::uint64_t{1} << 16;

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"n", "N elements", lessons::ParamKind::kCount, "4096", {}, "How many floats to transform"},
      {"grid",
       "blocks",
       lessons::ParamKind::kDim3,
       "auto",
       {},
       "Blocks in the grid (x,y,z); auto: enough in x to give every element a thread, "
       "ceil(N / threads per block)"},
      {"block",
       "threads / block",
       lessons::ParamKind::kDim3,
       "256",
       {},
       "Threads in each block (x,y,z)"},
      {"grid_stride",
       "grid-stride loop",
       lessons::ParamKind::kFlag,
       "0",
       {},
       "Each thread loops over the data in steps of the grid's size, so any grid covers any N"},
      {"branch",
       "branch",
       lessons::ParamKind::kChoice,
       "none",
       {"none", "by-thread", "by-warp"},
       "Warp divergence: none runs out = 2 * in + 1; by-thread branches on threadIdx.x % 2 (both "
       "sides in every warp), by-warp on threadIdx.x / 32 % 2 (one side per warp), the same "
       "work either way. A timed run measures both branches"},
  };
  return kSpecs;
}

class ThreadHierarchyLesson final : public ParameterizedLesson {
 public:
  ThreadHierarchyLesson()
      : ParameterizedLesson({.info = lessons::kThreadHierarchyInfo,
                             .specs = specs(),
                             .size_params = {"n"},
                             .blocks = BlockSweepShape::kOneDimension}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader,
               const lessons::ParamValues& /*values*/) override {
    auto n = reader.count("n");
    if (!n) return n.error();
    auto block = reader.dim3("block");
    if (!block) return block.error();
    auto grid = reader.grid("grid");
    if (!grid) return grid.error();
    auto grid_stride = reader.flag("grid_stride");
    if (!grid_stride) return grid_stride.error();
    auto branch_text = reader.choice("branch");
    if (!branch_text) return branch_text.error();
    const auto branch = lessons::parse_branch_rule(*branch_text);
    if (!branch) return invalid_argument("branch: unknown rule '" + *branch_text + "'");

    lessons::ThreadHierarchyParams params;
    params.n = *n;
    params.grid_stride = *grid_stride;
    params.branch = *branch;
    params.config = {*grid, *block};
    if (grid->volume() == 0) {
      const auto per_block =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(block->volume(), 0xFFFFFFFFu));
      params.config.grid = {blocks_to_cover(*n, per_block), 1, 1};
    }
    // Only what the kernel itself cannot do is refused here (N of 0, more threads than its 64-bit
    // index counts); a configuration CUDA refuses is kept, so that its own error can be shown.
    TL_RETURN_IF_ERROR(lessons::validate_thread_hierarchy(params, 0));
    params_ = params;
    grid_is_auto_ = grid->volume() == 0;
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override { return params_.config; }
  [[nodiscard]] DataShape data_shape() const override { return {1, params_.n}; }
  // With or without the grid-stride loop, thread i is idle exactly when i >= n.
  [[nodiscard]] std::optional<ThreadCoverage> thread_coverage() const override {
    return ThreadCoverage::linear(params_.n);
  }
  [[nodiscard]] std::uint32_t elements_per_thread() const override {
    return params_.grid_stride ? kAnyElementsPerThread : 1;
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    switch (params_.branch) {
      case lessons::BranchRule::kByThread:
        return "hierarchy_branch_by_thread";
      case lessons::BranchRule::kByWarp:
        return "hierarchy_branch_by_warp";
      case lessons::BranchRule::kNone:
        break;
    }
    return params_.grid_stride ? "hierarchy_grid_stride" : "hierarchy_one_per_thread";
  }

  [[nodiscard]] std::vector<LessonPreset> presets() const override {
    return {
        {"one element per thread",
         "Enough blocks of 256 threads for every element, each thread guarded by i < N",
         {{"grid", "auto"}, {"block", "256"}, {"grid_stride", "0"}, {"branch", "none"}}},
        {"grid-stride with 4 blocks",
         "4 blocks of 256 threads cover any N: each thread jumps ahead by the grid's 1024 threads",
         {{"grid", "4"}, {"block", "256"}, {"grid_stride", "1"}, {"branch", "none"}}},
        {"3D grid",
         "4 × 2 × 2 blocks of 8 × 4 × 4 threads for N = 2048: colour by block, thread or warp to "
         "see x counted first, then y, then z",
         {{"n", "2048"},
          {"grid", "4,2,2"},
          {"block", "8,4,4"},
          {"grid_stride", "0"},
          {"branch", "none"}}},
        {"one thread does everything",
         "<<<1, 1>>> with a grid-stride loop: correct, and no faster than the CPU's plain loop, "
         "usually slower",
         {{"n", "65536"}, {"grid", "1"}, {"block", "1"}, {"grid_stride", "1"}, {"branch", "none"}}},
        // 2^16 elements: quick on the emulator too; the lesson's links time 2^20 on a GPU.
        {"divergent warps",
         "if (threadIdx.x % 2 == 0): even and odd threads share every warp, so each warp runs "
         "both sides of the branch with half its lanes idle",
         {{"n", "2^16"},
          {"grid", "auto"},
          {"block", "256"},
          {"grid_stride", "0"},
          {"branch", "by-thread"}}},
        {"warp-aligned branch",
         "if (threadIdx.x / 32 % 2 == 0): the same split of the work, but whole warps go one way",
         {{"n", "2^16"},
          {"grid", "auto"},
          {"block", "256"},
          {"grid_stride", "0"},
          {"branch", "by-warp"}}},
    };
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    ThreadHierarchyRequest request;
    request.params = params_;
    request.cancel = cancel;
    request.repeats = repeats();
    request.time_cpu = time_cpu();
    auto report = run_thread_hierarchy(device, request);
    if (!report) return report.error();
    return to_lesson_report(*report);
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    auto trace = trace_thread_hierarchy(device, params_, sink);
    if (!trace) return trace.error();
    TracedLaunch traced;
    traced.shape = {1, params_.n};
    traced.config = params_.config;
    traced.check = LessonCheck{trace->check.passed, trace->check.describe()};
    traced.blocks = std::move(trace->blocks);
    return traced;
  }

  [[nodiscard]] std::string size_label() const override { return "elements N"; }
  // A grid-stride loop is the way to cover any N with a grid of one's choosing, so its sweeps keep
  // the grid; one element per thread needs a grid that grows with N and follows the block.
  [[nodiscard]] lessons::ParamValues sweep_resets() const override {
    if (params_.grid_stride) return {};
    return {{"grid", "auto"}};
  }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    std::uint64_t top = device.is_gpu() ? kGpuSweepTop : kEmulatorSweepTop;
    if (!device.is_gpu() && params_.branch != lessons::BranchRule::kNone) {
      top = kEmulatorBranchSweepTop;
    }
    // `in` and `out`: 8 bytes an element, with room to spare for the rest of the process.
    const std::uint64_t fits = elements_fitting(device.info().global_memory_free, 8.0);
    top = std::min(top, fits);
    if (params_.grid_stride && !grid_is_auto_) {
      auto threads = lessons::count_grid_threads(params_.config);
      if (threads && *threads < top / kMaxSweepPasses) top = *threads * kMaxSweepPasses;
    }
    return size_sweep(1 << 10, std::max<std::uint64_t>(1 << 10, top), 1);
  }
  [[nodiscard]] std::optional<std::pair<TimingKey, TimingKey>> crossover() const override {
    // End to end, copies included, against the plain loop, as in vector add. On the emulator there
    // is no GPU row, so no crossing.
    return std::make_pair(TimingKey{TimingRole::kCpuOneThread, ""},
                          TimingKey{TimingRole::kEndToEndPageable, ""});
  }

 private:
  [[nodiscard]] LessonReport to_lesson_report(const ThreadHierarchyReport& r) const {
    LessonReport report;
    report.on_gpu = r.on_gpu;
    const double bytes = lessons::thread_hierarchy_bytes(r.n);
    const double flops = lessons::thread_hierarchy_flops(r.n);
    if (params_.branch == lessons::BranchRule::kNone) {
      report.rows.push_back({{TimingRole::kKernel, ""},
                             r.on_gpu ? kGpuKernelRow : kEmulatedKernelRow,
                             r.kernel,
                             bytes,
                             flops,
                             true,
                             r.on_gpu});
    } else {
      // Both branches, side by side: the same data, the same work, only the condition differs.
      const double branch_flops = 2.0 * lessons::kBranchSteps * static_cast<double>(r.n);
      const auto branch_row = [&](lessons::BranchRule rule, const char* condition,
                                  const TimingStats& stats) {
        const std::string name = std::string(r.on_gpu ? "GPU kernel, " : "Emulated kernel, ") +
                                 condition + (r.on_gpu ? "" : " (CPU)");
        report.rows.push_back({{TimingRole::kKernel, std::string(lessons::to_string(rule))},
                               name,
                               stats,
                               bytes,
                               branch_flops,
                               true,
                               r.on_gpu});
      };
      branch_row(lessons::BranchRule::kByThread, "if (threadIdx.x % 2)", r.branch_by_thread);
      branch_row(lessons::BranchRule::kByWarp, "if (threadIdx.x / 32 % 2)", r.branch_by_warp);
    }
    const double element_bytes = 4.0 * static_cast<double>(r.n);
    report.rows.push_back({{TimingRole::kCopy, "to-device"},
                           r.on_gpu ? "copy in host → device" : "copy in (emulated)",
                           r.host_to_device,
                           element_bytes,
                           0,
                           false});
    report.rows.push_back({{TimingRole::kCopy, "to-host"},
                           r.on_gpu ? "copy out device → host" : "copy out (emulated)",
                           r.device_to_host,
                           element_bytes,
                           0,
                           false});
    const TimingStats stages[] = {r.host_to_device, r.kernel, r.device_to_host};
    const double work_flops = params_.branch == lessons::BranchRule::kNone
                                  ? flops
                                  : 2.0 * lessons::kBranchSteps * static_cast<double>(r.n);
    report.rows.push_back({{TimingRole::kEndToEndPageable, ""},
                           r.on_gpu ? kGpuEndToEndRow : kEmulatedEndToEndRow,
                           add_stages(stages),
                           bytes,
                           work_flops,
                           true});
    if (!r.cpu_single.empty()) {
      report.rows.push_back(
          {{TimingRole::kCpuOneThread, ""}, kCpuSingleRow, r.cpu_single, bytes, work_flops, true});
      report.rows.push_back(
          {{TimingRole::kCpuAllThreads, ""}, kCpuMultiRow, r.cpu_multi, bytes, work_flops, true});
      report.notes.push_back(cpu_threads_note(kCpuMultiRow, r.cpu_threads));
    }
    if (r.check) report.check = LessonCheck{r.check->passed, r.check->describe()};
    if (params_.branch != lessons::BranchRule::kNone) add_branch_notes(r, report);
    // How the threads met the data: what the grid-stride loop made of the grid, or what a grid too
    // small for one element per thread left out.
    const std::string threads_for_n =
        format_count(r.threads) + " threads for " + format_count(r.n) + " elements";
    if (params_.grid_stride) {
      report.notes.push_back("grid-stride loop: " + threads_for_n +
                             ", so each thread makes up to " + format_count(r.passes) +
                             (r.passes == 1 ? " pass" : " passes"));
    } else if (r.threads < r.n) {
      report.notes.push_back("one element per thread: " + threads_for_n + ", so the last " +
                             format_count(r.n - r.threads) +
                             " are never computed; a grid-stride loop would cover them");
    }
    return report;
  }

  // What each branch rule does to this block's warps, and, on the emulator, why its two times say
  // nothing about divergence.
  void add_branch_notes(const ThreadHierarchyReport& r, LessonReport& report) const {
    const auto block_threads = static_cast<std::uint32_t>(params_.config.block.volume());
    for (lessons::BranchRule rule :
         {lessons::BranchRule::kByThread, lessons::BranchRule::kByWarp}) {
      const lessons::BlockAtBranch at = lessons::block_at_branch(rule, block_threads);
      report.notes.push_back(
          std::string(lessons::to_string(rule)) + ": " + std::to_string(at.warps) +
          " warp(s) per block run the branch's body " + std::to_string(at.warp_passes) +
          " time(s), " + std::to_string(static_cast<int>(std::lround(at.idle_fraction() * 100))) +
          " % of their lanes idle meanwhile");
    }
    if (!r.on_gpu) {
      report.notes.push_back(
          "the emulator runs a block's threads one after another, not 32 lanes in step: both "
          "branches take about the same CPU time there, and only a GPU shows divergence's cost");
    }
  }

  lessons::ThreadHierarchyParams params_;
  bool grid_is_auto_ = true;
};

}  // namespace

std::unique_ptr<Lesson> make_thread_hierarchy_lesson() {
  return std::make_unique<ThreadHierarchyLesson>();
}

}  // namespace tl::compute
