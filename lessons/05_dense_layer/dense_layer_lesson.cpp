#include "dense_layer_lesson.hpp"

#include <cstdio>
#include <utility>

#include "core/format.hpp"
#include "core/parallel_chunks.hpp"
#include "core/sweep/size_sweep.hpp"
#include "dense_layer_runner.hpp"

namespace tl::compute {
namespace {

using lessons::DenseLayerParams;
using lessons::DenseLayerPath;

// The names of the timed rows; the plotted ones are also the sweep's series, so none of them may
// depend on the size. On the emulator the rows a GPU would time say what they are: CPU timings of
// the emulated kernels. cuBLAS has no emulated form, so its rows exist on a GPU only.
struct RowNames {
  const char* unfused;
  const char* unfused_product;
  const char* unfused_bias;
  const char* unfused_sigmoid;
  const char* fused;
  const char* copy_in;
  const char* copy_out;
  const char* end_to_end;
};

RowNames row_names(bool on_gpu) {
  if (on_gpu) {
    return {"GPU unfused (3 launches)",
            "GPU unfused 1/3: product X · Wᵀ",
            "GPU unfused 2/3: add bias",
            "GPU unfused 3/3: sigmoid",
            "GPU fused",
            "copy W, X, b host → device",
            "copy Y device → host",
            "GPU fused end to end (with the copies)"};
  }
  return {"Emulated unfused, 3 launches (CPU)",
          "Emulated unfused 1/3: product X · Wᵀ (CPU)",
          "Emulated unfused 2/3: add bias (CPU)",
          "Emulated unfused 3/3: sigmoid (CPU)",
          "Emulated fused (CPU)",
          "copy W, X, b (emulated)",
          "copy Y (emulated)",
          "Emulated fused end to end (CPU)"};
}

constexpr const char* kCublasRow = "cuBLAS + fused epilogue";
constexpr const char* kCublasProductRow = "cuBLAS SGEMM: product X · Wᵀ";
constexpr const char* kCublasEpilogueRow = "GPU epilogue: bias + sigmoid";
constexpr const char* kCpuSingleRow = "CPU, 1 thread";
constexpr const char* kCpuMultiRow = "CPU, all threads";

// Sweeps double the batch from 1, keeping in and out, so the plot shows how the time per launch
// grows far slower than the batch: matrix-vector turning into matrix-matrix.
constexpr std::uint64_t kSweepLargestBatch = 4096;
// On a GPU a sweep point times every path about seven times (warm-up, repeats, the checked run).
// 2^36 multiply-adds take tens of milliseconds per launch even for the plain kernels, which keeps
// a sweep of a large layer well within a minute.
constexpr std::uint64_t kGpuSweepMaxMultiplyAdds = std::uint64_t{1} << 36;
// The share of free memory a sweep point may use for W, X, b, Z and Y.
constexpr double kSweepMemoryShare = 0.8;

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"batch",
       "batch (input vectors)",
       lessons::ParamKind::kCount,
       "1",
       {},
       "Input vectors computed in one launch, the rows of X and of Y; 1 is a matrix-vector "
       "product"},
      {"inputs",
       "inputs per vector",
       lessons::ParamKind::kCount,
       "1024",
       {},
       "Inputs of each vector: the columns of X and of W",
       {"in"}},
      {"neurons",
       "neurons",
       lessons::ParamKind::kCount,
       "1024",
       {},
       "Neurons of the layer: the rows of W and the columns of Y (also --out, except in render, "
       "where --out is the PNG)",
       {"out"}},
      {"path",
       "path",
       lessons::ParamKind::kChoice,
       "fused",
       {"unfused", "fused", "cublas"},
       "The path traced and checked (all of them are timed): unfused, three kernels; fused, one "
       "kernel; cublas, cuBLAS SGEMM then a fused bias + sigmoid kernel (a GPU only)"},
      {"product",
       "product",
       lessons::ParamKind::kChoice,
       "tiled",
       {"tiled", "fast"},
       "How X · Wᵀ is computed, on the unfused and the fused path alike: tiled, one thread per "
       "element of Y (the block below); fast, a warp per neuron with float4 loads below batch 8, "
       "a tiled matrix product fed by asynchronous copies from batch 8 on (fixed blocks of 256)",
       {},
       /*advanced=*/true},
      {"block",
       "threads / block",
       lessons::ParamKind::kDim3,
       "32,8",
       {},
       "Threads in each block, x along the neurons and y along the batch rows; at most 32 × 32"},
      {"grid",
       "blocks",
       lessons::ParamKind::kDim3,
       "auto",
       {},
       "Blocks in the grid; auto: enough to give every element of Y a thread, ceil(out / block x) "
       "× ceil(batch / block y)"},
  };
  return kSpecs;
}

