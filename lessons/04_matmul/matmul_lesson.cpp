#include "matmul_lesson.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>
#include <utility>

#include "compute/hardware_counters.hpp"
#include "compute/lessons/memory_lesson.hpp"
#include "compute/lessons/own_ceilings.hpp"
#include "compute/lessons/parameterized_lesson.hpp"
#include "core/format.hpp"
#include "core/launch_config.hpp"
#include "core/parallel_chunks.hpp"
#include "core/sweep/size_sweep.hpp"
#include "lessons/04_matmul/matmul.hpp"
#include "lessons/04_matmul/matmul_reference.hpp"
#include "lessons/04_matmul/matmul_tensor.hpp"
#include "matmul_runner.hpp"

namespace tl::compute {
namespace {

using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

// The names of the timed rows that do not depend on the kernels' parameters; they are also the
// sweep's series, so they must not change with the size (the blocked reference's thread count
// does, and goes into a note instead).
constexpr const char* kCpuNaiveRow = "CPU, naive 1 thread";
constexpr const char* kCpuBlockedRow = "CPU, blocked all threads";
constexpr const char* kCublasRow = "cuBLAS SGEMM";

// A kernel's row: what ran and with which block or tile, which a sweep keeps fixed. On the
// emulator the row says it is a CPU timing of the emulated kernel.
std::string kernel_row_name(const MatmulVariant& variant, bool on_gpu) {
  std::string what;
  switch (variant.kernel) {
    case MatmulKernel::kNaive:
      what = "naive kernel, block " + to_string(variant.block);
      break;
    case MatmulKernel::kUncoalesced:
      what = "uncoalesced kernel, block " + to_string(variant.block);
      break;
    case MatmulKernel::kTiled:
      what = "tiled kernel, TILE = " + std::to_string(variant.tile);
      break;
    default:
      what = std::string(lessons::to_string(variant.kernel)) + " kernel";
      break;
  }
  return on_gpu ? "GPU " + what : "Emulated " + what + " (CPU)";
}

// cuBLAS GemmEx's row key at a tensor rung's precision: "cublas-gemmex-fp16".
std::string cublas_gemmex_key(lessons::MatmulInput input) {
  std::string key = "cublas-gemmex-" + std::string(lessons::to_string(input));
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return key;
}

// The end-to-end row names the kernel it times with the copies: "end to end" of which rung.
std::string end_to_end_row_name(const MatmulVariant& variant, bool on_gpu) {
  const std::string kernel = kernel_row_name(variant, true).substr(4);  // without "GPU "
  return on_gpu ? "GPU end to end: copies + " + kernel
                : "Emulated end to end: copies + " + kernel + " (CPU)";
}

// A kernel's row key: the rung, as the lesson's "kernel" choice spells it. The tile or block is
// not part of it: a sweep keeps them fixed, and the bench suites ask for a rung.
TimingKey kernel_key(const MatmulVariant& variant) {
  return {TimingRole::kKernel, std::string(lessons::to_string(variant.kernel))};
}

// Sweeps visit square sizes M = N = K on a log scale, two per octave so the gain of tiling shows
// as a curve rather than a few points.
constexpr std::uint64_t kSweepSmallest = 32;
constexpr std::uint64_t kGpuSweepLargest = 4096;
constexpr unsigned kSweepStepsPerOctave = 2;
// A sweep point on the emulator launches each kernel once to warm up and then repeats() times;
// sizes whose launches are predicted to take longer than this together are left out.
constexpr double kEmulatorSweepPointSeconds = 4.0;
// The share of free memory a sweep point may use for A, B and C.
constexpr double kSweepMemoryShare = 0.8;

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"m", "M (rows of A, C)", lessons::ParamKind::kCount, "512", {}, "Rows of A and of C"},
      {"n", "N (columns of B, C)", lessons::ParamKind::kCount, "512", {}, "Columns of B and of C"},
      {"k",
       "K (columns of A, rows of B)",
       lessons::ParamKind::kCount,
       "512",
       {},
       "Columns of A and rows of B: the length of every dot product"},
      {"kernel",
       "kernel",
       lessons::ParamKind::kChoice,
       "tiled",
       {"uncoalesced", "naive", "tiled", "regtile-1d", "regtile-2d", "vectorized", "warptile",
        "pipelined", "wmma-fp16", "wmma-bf16", "wmma-tf32", "mma-fp16", "wgmma-fp16",
        "wgmma-tma-fp16", "wgmma-tma-bf16"},
       "The ladder, each rung one change: uncoalesced (one thread per element, x picking the row); "
       "naive (x picking the column: coalesced); tiled (shared-memory tiles); regtile-1d (8 "
       "elements per thread); regtile-2d (8×8 per thread); vectorized (float4 loads, transposed A "
       "tile); warptile (tiles split per warp, double-buffered); pipelined (warptile's threads, "
       "tiles "
       "copied by a cp.async pipeline, multiply-adds in zigzag order, shape tuned per GPU). "
       "Tensor cores (a GPU of compute "
       "capability 8.0 or newer; not emulated): wmma-fp16, wmma-bf16, wmma-tf32 (WMMA fragments, "
       "inputs rounded to that format, FP32 accumulation); mma-fp16 (mma.sync with ldmatrix and a "
       "cp.async pipeline); wgmma-fp16 (Hopper only, compute capability 9.0: a warpgroup's "
       "wgmma reading swizzled shared memory); wgmma-tma-fp16, wgmma-tma-bf16 (Hopper only: the "
       "same instruction fed by the tensor-memory accelerator, a producer warpgroup and two "
       "consumers meeting at mbarriers)"},
      {"tile",
       "TILE",
       lessons::ParamKind::kChoice,
       "16",
       {"8", "16", "32"},
       "Tiled kernel: the tile size; each block is TILE×TILE threads",
       {},
       /*advanced=*/true},
      {"block",
       "threads / block",
       lessons::ParamKind::kDim3,
       "16,16",
       {},
       "Naive and uncoalesced kernels: threads in each block (naive: x along the columns of C, "
       "uncoalesced: x along its rows); the register-tiled rungs have a fixed block"},
      {"grid",
       "blocks",
       lessons::ParamKind::kDim3,
       "auto",
       {},
       "Blocks in the grid; auto: enough to give every element of C a thread, ceil(N / block x) × "
       "ceil(M / block y)"},
  };
  return kSpecs;
}

