#include "matrix_add_lesson.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "compute/hardware_counters.hpp"
#include "compute/lessons/memory_lesson.hpp"
#include "compute/lessons/parameterized_lesson.hpp"
#include "core/format.hpp"
#include "core/parallel_chunks.hpp"
#include "core/sweep/size_sweep.hpp"
#include "lessons/03_2d_blocks/matrix_add.hpp"
#include "matrix_add_runner.hpp"

namespace tl::compute {
namespace {

using lessons::MatrixMapping;

// The names of the timed rows, which are also the sweep's series. Every run times both mappings,
// so both kernel rows are always there, coalesced first. On the emulator the kernel rows say what
// they are: CPU timings of the emulated kernels.
constexpr const char* kCpuSingleRow = "CPU, 1 thread";
constexpr const char* kCpuMultiRow = "CPU, all threads";

std::string kernel_row_name(bool on_gpu, MatrixMapping mapping) {
  const char* kernel = on_gpu ? "GPU kernel" : "Emulated kernel (CPU)";
  const char* how =
      mapping == MatrixMapping::kXToCol ? "x → column (coalesced)" : "x → row (strided)";
  return std::string(kernel) + ", " + how;
}

// The end-to-end row names the mapping it times with its copies: "end to end" of which kernel.
std::string end_to_end_row_name(bool on_gpu, MatrixMapping mapping) {
  const char* how = mapping == MatrixMapping::kXToCol ? "x → column" : "x → row";
  return on_gpu ? std::string("GPU end to end: copies + kernel ") + how
                : std::string("Emulated end to end: copies + kernel ") + how + " (CPU)";
}

// The kernel row's variant, as the lesson's "mapping" choice spells it.
std::string mapping_key(MatrixMapping mapping) {
  return mapping == MatrixMapping::kXToCol ? "x-to-col" : "x-to-row";
}

// "x → column", for notes.
std::string mapping_label(MatrixMapping mapping) {
  return mapping == MatrixMapping::kXToCol ? "x → column" : "x → row";
}

// Sweeps use square matrices, side × side. The emulator runs every thread one after another and a
// timed run launches both mappings: up to 4096 × 4096 (2^24 elements, as far as the vector-add
// sweep goes) a point takes about two seconds. On a GPU, 16384 × 16384 (3 GiB for A, B and C)
// reaches the bandwidth plateau.
constexpr std::uint64_t kSweepFirstSide = 32;
constexpr std::uint64_t kEmulatorSweepTopSide = 4096;
constexpr std::uint64_t kGpuSweepTopSide = 16384;

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"rows", "rows", lessons::ParamKind::kCount, "1024", {}, "Rows of the matrices"},
      {"cols", "columns", lessons::ParamKind::kCount, "1024", {}, "Columns of the matrices"},
      {"grid",
       "blocks",
       lessons::ParamKind::kDim3,
       "auto",
       {},
       "Blocks in the grid (x,y); auto: just enough to give every element a thread under the "
       "mapping"},
      {"block",
       "threads / block",
       lessons::ParamKind::kDim3,
       "16,16",
       {},
       "Threads in each block (x,y)"},
      {"mapping",
       "x walks along",
       lessons::ParamKind::kChoice,
       "x-to-col",
       {"x-to-col", "x-to-row"},
       "x-to-col: col from x, row from y (coalesced); x-to-row: the article's row = threadIdx.x "
       "(strided). Every timed run measures both"},
  };
  return kSpecs;
}