// One of batch, in, out: at least 1. Sizes too large for the kernels' int index are refused
// afterwards by validate_dense_layer, which sees all three.
Result<std::uint64_t> read_dimension(const lessons::ParamReader& reader, const std::string& name) {
  auto value = reader.count(name);
  if (!value) return value.error();
  if (*value == 0) {
    return invalid_argument(name +
                            ": must be at least 1: a layer needs inputs, neurons and at least "
                            "one input vector");
  }
  return *value;
}

std::string quoted(const std::string& row) {
  return "'" + row + "'";
}

// "2.31×": the median time of `before` over that of `after`; below 1 when `after` is slower.
std::string speed_up(const TimingStats& before, const TimingStats& after) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f×", before.median_ms / after.median_ms);
  return buffer;
}

// The report's timings as rows, with bytes and flops for the rates and notes for what did not run.
LessonReport to_lesson_report(const DenseLayerReport& r, const DenseLayerParams& layer,
                              bool cpu_requested) {
  const RowNames names = row_names(r.on_gpu);
  LessonReport report;
  report.on_gpu = r.on_gpu;

  // Every element of the matrices in floats; 4 bytes each.
  const double w = static_cast<double>(layer.out * layer.in);
  const double x = static_cast<double>(layer.batch * layer.in);
  const double b = static_cast<double>(layer.out);
  const double y = static_cast<double>(layer.outputs());
  const double products = 2.0 * static_cast<double>(layer.multiply_adds());
  const double flops = lessons::dense_layer_flops(layer);
  // The launches of the split paths: the product reads W and X and writes Z; the bias kernel (and
  // cuBLAS's epilogue) reads Z and b and writes Z (Y); the sigmoid reads Z and writes Y. The
  // sigmoid counts no flops (an exponential is not one, dense_layer_flops); adding the bias is one
  // per element.
  const double product_bytes = 4.0 * (w + x + y);
  const double bias_bytes = 4.0 * (2.0 * y + b);
  const double sigmoid_bytes = 4.0 * (2.0 * y);

  report.rows.push_back({{TimingRole::kKernel, "unfused"},
                         names.unfused,
                         r.unfused,
                         lessons::dense_layer_bytes(layer, DenseLayerPath::kUnfused),
                         flops,
                         true,
                         r.on_gpu});
  report.rows.push_back({{TimingRole::kChainStep, "unfused-product"},
                         names.unfused_product,
                         r.unfused_product,
                         product_bytes,
                         products,
                         false,
                         r.on_gpu});
  report.rows.push_back({{TimingRole::kChainStep, "unfused-bias"},
                         names.unfused_bias,
                         r.unfused_bias,
                         bias_bytes,
                         y,
                         false,
                         r.on_gpu});
  report.rows.push_back({{TimingRole::kChainStep, "unfused-sigmoid"},
                         names.unfused_sigmoid,
                         r.unfused_sigmoid,
                         sigmoid_bytes,
                         0,
                         false,
                         r.on_gpu});
  report.rows.push_back({{TimingRole::kKernel, "fused"},
                         names.fused,
                         r.fused,
                         lessons::dense_layer_bytes(layer, DenseLayerPath::kFused),
                         flops,
                         true,
                         r.on_gpu});
  report.notes.push_back(
      layer.product == lessons::DenseProduct::kFast
          ? std::string("product: fast (") +
                (layer.batch < lessons::kDenseGemvMaxBatch
                     ? "dense_gemv_*: a warp per neuron, float4 loads"
                     : "dense_gemm_*: the pipelined tiled matrix product") +
                "), the same kernel code on the unfused and the fused path"
          : "product: tiled (one thread per element of Y), the same kernel code on the unfused "
            "and the fused path");
  if (!r.unfused.empty() && !r.fused.empty() && r.fused.median_ms > 0) {
    // The emulator has no memory traffic to save, so there the speed-up can be below 1.
    report.notes.push_back("fused speed-up over unfused: " + speed_up(r.unfused, r.fused) + " (" +
                           quoted(names.fused) + " " + format_milliseconds(r.fused.median_ms) +
                           " against " + quoted(names.unfused) + " " +
                           format_milliseconds(r.unfused.median_ms) + ", medians)");
  }

  // On a GPU the cuBLAS rows are listed even when cuBLAS could not start, so that a sweep's table
  // keeps the same columns at every size; the emulator never has them.
  if (r.on_gpu) {
    report.rows.push_back({{TimingRole::kLibrary, "cublas-fused-epilogue"},
                           kCublasRow,
                           r.cublas,
                           lessons::dense_layer_bytes(layer, DenseLayerPath::kCublas),
                           flops,
                           true,
                           true});
    report.rows.push_back({{TimingRole::kChainStep, "cublas-product"},
                           kCublasProductRow,
                           r.cublas_product,
                           product_bytes,
                           products,
                           false,
                           true});
    report.rows.push_back({{TimingRole::kChainStep, "cublas-epilogue"},
                           kCublasEpilogueRow,
                           r.cublas_epilogue,
                           bias_bytes,
                           y,
                           false,
                           true});
  }
  if (!r.has_cublas()) {
    report.notes.push_back(quoted(kCublasRow) + " not timed: " + r.cublas_absent_reason);
  }

  report.rows.push_back({{TimingRole::kCopy, "to-device"},
                         names.copy_in,
                         r.host_to_device,
                         4.0 * (w + x + b),
                         0,
                         false});
  report.rows.push_back(
      {{TimingRole::kCopy, "to-host"}, names.copy_out, r.device_to_host, 4.0 * y, 0, false});
  // End to end: the fused kernel with the copies around it, what a program that computes the
  // layer for host data pays.
  const TimingStats fused_stages[] = {r.host_to_device, r.fused, r.device_to_host};
  report.rows.push_back({{TimingRole::kEndToEndPageable, "fused"},
                         names.end_to_end,
                         add_stages(fused_stages),
                         lessons::dense_layer_bytes(layer, DenseLayerPath::kFused),
                         flops,
                         true});

  // The CPU references, when asked for: listed even when skipped as too slow, for the same reason
  // as cuBLAS's rows, with the reason in a note. They move at least what the fused kernel moves.
  if (cpu_requested) {
    const double cpu_bytes = lessons::dense_layer_bytes(layer, DenseLayerPath::kFused);
    report.rows.push_back(
        {{TimingRole::kCpuOneThread, ""}, kCpuSingleRow, r.cpu_single, cpu_bytes, flops, true});
    report.rows.push_back(
        {{TimingRole::kCpuAllThreads, ""}, kCpuMultiRow, r.cpu_multi, cpu_bytes, flops, true});
    if (!r.cpu_single_skipped.empty()) {
      report.notes.push_back(quoted(kCpuSingleRow) + " not timed: " + r.cpu_single_skipped);
    }
    if (!r.cpu_multi.empty()) {
      report.notes.push_back(cpu_threads_note(kCpuMultiRow, r.cpu_threads));
    } else if (!r.cpu_multi_skipped.empty()) {
      report.notes.push_back(quoted(kCpuMultiRow) + " not timed: " + r.cpu_multi_skipped);
    }
  }

  // The check is the selected path's; a path that was only timed alongside it still says so when
  // its output is wrong.
  struct PathCheck {
    DenseLayerPath path;
    const char* row;
    const std::optional<lessons::DenseCheckResult>* check;
  };
  const PathCheck paths[] = {{DenseLayerPath::kUnfused, names.unfused, &r.unfused_check},
                             {DenseLayerPath::kFused, names.fused, &r.fused_check},
                             {DenseLayerPath::kCublas, kCublasRow, &r.cublas_check}};
  DenseLayerPath checked = layer.path;
  if (checked == DenseLayerPath::kCublas && !r.has_cublas()) {
    checked = DenseLayerPath::kFused;
    report.notes.push_back("the cublas path could not run here, so the check is " +
                           quoted(names.fused) + "'s");
  }
  for (const PathCheck& path : paths) {
    if (!*path.check) continue;
    if (path.path == checked) {
      report.check = LessonCheck{(*path.check)->passed, (*path.check)->describe()};
    } else if (!(*path.check)->passed) {
      report.notes.push_back(quoted(path.row) + ": " + (*path.check)->describe());
    }
  }
  return report;
}

}  // namespace