// One of M, N, K: at least 1, and small enough that the uint32 the kernels' sizes are held in
// cannot wrap (validate_matmul_size then checks each matrix against the int index).
Result<std::uint32_t> read_dimension(const lessons::ParamReader& reader, const std::string& name) {
  auto value = reader.count(name);
  if (!value) return value.error();
  if (*value == 0)
    return invalid_argument(name + ": must be at least 1: there is nothing to multiply");
  if (*value > lessons::kMatmulMaxElements) {
    return invalid_argument(name + ": " + format_count(*value) +
                            " is more than the kernels' int index can reach (" +
                            format_count(lessons::kMatmulMaxElements) + ")");
  }
  return static_cast<std::uint32_t>(*value);
}

// A kernel of a timed run: naive or tiled with the lesson's block and tile.
struct PlannedKernel {
  MatmulVariant variant;
  std::string not_timed;  // why the kernel that was not selected is left out; empty when it runs
};

// How fast each rung is assumed to run on a display GPU, as a share of its FP32 peak: well below
// what they reach on an H100 (uncoalesced 1.4 %, naive 8 %, tiled 13 %, the register-tiled ones
// 24 to 58 %), so the watchdog prediction errs towards refusing.
KernelEfficiency watchdog_efficiency(MatmulKernel kernel) {
  switch (kernel) {
    case MatmulKernel::kUncoalesced:
      return {0.004, 0.25};
    case MatmulKernel::kNaive:
      return {0.02, 0.25};
    case MatmulKernel::kTiled:
      return {0.03, 0.25};
    default:
      return {0.08, 0.25};
  }
}

