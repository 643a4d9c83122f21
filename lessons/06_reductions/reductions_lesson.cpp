#include "reductions_lesson.hpp"

#include <algorithm>
#include <cstdio>

#include "compute/hardware_counters.hpp"
#include "compute/lessons/memory_lesson.hpp"
#include "compute/lessons/parameterized_lesson.hpp"
#include "core/format.hpp"
#include "core/parallel_chunks.hpp"
#include "core/sweep/size_sweep.hpp"
#include "core/thread_coverage_note.hpp"
#include "lessons/06_reductions/reductions.hpp"

namespace tl::compute {
namespace {

using lessons::SumRung;

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"n", "N elements", lessons::ParamKind::kCount, "16M", {}, "How many floats to sum"},
      {"kernel",
       "rung",
       lessons::ParamKind::kChoice,
       "warp-shuffle",
       {"atomic", "interleaved", "strided", "sequential", "first-add", "warp-shuffle",
        "cooperative-groups", "vectorized", "scan"},
       "The rung traced and drawn (a timed run times every rung); scan: the inclusive prefix sum, "
       "drawn by who scanned each element"},
      {"block",
       "threads / block",
       lessons::ParamKind::kDim3,
       "256",
       {},
       "Threads in each block: a power of two from 32 to 1024"},
      {"grid",
       "vectorized blocks",
       lessons::ParamKind::kDim3,
       "auto",
       {},
       "Blocks of the vectorized rung's grid-stride loop; auto: up to 2^18 threads. The other "
       "rungs always give every element (or pair) a thread",
       {},
       true},
      {"data",
       "data",
       lessons::ParamKind::kChoice,
       "uniform",
       {"uniform", "equal", "alternating", "wide"},
       "uniform in [0, 1); all 1.0; alternating signs; magnitudes from 2^-30 to 2^30"},
      {"rows",
       "softmax rows",
       lessons::ParamKind::kCount,
       "1024",
       {},
       "Rows of the softmax's matrix",
       {},
       true},
      {"cols",
       "softmax columns",
       lessons::ParamKind::kCount,
       "4096",
       {},
       "Columns of the softmax's matrix (one block per row)",
       {},
       true},
  };
  return kSpecs;
}

std::string row_name(bool on_gpu, const std::string& what) {
  return on_gpu ? "GPU " + what : "Emulated " + what + " (CPU)";
}