DenseLayerLesson::DenseLayerLesson()
    : ParameterizedLesson(
          {.info = lessons::kDenseLayerInfo,
           .specs = specs(),
           .size_params = {"batch"},
           .sweep_resets = {{"grid", "auto"}},
           .blocks = BlockSweepShape::kTwoDimensions,
           // At most as wide and as tall as the kernels' shared-memory tiles.
           .largest_block = {lessons::kDenseLayerMaxBlockX, lessons::kDenseLayerMaxBlockY, 1}}) {
  apply_defaults();
}

Status DenseLayerLesson::apply(const lessons::ParamReader& reader,
                               const lessons::ParamValues& /*values*/) {
  DenseLayerParams layer;
  auto batch = read_dimension(reader, "batch");
  if (!batch) return batch.error();
  auto in = read_dimension(reader, "inputs");
  if (!in) return in.error();
  auto out = read_dimension(reader, "neurons");
  if (!out) return out.error();
  layer.batch = *batch;
  layer.in = *in;
  layer.out = *out;
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer(layer, 0));

  auto path_text = reader.choice("path");
  if (!path_text) return path_text.error();
  auto path = lessons::parse_dense_layer_path(*path_text);
  if (!path) return path.error();
  layer.path = *path;
  auto product_text = reader.choice("product");
  if (!product_text) return product_text.error();
  auto product = lessons::parse_dense_product(*product_text);
  if (!product) return product.error();
  layer.product = *product;

  auto block = reader.dim3("block");
  if (!block) return block.error();
  auto grid = reader.grid("grid");
  if (!grid) return grid.error();
  LaunchConfig config = lessons::dense_layer_config(layer, *block);
  if (grid->volume() != 0) config.grid = *grid;
  // A block wider than the kernels' shared-memory tiles is refused here, before anything launches:
  // it is a limit of these kernels, not of CUDA, so there is no CUDA error to show.
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));

  layer_ = layer;
  config_ = config;
  return Status::ok();
}