class MatmulLesson final : public ParameterizedLesson,
                           public CountingLesson,
                           public OwnCeilings,
                           public MemoryLesson {
 public:
  MatmulLesson()
      : ParameterizedLesson({.info = lessons::kMatmulInfo,
                             .specs = specs(),
                             .size_params = {"m", "n", "k"},
                             .sweep_resets = {{"grid", "auto"}},
                             .blocks = BlockSweepShape::kTwoDimensions,
                             .largest_block = {32, 32, 1}}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader,
               const lessons::ParamValues& /*values*/) override {
    auto m = read_dimension(reader, "m");
    if (!m) return m.error();
    auto n = read_dimension(reader, "n");
    if (!n) return n.error();
    auto k = read_dimension(reader, "k");
    if (!k) return k.error();
    const MatmulSize size{*m, *n, *k};
    TL_RETURN_IF_ERROR(lessons::validate_matmul_size(size, 0));

    auto kernel_text = reader.choice("kernel");
    if (!kernel_text) return kernel_text.error();
    auto kernel = lessons::parse_matmul_kernel(*kernel_text);
    if (!kernel) return kernel.error();
    auto tile_text = reader.choice("tile");
    if (!tile_text) return tile_text.error();
    std::uint32_t tile = 0;  // the choices are all numbers, so this parse cannot fail
    std::from_chars(tile_text->data(), tile_text->data() + tile_text->size(), tile);
    auto block = reader.dim3("block");
    if (!block) return block.error();
    auto grid = reader.grid("grid");
    if (!grid) return grid.error();
    const MatmulVariant variant{*kernel, tile, *block};
    TL_RETURN_IF_ERROR(lessons::validate_matmul_variant(variant));

    size_ = size;
    variant_ = variant;
    grid_ = grid->volume() == 0 ? std::nullopt : std::optional<Dim3>(*grid);
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override {
    return matmul_launch_config(size_, variant_, grid_);
  }
  // The first rungs, whose loads the lesson compares: x → row (uncoalesced), the naive kernel's
  // A and B loads, the tiled kernel's tile loads from global and shared memory. Each with the
  // launch a timed run gives it: the selected one with the grid asked for, the others covering C.
  [[nodiscard]] std::vector<memory::MemoryExperiment> memory_experiments() const override {
    std::vector<memory::MemoryExperiment> experiments;
    for (const MatmulKernel kernel :
         {MatmulKernel::kUncoalesced, MatmulKernel::kNaive, MatmulKernel::kTiled}) {
      MatmulVariant variant = variant_;
      variant.kernel = kernel;
      memory::MemoryExperiment e;
      e.label = std::string(lessons::to_string(kernel));
      e.source = "lessons/04_matmul/kernels/matmul.cuh";
      e.kernel = "matmul_" + e.label;
      e.counted_key = to_string(kernel_key(variant));
      if (kernel == MatmulKernel::kTiled) e.template_arguments = std::to_string(variant_.tile);
      e.arguments = {memory::KernelArgument::floats("a", size_.m * size_.k),
                     memory::KernelArgument::floats("b", size_.k * size_.n),
                     memory::KernelArgument::floats("c", size_.m * size_.n),
                     memory::KernelArgument::integer("m", static_cast<int>(size_.m)),
                     memory::KernelArgument::integer("n", static_cast<int>(size_.n)),
                     memory::KernelArgument::integer("k", static_cast<int>(size_.k))};
      e.config =
          matmul_launch_config(size_, variant, kernel == variant_.kernel ? grid_ : std::nullopt);
      experiments.push_back(std::move(e));
    }
    return experiments;
  }
  [[nodiscard]] DataShape data_shape() const override { return {size_.m, size_.n}; }
  [[nodiscard]] std::optional<ThreadCoverage> thread_coverage() const override {
    switch (variant_.kernel) {
      case MatmulKernel::kNaive:
      case MatmulKernel::kTiled:
        return ThreadCoverage::matrix(size_.m, size_.n);  // x → column, y → row of C
      case MatmulKernel::kUncoalesced:
        return ThreadCoverage::matrix(size_.m, size_.n, true);  // x → row
      default:
        return std::nullopt;  // a thread computes many elements: no one-to-one picture
    }
  }
  [[nodiscard]] std::optional<KernelWork> longest_kernel() const override {
    return kernel_work(variant_);
  }
  [[nodiscard]] std::uint32_t elements_per_thread() const override {
    switch (variant_.kernel) {
      case MatmulKernel::kRegtile1d:
        return 8;  // a column of 8
      case MatmulKernel::kRegtile2d:
      case MatmulKernel::kVectorized:
      case MatmulKernel::kWarptile:
      case MatmulKernel::kPipelined:
        return 64;  // an 8×8 square (two 4×4 in the warp-tiled kernel)
      case MatmulKernel::kWmmaFp16:
      case MatmulKernel::kWmmaBf16:
      case MatmulKernel::kWmmaTf32:
        return 32;  // a 64×64 tile over 128 threads
      case MatmulKernel::kMmaFp16:
        return 128;  // a 64×64 warp piece over 32 lanes: 32 instructions' c0..c3
      case MatmulKernel::kWgmmaFp16:
      case MatmulKernel::kWgmmaTmaFp16:
      case MatmulKernel::kWgmmaTmaBf16:
        return 128;  // a 64×256 warpgroup piece over 128 threads
      default:
        return 1;
    }
  }

  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    if (variant_.kernel == MatmulKernel::kTiled) {
      return "matmul_tiled<" + std::to_string(variant_.tile) + ">";
    }
    std::string name = "matmul_" + std::string(lessons::to_string(variant_.kernel));
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
  }
  // 512³ takes the emulator about ten seconds per launch; a non-square 160×192×128 takes a
  // fraction of one and still shows M, N and K apart and several tiles in each direction.
  [[nodiscard]] lessons::ParamValues emulator_defaults() const override {
    return {{"m", "160"}, {"n", "192"}, {"k", "128"}};
  }

  // Every rung of the ladder and the tensor rungs, each with why it is left out of this run (empty
  // where it runs).
  [[nodiscard]] std::vector<PlannedKernel> planned_kernels(const Device& device) const {
    std::vector<PlannedKernel> planned;
    std::vector<MatmulKernel> rungs(std::begin(lessons::kMatmulLadder),
                                    std::end(lessons::kMatmulLadder));
    rungs.insert(rungs.end(), std::begin(lessons::kMatmulTensorRungs),
                 std::end(lessons::kMatmulTensorRungs));
    for (MatmulKernel kernel : rungs) {
      MatmulVariant variant = variant_;
      variant.kernel = kernel;
      const std::string not_timed =
          kernel == variant_.kernel ? std::string() : companion_not_timed_reason(device, variant);
      planned.push_back({variant, not_timed});
    }
    return planned;
  }

  // A tensor rung's ceiling is cuBLAS at its own precision (cublasGemmEx, FP32 accumulation),
  // timed in the same run on the same inputs, not FP32 SGEMM.
  [[nodiscard]] std::optional<TimingKey> ceiling_row(const TimingKey& row) const override {
    if (row.role != TimingRole::kKernel) return std::nullopt;
    const auto kernel = lessons::parse_matmul_kernel(row.variant);
    if (!kernel || !lessons::is_tensor_rung(*kernel)) return std::nullopt;
    return TimingKey{TimingRole::kLibrary, cublas_gemmex_key(lessons::matmul_input(*kernel))};
  }

  // The counters of every kernel the timed run times, the selected one included.
  Result<std::vector<CountedKernel>> run_counted(Device& device) override {
    std::vector<MatmulVariant> variants;
    for (const PlannedKernel& kernel : planned_kernels(device)) {
      if (kernel.not_timed.empty()) variants.push_back(kernel.variant);
    }
    auto counted = count_matmul(device, size_, variants, grid_);
    if (!counted) return counted.error();
    std::vector<CountedKernel> kernels;
    for (const MatmulCountedKernel& k : *counted) {
      kernels.push_back(
          {to_string(kernel_key(k.variant)), kernel_row_name(k.variant, device.is_gpu()),
           lessons::matmul_bytes(size_, lessons::matmul_input(k.variant.kernel)), k.counters});
    }
    return kernels;
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    // Every rung of the ladder runs in one request, on the same inputs, so the table (and a sweep's
    // plot) shows what each step gains. The selected kernel must run; the others only where they
    // can.
    const std::vector<PlannedKernel> planned = planned_kernels(device);
    MatmulRequest request;
    request.size = size_;
    request.variants.clear();  // instead of the runner's default pair
    for (const PlannedKernel& kernel : planned) {
      if (kernel.not_timed.empty()) request.variants.push_back(kernel.variant);
    }
    request.grid = grid_;
    request.cancel = cancel;
    request.repeats = repeats();
    request.time_cpu = time_cpu();
    auto report = run_matmul(device, request);
    if (!report) return report.error();
    return to_lesson_report(*report, planned);
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    auto traced = trace_matmul(device, size_, variant_, launch_config(), sink);
    if (!traced) return traced.error();
    TracedLaunch launch;
    launch.shape = traced->shape;
    launch.config = traced->config;
    if (traced->check) launch.check = LessonCheck{traced->check->passed, traced->check->describe()};
    return launch;
  }

  [[nodiscard]] std::string size_label() const override { return "square size M = N = K"; }
  [[nodiscard]] std::vector<BlockStep> block_sweep() const override {
    if (variant_.kernel == MatmulKernel::kTiled) {
      // The tiled kernel's block is its tile: the sweep visits the three it is compiled for.
      std::vector<BlockStep> steps;
      for (std::uint32_t tile : lessons::kMatmulTiles) {
        steps.push_back({Dim3{tile, tile, 1}, step_values({{"tile", std::to_string(tile)}})});
      }
      return steps;
    }
    if (const auto shape = lessons::matmul_block_tile(variant_.kernel)) {
      // A register-tiled rung's block is part of its design: one step, nothing to sweep.
      return {BlockStep{Dim3{shape->threads, 1, 1}, step_values({})}};
    }
    return ParameterizedLesson::block_sweep();
  }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    // A, B and C of size² floats each must fit in memory.
    const double free_bytes = static_cast<double>(device.info().global_memory_free);
    std::uint64_t largest = kGpuSweepLargest;
    while (largest > kSweepSmallest &&
           12.0 * static_cast<double>(largest * largest) > kSweepMemoryShare * free_bytes) {
      largest /= 2;
    }
    std::vector<std::uint64_t> sizes = size_sweep(kSweepSmallest, largest, kSweepStepsPerOctave);
    if (device.is_gpu()) return sizes;
    // The emulator runs every CUDA thread on the CPU: keep the sizes its cost model says it
    // finishes in a few seconds, which also keeps each launch under its cap (kTooSlow).
    std::erase_if(sizes, [&](std::uint64_t size) {
      return predicted_emulator_point_seconds(device, size) > kEmulatorSweepPointSeconds;
    });
    return sizes;
  }
  [[nodiscard]] std::optional<std::pair<TimingKey, TimingKey>> crossover() const override {
    // The GPU's names; on the emulator there is no GPU to overtake the CPU. End to end, copies
    // included, against the fastest CPU reference: the size from which handing the product to the
    // GPU pays, as a program that starts and ends with its matrices on the host sees it.
    return std::make_pair(TimingKey{TimingRole::kCpuAllThreads, "blocked"},
                          TimingKey{TimingRole::kEndToEndPageable, ""});
  }

 private:
  // Why the kernel that was not selected is left out of the timed run, or "" when it can run.
  // It is a comparison, so whatever would make it fail must not fail the selected kernel's run.
  [[nodiscard]] std::string companion_not_timed_reason(const Device& device,
                                                       const MatmulVariant& companion) const {
    if (lessons::is_tensor_rung(companion.kernel)) {
      if (!device.is_gpu()) {
        return "it needs tensor cores, which the emulator does not imitate (the Tensor "
               "fragments tab draws their layout)";
      }
      const Status available = lessons::tensor_rung_available(device.info(), companion.kernel);
      if (!available) return available.message();
    }
    if (grid_) {
      return "it is timed only with grid auto: the grid set here was chosen for the " +
             std::string(lessons::to_string(variant_.kernel)) + " kernel's blocks";
    }
    const LaunchConfig config = matmul_launch_config(size_, companion, std::nullopt);
    const auto problems = validate(config, device.info().limits);
    if (!problems.empty())
      return config.to_string() + " cannot launch: " + problems.front().message;
    if (!device.is_gpu()) {
      const Status fits = lessons::check_emulator_budget(size_, companion, config, workers(device));
      if (!fits) return fits.message();
    } else {
      // The selected kernel passed the watchdog check; a slower companion may not.
      const KernelWork work = kernel_work(companion);
      const Status safe = tl::check_watchdog(
          device.info(),
          pessimistic_kernel_seconds(device.info(), work.flops, work.bytes, work.efficiency),
          work.kernel);
      if (!safe) return safe.message();
    }
    return {};
  }

  [[nodiscard]] KernelWork kernel_work(const MatmulVariant& variant) const {
    KernelWork work;
    work.kernel = "matmul_" + std::string(lessons::to_string(variant.kernel));
    work.flops = 2.0 * static_cast<double>(size_.m) * static_cast<double>(size_.n) *
                 static_cast<double>(size_.k);
    work.bytes =
        4.0 * (static_cast<double>(size_.m) * size_.k + static_cast<double>(size_.k) * size_.n +
               static_cast<double>(size_.m) * size_.n);
    work.efficiency = watchdog_efficiency(variant.kernel);
    return work;
  }

  // The predicted emulator time of a timed run at `size` (square), kernels only: each runs once to
  // warm up and repeats() times. Infinite when the selected kernel would exceed the launch cap.
  [[nodiscard]] double predicted_emulator_point_seconds(const Device& device,
                                                        std::uint64_t size) const {
    const auto side = static_cast<std::uint32_t>(size);
    const MatmulSize square{side, side, side};
    double seconds = 0;
    for (MatmulKernel kernel : lessons::kMatmulLadder) {
      MatmulVariant variant = variant_;
      variant.kernel = kernel;
      const LaunchConfig config = lessons::matmul_covering_config(square, variant);
      const double launch =
          lessons::predicted_emulator_seconds(square, variant, config, workers(device));
      if (launch > lessons::kEmulatorLaunchBudgetSeconds) {
        // The selected kernel would be refused; the other one would be left out of the run.
        if (kernel == variant_.kernel) return std::numeric_limits<double>::infinity();
        continue;
      }
      seconds += launch * (1 + repeats());
    }
    return seconds;
  }

  static unsigned workers(const Device& device) {
    return static_cast<unsigned>(std::max(1, device.info().multiprocessors));
  }

  [[nodiscard]] LessonReport to_lesson_report(const MatmulReport& r,
                                              const std::vector<PlannedKernel>& kernels) const {
    LessonReport report;
    report.on_gpu = r.on_gpu;
    const double flops = lessons::matmul_flops(r.size);
    const double bytes = lessons::matmul_bytes(r.size);
    auto note_not_timed = [&report](const std::string& row, const std::string& why) {
      report.notes.push_back("'" + row + "' not timed: " + why);
    };

    // Every row the device can produce is listed at every size, a skipped one with no timing, so
    // that a sweep's table keeps the same columns.
    std::size_t ran = 0;
    for (const PlannedKernel& kernel : kernels) {
      const std::string name = kernel_row_name(kernel.variant, r.on_gpu);
      if (!kernel.not_timed.empty()) {
        report.rows.push_back({kernel_key(kernel.variant), name, {}, bytes, flops, true});
        note_not_timed(name, kernel.not_timed);
        continue;
      }
      const MatmulTiming& timing = r.kernels[ran++];
      const lessons::MatmulInput input = lessons::matmul_input(kernel.variant.kernel);
      report.rows.push_back({kernel_key(kernel.variant), name, timing.time,
                             lessons::matmul_bytes(r.size, input), flops, true, r.on_gpu});
      const bool selected = kernel.variant.kernel == variant_.kernel;
      if (selected) {
        if (timing.check)
          report.check = LessonCheck{timing.check->passed, timing.check->describe()};
      } else if (timing.check && !timing.check->passed) {
        report.notes.push_back("'" + name + "': " + timing.check->describe());
      }
    }

    for (const MatmulTiming& timing : r.kernels) {
      if (!timing.check_reference.empty() && timing.check) {
        report.notes.push_back("'" + timing.name + "' was checked against the " +
                               timing.check_reference);
      }
    }
    for (const MatmulLibraryTiming& library : r.cublas_tensor) {
      const std::string format(lessons::to_string(library.input));
      const std::string key = cublas_gemmex_key(library.input);
      const std::string name = "cuBLAS GemmEx " + format + " (FP32 accumulation)";
      report.rows.push_back({{TimingRole::kLibrary, key},
                             name,
                             library.timing.time,
                             lessons::matmul_bytes(r.size, library.input),
                             flops,
                             true,
                             true});
      if (!library.timing.ran()) note_not_timed(name, library.timing.skipped);
    }

    if (r.on_gpu) {
      report.rows.push_back({{TimingRole::kLibrary, "cublas-sgemm"},
                             kCublasRow,
                             r.cublas.time,
                             bytes,
                             flops,
                             true,
                             true});
      if (!r.cublas.ran()) note_not_timed(kCublasRow, r.cublas.skipped);
    } else {
      note_not_timed(kCublasRow, r.cublas.skipped);
    }

    const double input_bytes = 4.0 * static_cast<double>(r.size.a_elements() + r.size.b_elements());
    const double output_bytes = 4.0 * static_cast<double>(r.size.c_elements());
    report.rows.push_back({{TimingRole::kCopy, "to-device"},
                           r.on_gpu ? "copy A, B host → device" : "copy A, B (emulated)",
                           r.host_to_device,
                           input_bytes,
                           0,
                           false});
    report.rows.push_back({{TimingRole::kCopy, "to-host"},
                           r.on_gpu ? "copy C device → host" : "copy C (emulated)",
                           r.device_to_host,
                           output_bytes,
                           0,
                           false});
    // End to end: the selected kernel with the copies around it, as a program that multiplies
    // host matrices on the GPU pays for them.
    for (std::size_t i = 0, timed = 0; i < kernels.size(); ++i) {
      if (!kernels[i].not_timed.empty()) continue;
      const MatmulTiming& timing = r.kernels[timed++];
      if (kernels[i].variant.kernel != variant_.kernel) continue;
      const TimingStats stages[] = {r.host_to_device, timing.time, r.device_to_host};
      report.rows.push_back({{TimingRole::kEndToEndPageable, ""},
                             end_to_end_row_name(variant_, r.on_gpu),
                             add_stages(stages),
                             bytes,
                             flops,
                             true});
    }

    report.rows.push_back(
        {{TimingRole::kCpuOneThread, "naive"}, kCpuNaiveRow, r.cpu_naive.time, bytes, flops, true});
    if (!r.cpu_naive.ran()) note_not_timed(kCpuNaiveRow, r.cpu_naive.skipped);
    report.rows.push_back({{TimingRole::kCpuAllThreads, "blocked"},
                           kCpuBlockedRow,
                           r.cpu_blocked.time,
                           bytes,
                           flops,
                           true});
    if (r.cpu_blocked.ran()) {
      report.notes.push_back(
          cpu_threads_note(kCpuBlockedRow, lessons::matmul_reference_threads(r.size)));
    } else {
      note_not_timed(kCpuBlockedRow, r.cpu_blocked.skipped);
    }

    if (report.check) {
      report.notes.push_back("C was checked against the " + r.check_reference);
    } else {
      report.notes.push_back(r.check_reference);
    }
    return report;
  }

  MatmulSize size_;
  MatmulVariant variant_;
  std::optional<Dim3> grid_;  // nullopt: "auto", the grid that covers C
};

}  // namespace

std::unique_ptr<Lesson> make_matmul_lesson() {
  return std::make_unique<MatmulLesson>();
}

}  // namespace tl::compute