std::string format_sci(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

class ReductionsLesson final : public ParameterizedLesson,
                               public CountingLesson,
                               public MemoryLesson {
 public:
  ReductionsLesson()
      : ParameterizedLesson({.info = lessons::kReductionsInfo,
                             .specs = specs(),
                             .size_params = {"n"},
                             .sweep_resets = {{"grid", "auto"}},
                             .blocks = BlockSweepShape::kWarpMultiplesOfTwo}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader,
               const lessons::ParamValues& /*values*/) override {
    lessons::ReductionParams p;
    auto n = reader.count("n");
    if (!n) return n.error();
    p.n = *n;
    auto kernel = reader.choice("kernel");
    if (!kernel) return kernel.error();
    p.scan = *kernel == "scan";
    if (!p.scan) {
      auto rung = lessons::parse_sum_rung(*kernel);
      if (!rung) return rung.error();
      p.rung = *rung;
    }
    auto block = reader.dim3("block");
    if (!block) return block.error();
    if (block->y != 1 || block->z != 1) {
      return invalid_argument("the reduction kernels take 1D blocks, not " + to_string(*block) +
                              ".");
    }
    p.block = block->x;
    auto grid = reader.grid("grid");
    if (!grid) return grid.error();
    if (grid->y > 1 || grid->z > 1) {
      return invalid_argument("the vectorized rung takes a 1D grid, not " + to_string(*grid) + ".");
    }
    p.grid = grid->x;
    auto data = reader.choice("data");
    if (!data) return data.error();
    auto parsed_data = lessons::parse_sum_data(*data);
    if (!parsed_data) return parsed_data.error();
    p.data = *parsed_data;
    auto rows = reader.count("rows");
    if (!rows) return rows.error();
    auto cols = reader.count("cols");
    if (!cols) return cols.error();
    if (*rows > 0xFFFFFFFFu || *cols > 0xFFFFFFFFu) {
      return invalid_argument("the softmax's rows and cols must each be below 2^32.");
    }
    p.rows = static_cast<std::uint32_t>(*rows);
    p.cols = static_cast<std::uint32_t>(*cols);
    TL_RETURN_IF_ERROR(lessons::validate_reduction(p));
    params_ = p;
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override {
    // The scan's first pass: one thread per element (its later levels run on the block totals).
    if (params_.scan) return lessons::sum_config(SumRung::kAtomic, params_.n, params_.block);
    return config_for(params_.rung);
  }
  [[nodiscard]] DataShape data_shape() const override { return {1, params_.n}; }
  [[nodiscard]] lessons::ParamValues emulator_defaults() const override {
    // Every rung, the histograms and the softmax in one timed run: sizes the emulator finishes
    // in about a second.
    return {{"n", "64K"}, {"rows", "64"}, {"cols", "1024"}};
  }
  [[nodiscard]] std::uint32_t elements_per_thread() const override {
    if (params_.scan) return 1;
    switch (params_.rung) {
      case SumRung::kFirstAdd:
      case SumRung::kWarpShuffle:
      case SumRung::kCooperativeGroups:
        return 2;
      case SumRung::kVectorized:
        return kAnyElementsPerThread;
      default:
        return 1;
    }
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    if (params_.scan) return std::string("scan_blocks");
    std::string name = "sum_" + std::string(lessons::to_string(params_.rung));
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
  }

  [[nodiscard]] std::vector<LessonPreset> presets() const override {
    return {{"all 1.0, 2^25",
             "Every element 1.0: the CPU's float loop stops at 2^24 = 16777216, the trees do not",
             {{"n", "32Mi"}, {"data", "equal"}}},
            {"the tree, one block",
             "64 elements, one block of 64: the whole tree in one picture",
             {{"n", "64"}, {"block", "64"}, {"kernel", "sequential"}}}};
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    ReductionsRequest request;
    request.params = params_;
    request.cancel = cancel;
    request.repeats = repeats();
    request.time_cpu = time_cpu();
    auto report = run_reductions(device, request);
    if (!report) return report.error();
    return to_lesson_report(std::move(*report));
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    TracedLaunch traced;
    traced.shape = data_shape();
    traced.config = launch_config();
    if (params_.scan) {
      auto scanned = trace_scan(device, params_, sink);
      if (!scanned) return scanned.error();
      traced.check = LessonCheck{scanned->passed, scanned->describe()};
      return traced;
    }
    auto check = trace_reduction(device, params_, traced.config, sink);
    if (!check) return check.error();
    traced.check = LessonCheck{check->passed, check->describe()};
    return traced;
  }

  [[nodiscard]] std::string size_label() const override { return "elements N"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    const std::uint64_t top = device.is_gpu() ? (std::uint64_t{1} << 28) : (std::uint64_t{1} << 20);
    // The data, its copy and the contention targets: three arrays of n floats, plus the histogram.
    const std::uint64_t fits = elements_fitting(device.info().global_memory_free, 16.0);
    return size_sweep(1 << 10, std::max<std::uint64_t>(1 << 10, std::min(top, fits)), 1);
  }
  [[nodiscard]] std::optional<std::pair<TimingKey, TimingKey>> crossover() const override {
    return std::make_pair(TimingKey{TimingRole::kCpuOneThread, ""},
                          TimingKey{TimingRole::kKernel, "vectorized"});
  }

  // Every rung counted once, keyed as its timing row: the trees' shared-memory bank conflicts
  // and every rung's global sectors, beside the memory model's (tests/gpu compares the two).
  Result<std::vector<CountedKernel>> run_counted(Device& device) override {
    auto counted = count_reductions(device, params_, kernels::kSumRungs);
    if (!counted) return counted.error();
    std::vector<CountedKernel> rows;
    for (const ReductionCountedKernel& k : *counted) {
      const std::string name(lessons::to_string(k.rung));
      rows.push_back({to_string(TimingKey{TimingRole::kKernel, name}),
                      row_name(device.is_gpu(), "sum, " + name),
                      4.0 * static_cast<double>(params_.n), k.counters});
    }
    return rows;
  }

  // The shared-memory trees and the two rungs after them, each with its own launch (as timed):
  // the trees' figures are their bank conflicts, the loads' their sectors.
  [[nodiscard]] std::vector<memory::MemoryExperiment> memory_experiments() const override {
    std::vector<memory::MemoryExperiment> experiments;
    for (const SumRung rung : {SumRung::kInterleaved, SumRung::kStrided, SumRung::kSequential,
                               SumRung::kFirstAdd, SumRung::kWarpShuffle}) {
      memory::MemoryExperiment e;
      e.label = std::string(lessons::to_string(rung));
      e.source = "lessons/06_reductions/kernels/sum_ladder.cuh";
      e.kernel = "sum_" + e.label;
      std::replace(e.kernel.begin(), e.kernel.end(), '-', '_');
      e.counted_key = to_string(TimingKey{TimingRole::kKernel, e.label});
      e.arguments = {memory::KernelArgument::floats("in", params_.n),
                     memory::KernelArgument::floats("out", 1),
                     memory::KernelArgument::integer("n", static_cast<int>(params_.n))};
      e.config = config_for(rung);
      experiments.push_back(std::move(e));
    }
    return experiments;
  }

 private:
  [[nodiscard]] LaunchConfig config_for(SumRung rung) const {
    return lessons::sum_config(rung, params_.n, params_.block,
                               rung == SumRung::kVectorized ? params_.grid : 0);
  }

  LessonReport to_lesson_report(ReductionsReport r) const {
    LessonReport report;
    report.on_gpu = r.on_gpu;
    const double n = static_cast<double>(r.n);
    const double read = 4.0 * n;
    for (const RungResult& rung : r.rungs) {
      const std::string name(lessons::to_string(rung.rung));
      report.rows.push_back({{TimingRole::kKernel, name},
                             row_name(r.on_gpu, "sum, " + name),
                             rung.time,
                             read,
                             n,
                             true,
                             r.on_gpu});
    }
    if (!r.library.empty()) {
      report.rows.push_back({{TimingRole::kLibrary, "cub-device-reduce"},
                             "CUB DeviceReduce::Sum",
                             r.library,
                             read,
                             n,
                             true,
                             true});
    } else {
      report.notes.push_back(r.library_absent);
    }
    report.rows.push_back({{TimingRole::kKernel, "count-above-atomic"},
                           row_name(r.on_gpu, "count above 0.5, one atomic per element above"),
                           r.count.atomic,
                           read,
                           0,
                           true,
                           r.on_gpu});
    report.rows.push_back({{TimingRole::kKernel, "count-above-ballot"},
                           row_name(r.on_gpu, "count above 0.5, __ballot_sync per warp"),
                           r.count.ballot,
                           read,
                           0,
                           true,
                           r.on_gpu});
    // A scan reads n floats and writes n at the least: its GB/s compare with the copy's.
    report.rows.push_back({{TimingRole::kKernel, "scan"},
                           row_name(r.on_gpu, "inclusive scan, " + std::to_string(r.scan.levels) +
                                                  " level(s) of block scans + second passes"),
                           r.scan.time,
                           2.0 * read,
                           n,
                           true,
                           r.on_gpu});
    if (!r.scan.library.empty()) {
      report.rows.push_back({{TimingRole::kLibrary, "cub-device-scan"},
                             "CUB DeviceScan::InclusiveSum",
                             r.scan.library,
                             2.0 * read,
                             n,
                             true,
                             true});
    }
    report.rows.push_back({{TimingRole::kCopy, "device-to-device"},
                           r.on_gpu ? "copy the data device → device" : "copy the data (emulated)",
                           r.device_copy,
                           2.0 * read,
                           0,
                           false});
    report.rows.push_back({{TimingRole::kCopy, "to-device"},
                           r.on_gpu ? "copy the data host → device" : "copy the data in (emulated)",
                           r.host_to_device,
                           read,
                           0,
                           false});
    for (const HistogramResult& h : r.histograms) {
      for (bool shared : {false, true}) {
        report.rows.push_back(
            {{TimingRole::kKernel, histogram_variant(shared, h.skewed)},
             row_name(r.on_gpu, std::string("histogram, ") + (shared ? "shared" : "global") + ", " +
                                    (h.skewed ? "skewed" : "uniform")),
             shared ? h.shared : h.global,
             read,
             0,
             true,
             r.on_gpu});
      }
    }
    const double softmax_bytes = 8.0 * r.softmax.rows * static_cast<double>(r.softmax.cols);
    report.rows.push_back({{TimingRole::kKernel, "softmax-stable"},
                           row_name(r.on_gpu, "softmax, stable"),
                           r.softmax.stable,
                           softmax_bytes,
                           0,
                           true,
                           r.on_gpu});
    report.rows.push_back({{TimingRole::kKernel, "softmax-naive"},
                           row_name(r.on_gpu, "softmax, naive"),
                           r.softmax.naive,
                           softmax_bytes,
                           0,
                           true,
                           r.on_gpu});
    if (!r.cpu_single.empty()) {
      report.rows.push_back(
          {{TimingRole::kCpuOneThread, ""}, "CPU, 1 thread", r.cpu_single, read, n, true});
    }
    if (!r.cpu_multi.empty()) {
      report.rows.push_back(
          {{TimingRole::kCpuAllThreads, ""}, "CPU, all threads", r.cpu_multi, read, n, true});
      report.notes.push_back(cpu_threads_note("CPU, all threads", r.cpu_threads));
    }
    if (!r.on_gpu) {
      report.notes.push_back(
          "the emulator runs every GPU thread on the CPU: its timings are the CPU's, not a GPU's");
    }
    report.notes.push_back("float64 sum " + format_sci("%.17g", r.exact) + "; sum |x| " +
                           format_sci("%.6g", r.abs_total));
    for (const lessons::SumCheck& s : r.cpu_sums) report.notes.push_back(s.describe());
    std::string contention = "atomic contention (ms per launch): ";
    for (const ContentionPoint& c : r.contention) {
      contention +=
          std::to_string(c.addresses) + " address(es) " + format_sci("%.3g", c.median_ms) + "; ";
    }
    report.notes.push_back(contention);
    report.notes.push_back("softmax on logits near 90: naive " + r.softmax.naive_large.describe() +
                           "; stable " + r.softmax.stable_large.describe());
    report.check = LessonCheck{r.passed(), r.describe_check()};
    report.attachment = std::make_shared<ReductionsAttachment>(std::move(r));
    return report;
  }

  lessons::ReductionParams params_;
};

}  // namespace

std::string histogram_variant(bool shared, bool skewed) {
  return std::string("histogram-") + (shared ? "shared" : "global") + "-" +
         (skewed ? "skewed" : "uniform");
}

std::unique_ptr<Lesson> make_reductions_lesson() {
  return std::make_unique<ReductionsLesson>();
}

}  // namespace tl::compute