// The product is the long kernel of every path (the bias and the sigmoid touch each output once).
// The tiled product runs like the naive matrix multiply; the fast one like the register-tiled
// ladder, or at small batch like a bandwidth-bound GEMV. cuBLAS is the library's business.
std::optional<Lesson::KernelWork> DenseLayerLesson::longest_kernel() const {
  if (layer_.path == DenseLayerPath::kCublas) return std::nullopt;
  KernelWork work;
  work.kernel = occupancy_kernel().value_or("dense layer");
  work.flops = 2.0 * static_cast<double>(layer_.multiply_adds());
  work.bytes =
      4.0 * (static_cast<double>(layer_.out * layer_.in) +
             static_cast<double>(layer_.batch * layer_.in) + static_cast<double>(layer_.outputs()));
  work.efficiency.compute = layer_.product == lessons::DenseProduct::kFast ? 0.08 : 0.02;
  return work;
}

std::optional<std::string> DenseLayerLesson::occupancy_kernel() const {
  switch (layer_.path) {
    case DenseLayerPath::kUnfused:
      return "dense_product";
    case DenseLayerPath::kFused:
      if (layer_.product == lessons::DenseProduct::kFast) {
        return layer_.batch < lessons::kDenseGemvMaxBatch ? "dense_gemv_fused" : "dense_gemm_fused";
      }
      return "dense_fused";
    case DenseLayerPath::kCublas:
      return std::nullopt;
  }
  return std::nullopt;
}