class MatrixAddLesson final : public ParameterizedLesson,
                              public CountingLesson,
                              public MemoryLesson {
 public:
  MatrixAddLesson()
      : ParameterizedLesson({.info = lessons::kMatrixAddInfo,
                             .specs = specs(),
                             .size_params = {"rows", "cols"},
                             .sweep_resets = {{"grid", "auto"}},
                             .blocks = BlockSweepShape::kTwoDimensions,
                             .largest_block = {32, 32, 1}}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader,
               const lessons::ParamValues& /*values*/) override {
    auto rows = reader.count("rows");
    if (!rows) return rows.error();
    auto cols = reader.count("cols");
    if (!cols) return cols.error();
    auto block = reader.dim3("block");
    if (!block) return block.error();
    auto grid = reader.grid("grid");
    if (!grid) return grid.error();
    auto mapping_name = reader.choice("mapping");
    if (!mapping_name) return mapping_name.error();
    auto mapping = lessons::parse_matrix_mapping(*mapping_name);
    if (!mapping) return invalid_argument("mapping: " + mapping.message());

    lessons::MatrixAddParams params;
    params.rows = *rows;
    params.cols = *cols;
    params.mapping = *mapping;
    params.config = grid->volume() == 0
                        ? lessons::matrix_covering_config(*rows, *cols, *block, *mapping)
                        : LaunchConfig{*grid, *block};
    // Only what the kernel itself cannot do is refused here (an empty matrix, rows or columns past
    // its int indices); a configuration CUDA refuses is kept, so that its own error can be shown.
    TL_RETURN_IF_ERROR(lessons::validate_matrix_add(params, 0));
    params_ = params;
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override { return params_.config; }
  [[nodiscard]] DataShape data_shape() const override { return {params_.rows, params_.cols}; }
  [[nodiscard]] std::optional<ThreadCoverage> thread_coverage() const override {
    return ThreadCoverage::matrix(params_.rows, params_.cols,
                                  params_.mapping == lessons::MatrixMapping::kXToRow);
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    return params_.mapping == lessons::MatrixMapping::kXToRow ? "matrix_add_x_to_row"
                                                              : "matrix_add_x_to_col";
  }

  [[nodiscard]] std::vector<LessonPreset> presets() const override {
    return {
        {"the article's single block",
         "32 × 32 elements, one block of 32 × 32 threads with row = threadIdx.x: as big as one "
         "block gets",
         {{"rows", "32"},
          {"cols", "32"},
          {"grid", "1"},
          {"block", "32,32"},
          {"mapping", "x-to-row"}}},
        {"the article's row = threadIdx.x",
         "x walks down a column: a warp reads 32 floats a whole row apart (strided)",
         {{"grid", "auto"}, {"mapping", "x-to-row"}}},
        {"coalesced",
         "x walks along a row: a warp reads 32 neighbouring floats, 4 memory sectors",
         {{"grid", "auto"}, {"mapping", "x-to-col"}}},
    };
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    MatrixAddRequest request;
    request.params = params_;
    request.cancel = cancel;
    request.repeats = repeats();
    request.time_cpu = time_cpu();
    auto report = run_matrix_add(device, request);
    if (!report) return report.error();
    return to_lesson_report(*report);
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    auto check = trace_matrix_add(device, params_, sink);
    if (!check) return check.error();
    TracedLaunch traced;
    traced.shape = {params_.rows, params_.cols};
    traced.config = params_.config;
    traced.check = LessonCheck{check->passed, check->describe()};
    return traced;
  }

  Result<std::vector<CountedKernel>> run_counted(Device& device) override {
    auto counted = count_matrix_add(device, params_);
    if (!counted) return counted.error();
    std::vector<CountedKernel> kernels;
    for (const MatrixCountedKernel& k : *counted) {
      kernels.push_back({to_string(TimingKey{TimingRole::kKernel, mapping_key(k.mapping)}),
                         kernel_row_name(device.is_gpu(), k.mapping),
                         lessons::matrix_add_bytes(params_.rows, params_.cols), k.counters});
    }
    return kernels;
  }

  // Both mappings, as a timed run launches them: the selected one with the configuration asked
  // for, the other with the grid that covers the matrix under it.
  [[nodiscard]] std::vector<memory::MemoryExperiment> memory_experiments() const override {
    std::vector<memory::MemoryExperiment> experiments;
    const auto elements = params_.rows * params_.cols;
    for (const MatrixMapping mapping : {MatrixMapping::kXToCol, MatrixMapping::kXToRow}) {
      memory::MemoryExperiment e;
      e.label = mapping_label(mapping);
      e.source = "lessons/03_2d_blocks/kernels/matrix_add.cuh";
      e.kernel = mapping == MatrixMapping::kXToCol ? "matrix_add_x_to_col" : "matrix_add_x_to_row";
      e.counted_key = to_string(TimingKey{TimingRole::kKernel, mapping_key(mapping)});
      e.arguments = {memory::KernelArgument::floats("a", elements),
                     memory::KernelArgument::floats("b", elements),
                     memory::KernelArgument::floats("c", elements),
                     memory::KernelArgument::integer("rows", static_cast<int>(params_.rows)),
                     memory::KernelArgument::integer("cols", static_cast<int>(params_.cols))};
      e.config = mapping == params_.mapping
                     ? params_.config
                     : lessons::matrix_covering_config(params_.rows, params_.cols,
                                                       params_.config.block, mapping);
      experiments.push_back(std::move(e));
    }
    return experiments;
  }

  [[nodiscard]] std::string size_label() const override { return "matrix side (rows = cols)"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    std::uint64_t top = device.is_gpu() ? kGpuSweepTopSide : kEmulatorSweepTopSide;
    // A, B and C: 12 bytes an element, with room to spare for the rest of the process.
    const auto fitting_elements =
        static_cast<double>(elements_fitting(device.info().global_memory_free, 12.0));
    top = std::min(top, static_cast<std::uint64_t>(std::sqrt(fitting_elements)));
    return size_sweep(kSweepFirstSide, std::max(kSweepFirstSide, top), 1);
  }
  [[nodiscard]] std::optional<std::pair<TimingKey, TimingKey>> crossover() const override {
    // The plain loop against the selected kernel end to end, copies included. On the emulator
    // there is no GPU row, so no crossing.
    return std::make_pair(TimingKey{TimingRole::kCpuOneThread, ""},
                          TimingKey{TimingRole::kEndToEndPageable, ""});
  }

 private:
  [[nodiscard]] LessonReport to_lesson_report(const MatrixAddReport& r) const {
    LessonReport report;
    report.on_gpu = r.on_gpu;
    const double bytes = lessons::matrix_add_bytes(params_.rows, params_.cols);
    const double flops = static_cast<double>(params_.rows) * static_cast<double>(params_.cols);
    for (const MatrixMappingTiming* timing : {&r.x_to_col, &r.x_to_row}) {
      report.rows.push_back({{TimingRole::kKernel, mapping_key(timing->mapping)},
                             kernel_row_name(r.on_gpu, timing->mapping),
                             timing->kernel,
                             bytes,
                             flops,
                             true,
                             r.on_gpu});
    }
    const double matrix_bytes = 4.0 * static_cast<double>(params_.rows * params_.cols);
    report.rows.push_back({{TimingRole::kCopy, "to-device"},
                           r.on_gpu ? "copy A, B host → device" : "copy A, B (emulated)",
                           r.host_to_device,
                           2.0 * matrix_bytes,
                           0,
                           false});
    report.rows.push_back({{TimingRole::kCopy, "to-host"},
                           r.on_gpu ? "copy C device → host" : "copy C (emulated)",
                           r.device_to_host,
                           matrix_bytes,
                           0,
                           false});
    const TimingStats stages[] = {r.host_to_device, r.timing(r.selected).kernel, r.device_to_host};
    report.rows.push_back({{TimingRole::kEndToEndPageable, ""},
                           end_to_end_row_name(r.on_gpu, r.selected),
                           add_stages(stages),
                           bytes,
                           flops,
                           true});
    if (!r.cpu_single.empty()) {
      report.rows.push_back(
          {{TimingRole::kCpuOneThread, ""}, kCpuSingleRow, r.cpu_single, bytes, flops, true});
      report.rows.push_back(
          {{TimingRole::kCpuAllThreads, ""}, kCpuMultiRow, r.cpu_multi, bytes, flops, true});
      report.notes.push_back(cpu_threads_note(kCpuMultiRow, r.cpu_threads));
    }
    report.check = combined_check(r);
    add_notes(report, r);
    return report;
  }

  // Both mappings must compute C; the selected one is named first when both fail, since its grid
  // is the user's (the other runs with a covering grid).
  [[nodiscard]] static std::optional<LessonCheck> combined_check(const MatrixAddReport& r) {
    const MatrixMappingTiming& selected = r.timing(r.selected);
    const MatrixMappingTiming& other = r.timing(lessons::other_mapping(r.selected));
    if (!selected.check && !other.check) return std::nullopt;
    for (const MatrixMappingTiming* timing : {&selected, &other}) {
      if (timing->check && !timing->check->passed) {
        return LessonCheck{false,
                           mapping_label(timing->mapping) + ": " + timing->check->describe()};
      }
    }
    const auto& passed = selected.check ? selected.check : other.check;
    return LessonCheck{true, passed->describe() + ", under both mappings"};
  }

  void add_notes(LessonReport& report, const MatrixAddReport& r) const {
    const MatrixMapping other = lessons::other_mapping(r.selected);
    const MatrixMappingTiming& other_timing = r.timing(other);
    if (!(other_timing.config == params_.config)) {
      report.notes.push_back(mapping_label(other) + " ran with " + other_timing.config.to_string() +
                             ", the grid that covers the matrix under that mapping");
    }
    const double slowdown = r.strided_slowdown();
    if (slowdown <= 0) return;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", slowdown);
    const std::string sectors =
        "a warp's read of A touches " + std::to_string(r.x_to_row.sectors_per_warp) +
        " memory sectors of 32 bytes instead of " + std::to_string(r.x_to_col.sectors_per_warp);
    if (r.on_gpu) {
      report.notes.push_back("x → row took " + std::string(ratio) +
                             "× as long as x → column: " + sectors);
    } else {
      // The emulator's timings reflect the CPU's caches, not the GPU's memory transactions: say so
      // rather than let a near-1 ratio teach that the mapping does not matter.
      report.notes.push_back("x → row took " + std::string(ratio) +
                             "× as long as x → column here, but the emulator runs threads one at "
                             "a time on the CPU and cannot show coalescing; on a GPU " +
                             sectors);
    }
  }

  lessons::MatrixAddParams params_;
};

}  // namespace

std::unique_ptr<Lesson> make_matrix_add_lesson() {
  return std::make_unique<MatrixAddLesson>();
}

}  // namespace tl::compute