Result<LessonReport> DenseLayerLesson::run_timed(Device& device, const std::atomic<bool>* cancel) {
  DenseLayerRequest request;
  request.params = layer_;
  request.config = config_;
  request.check = true;
  request.time_cpu = time_cpu();
  request.repeats = repeats();
  request.cancel = cancel;
  auto report = run_dense_layer(device, request);
  if (!report) return report.error();
  LessonReport lesson_report = to_lesson_report(*report, layer_, request.time_cpu);
  lesson_report.attachment =
      std::make_shared<const LayerPictureAttachment>(std::move(report->picture));
  return lesson_report;
}

Result<TracedLaunch> DenseLayerLesson::run_traced(Device& device, TraceSink& sink) {
  auto check = trace_dense_layer(device, layer_, config_, sink);
  if (!check) return check.error();
  TracedLaunch traced;
  traced.shape = data_shape();
  // The fast fused kernel launches with its own fixed shape; every other traced kernel with the
  // lesson's.
  const bool own_shape =
      layer_.product == lessons::DenseProduct::kFast && layer_.path == DenseLayerPath::kFused;
  traced.config = own_shape ? lessons::dense_layer_fast_config(layer_) : config_;
  traced.check = LessonCheck{check->passed, check->describe()};
  return traced;
}

std::vector<BlockStep> DenseLayerLesson::block_sweep() const {
  if (layer_.product == lessons::DenseProduct::kFast) {
    // The fast product's block is part of its design (a warp per neuron, or the pipelined
    // GEMM's 256 threads), as for the matrix-multiply ladder's register-tiled rungs: one step,
    // nothing to sweep. Sweeping would only vary the unfused chain's two small kernels.
    return {BlockStep{lessons::dense_layer_fast_config(layer_).block, step_values({})}};
  }
  return ParameterizedLesson::block_sweep();
}

std::vector<std::uint64_t> DenseLayerLesson::sweep_sizes(const Device& device) const {
  // The emulator's cap keeps each of its points to a few seconds; memory and the int index bound
  // both devices.
  const std::uint64_t max_multiply_adds =
      device.is_gpu() ? kGpuSweepMaxMultiplyAdds : lessons::kDenseLayerEmulatorMaxMultiplyAdds;
  const auto max_bytes = static_cast<std::uint64_t>(
      kSweepMemoryShare * static_cast<double>(device.info().global_memory_free));
  std::uint64_t largest = 0;
  for (std::uint64_t batch = 1; batch <= kSweepLargestBatch; batch *= 2) {
    DenseLayerParams layer = layer_;
    layer.batch = batch;
    if (layer.multiply_adds() > max_multiply_adds) break;
    if (!lessons::validate_dense_layer(layer, max_bytes)) break;
    largest = batch;
  }
  // A layer too large even for batch 1 still gets its one point: the run is refused at once, and
  // the refusal says what fits.
  return size_sweep(1, std::max<std::uint64_t>(1, largest), 1);
}

std::optional<std::pair<TimingKey, TimingKey>> DenseLayerLesson::crossover() const {
  // The GPU's names; on the emulator there is no GPU to overtake the CPU. The fused layer end to
  // end, with its copies, against the CPU on all threads: where the GPU pays for a program whose
  // inputs and outputs live on the host.
  return std::make_pair(TimingKey{TimingRole::kCpuAllThreads, ""},
                        TimingKey{TimingRole::kEndToEndPageable, "fused"});
}

std::unique_ptr<Lesson> make_dense_layer_lesson() {
  return std::make_unique<DenseLayerLesson>();
}

}  // namespace tl::compute
