// Lesson 11, convolution: every rung of the ladder and cuDNN timed on the same inputs, each checked
// against the float64 reference; the selected rung traced for the mapping view.

#include "convolution_lesson.hpp"

#include <algorithm>
#include <utility>

#include "compute/lessons/memory_lesson.hpp"
#include "compute/lessons/own_ceilings.hpp"
#include "compute/lessons/parameterized_lesson.hpp"
#include "convolution_runner.hpp"
#include "core/format.hpp"
#include "core/parallel_chunks.hpp"
#include "core/sweep/size_sweep.hpp"
#include "lessons/11_convolution/convolution.hpp"
#include "lessons/11_convolution/convolution_cudnn_graph.hpp"
#include "lessons/11_convolution/kernels/convolution_shapes.hpp"

namespace tl::compute {
namespace {

using lessons::ConvRung;
using lessons::ConvShape;

constexpr const char* kCpuRow = "CPU, float64 reference, all threads";

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"batch", "batch N", lessons::ParamKind::kCount, "32", {}, "Images in the batch"},
      {"channels",
       "channels in C",
       lessons::ParamKind::kCount,
       "64",
       {},
       "Channels of each input image (3 for RGB, 64 inside a ResNet)",
       {"c"}},
      {"filters",
       "channels out K",
       lessons::ParamKind::kCount,
       "64",
       {},
       "Filters, each C × R × S weights: the output's channels",
       {"k"}},
      {"image_height",
       "image height H",
       lessons::ParamKind::kCount,
       "56",
       {},
       "Rows of each image"},
      {"image_width",
       "image width W",
       lessons::ParamKind::kCount,
       "56",
       {},
       "Columns of each image"},
      {"filter",
       "filter size R = S",
       lessons::ParamKind::kCount,
       "3",
       {},
       "The filters' height and width, 1 to 7"},
      {"stride",
       "stride",
       lessons::ParamKind::kCount,
       "1",
       {},
       "How far the filter moves between outputs: 1 or 2"},
      {"pad",
       "padding",
       lessons::ParamKind::kCount,
       "1",
       {},
       "Zeros added on every side of the image; smaller than the filter"},
      {"layout",
       "layout",
       lessons::ParamKind::kChoice,
       "nhwc",
       {"nchw", "nhwc"},
       "Where a pixel's channels live: NCHW (each channel's plane contiguous, PyTorch's default) "
       "or "
       "NHWC (a pixel's channels contiguous, TensorFlow's default; the tensor-core rung needs it)"},
      {"kernel",
       "kernel",
       lessons::ParamKind::kChoice,
       "implicit-gemm",
       {"direct", "tiled", "im2col-gemm", "implicit-gemm", "tensor-fp16"},
       "The ladder: direct (one thread per output); tiled (a shared patch with its halo, a channel "
       "at a time); im2col-gemm (unfold the windows, then lesson 4's pipelined FP32 GEMM); "
       "implicit-gemm (the same product without the unfolded matrix, 8 × 8 outputs per thread); "
       "tensor-fp16 (the implicit GEMM on tensor cores, FP16 in, FP32 accumulation; a GPU of "
       "compute capability 8.0 or newer, NHWC, C and K multiples of 8). Every rung runs in each "
       "timed run; this one is drawn"},
      {"block",
       "threads / block",
       lessons::ParamKind::kDim3,
       "256",
       {},
       "The direct kernel's and im2col's block (1D); the other rungs' blocks are part of their "
       "design",
       {},
       /*advanced=*/true},
  };
  return kSpecs;
}

Result<std::uint32_t> read_positive(const lessons::ParamReader& reader, const std::string& name,
                                    std::uint64_t at_most) {
  auto value = reader.count(name);
  if (!value) return value.error();
  if (*value > at_most) {
    return invalid_argument(name + ": " + format_count(*value) + " is more than " +
                            format_count(at_most));
  }
  return static_cast<std::uint32_t>(*value);
}

// The timed row of a rung; on the emulator it says it is a CPU timing of the emulated kernel.
std::string rung_row_name(ConvRung rung, bool on_gpu) {
  std::string what;
  switch (rung) {
    case ConvRung::kDirect:
      what = "direct kernel";
      break;
    case ConvRung::kTiled:
      what = "tiled kernel (shared halo)";
      break;
    case ConvRung::kIm2colGemm:
      what = "im2col + GEMM (lesson 4's pipelined)";
      break;
    case ConvRung::kImplicitGemm:
      what = "implicit GEMM, FP32";
      break;
    case ConvRung::kTensorFp16:
      what = "implicit GEMM on tensor cores, FP16";
      break;
  }
  return on_gpu ? "GPU " + what : "Emulated " + what + " (CPU)";
}

TimingKey rung_key(ConvRung rung) {
  return {TimingRole::kKernel, std::string(lessons::to_string(rung))};
}

class ConvolutionLesson final : public ParameterizedLesson,
                                public OwnCeilings,
                                public MemoryLesson {
 public:
  ConvolutionLesson()
      : ParameterizedLesson({.info = lessons::kConvolutionInfo,
                             .specs = specs(),
                             .size_params = {"image_height", "image_width"},
                             .sweep_resets = {},
                             .blocks = BlockSweepShape::kOneDimension}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader,
               const lessons::ParamValues& /*values*/) override {
    constexpr std::uint64_t kSide = 1u << 20;
    ConvShape shape;
    std::uint32_t* fields[] = {&shape.n, &shape.c, &shape.k, &shape.h, &shape.w};
    const char* names[] = {"batch", "channels", "filters", "image_height", "image_width"};
    for (int i = 0; i < 5; ++i) {
      auto value = read_positive(reader, names[i], kSide);
      if (!value) return value.error();
      *fields[i] = *value;
    }
    auto filter = read_positive(reader, "filter", kernels::kConvMaxFilter);
    if (!filter) return filter.error();
    shape.r = shape.s = *filter;
    auto stride = read_positive(reader, "stride", kernels::kConvMaxStride);
    if (!stride) return stride.error();
    shape.stride = *stride;
    auto pad = read_positive(reader, "pad", kernels::kConvMaxFilter);
    if (!pad) return pad.error();
    shape.pad = *pad;
    auto layout = reader.choice("layout");
    if (!layout) return layout.error();
    shape.nhwc = *layout == "nhwc";
    TL_RETURN_IF_ERROR(lessons::validate_conv_shape(shape));
    auto kernel = reader.choice("kernel");
    if (!kernel) return kernel.error();
    auto rung = lessons::parse_conv_rung(*kernel);
    if (!rung) return rung.error();
    auto block = reader.dim3("block");
    if (!block) return block.error();
    if (block->y != 1 || block->z != 1) {
      return invalid_argument(
          "block: the direct kernel and im2col number their threads along x "
          "alone; give one number, not " +
          to_string(*block));
    }
    shape_ = shape;
    rung_ = *rung;
    block_ = *block;
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override {
    return conv_launch_config(shape_, rung_, block_, target());
  }
  // The tensor rung's launch depends on the GPU (its resident form runs a block per
  // multiprocessor): every call that is handed the device notes what that choice needs, so that
  // launch_config() and the occupancy view show what runs.
  void use_device(const Device& device) const override { note_target(device); }
  // The output as the mapping view draws it: one row per line of its last dimension (Q for NCHW,
  // K for NHWC), in memory order, so that a row is what neighbouring threads write.
  [[nodiscard]] DataShape data_shape() const override {
    const std::uint64_t cols = shape_.nhwc ? shape_.k : shape_.q();
    return {shape_.output_elements() / cols, cols};
  }
  [[nodiscard]] std::optional<ThreadCoverage> thread_coverage() const override {
    if (rung_ == ConvRung::kDirect) return ThreadCoverage::linear(shape_.output_elements());
    return std::nullopt;  // 2D patches and GEMM tiles: no one-to-one line of threads
  }
  [[nodiscard]] std::uint32_t elements_per_thread() const override {
    switch (rung_) {
      case ConvRung::kIm2colGemm:
      case ConvRung::kImplicitGemm:
        return 64;  // an 8 × 8 block of outputs
      case ConvRung::kTensorFp16:
        return kernels::kTensorTileM * kernels::kTensorTileN / kernels::kTensorThreads;
      default:
        return 1;
    }
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    switch (rung_) {
      case ConvRung::kDirect:
        return "conv_direct";
      case ConvRung::kTiled:
        return "conv_tiled";
      case ConvRung::kIm2colGemm:
        return "conv_im2col";
      case ConvRung::kImplicitGemm:
        return "conv_implicit_gemm";
      case ConvRung::kTensorFp16:
        return conv_tensor_kernel(shape_, target());
    }
    return std::nullopt;
  }
  [[nodiscard]] std::optional<KernelWork> longest_kernel() const override {
    KernelWork work;
    work.kernel = std::string("conv_") + std::string(lessons::to_string(rung_));
    work.flops = lessons::conv_flops(shape_);
    work.bytes = lessons::conv_bytes(shape_);
    // The direct rung is the slowest: assume it reaches 1 % of the FP32 peak on a display GPU.
    work.efficiency = {0.01, 0.25};
    return work;
  }
  // The ResNet layer takes the emulator minutes; a small awkward shape shows the same windows.
  [[nodiscard]] lessons::ParamValues emulator_defaults() const override {
    return {{"batch", "2"},
            {"channels", "3"},
            {"filters", "8"},
            {"image_height", "13"},
            {"image_width", "11"}};
  }

  // The loads of the four rungs the emulator runs, recorded for the Memory tab and
  // `threadlab run --memory-table`: the direct kernel's window reads, the tiled kernel's patch
  // copies and shared reads, im2col's gather, the implicit GEMM's tile copies. (The GEMM after
  // im2col is lesson 4's, whose own Memory tab shows it; the tensor rung's WMMA loads have no
  // emulation.)
  [[nodiscard]] std::vector<memory::MemoryExperiment> memory_experiments() const override {
    std::vector<memory::MemoryExperiment> experiments;
    const kernels::ConvDims d = shape_.dims();
    for (const ConvRung rung :
         {ConvRung::kDirect, ConvRung::kTiled, ConvRung::kIm2colGemm, ConvRung::kImplicitGemm}) {
      memory::MemoryExperiment e;
      e.source = "lessons/11_convolution/kernels/convolution.cuh";
      e.arguments.push_back(memory::KernelArgument::floats("in", shape_.input_elements()));
      switch (rung) {
        case ConvRung::kIm2colGemm:
          e.label = "im2col";
          e.kernel = "conv_im2col";
          e.arguments.push_back(memory::KernelArgument::floats("col", shape_.im2col_elements()));
          e.config = conv_im2col_config(shape_, block_);
          break;
        default:
          e.label = std::string(lessons::to_string(rung));
          e.kernel = rung == ConvRung::kImplicitGemm
                         ? "conv_implicit_gemm"
                         : "conv_" + std::string(lessons::to_string(rung));
          e.arguments.push_back(memory::KernelArgument::floats(
              rung == ConvRung::kImplicitGemm ? "wg" : "weights", shape_.weight_elements()));
          e.arguments.push_back(memory::KernelArgument::floats("out", shape_.output_elements()));
          e.config = conv_launch_config(shape_, rung, block_);
          break;
      }
      const std::pair<const char*, int> ints[] = {
          {"batch", d.n},   {"channels", d.c}, {"height", d.h},   {"width", d.w},
          {"filters", d.k}, {"filter_h", d.r}, {"filter_w", d.s}, {"stride", d.stride},
          {"pad", d.pad},   {"nhwc", d.nhwc}};
      for (const auto& [name, value] : ints) {
        e.arguments.push_back(memory::KernelArgument::integer(name, value));
      }
      experiments.push_back(std::move(e));
    }
    return experiments;
  }

  // The tensor rung's ceiling is cuDNN in FP16 through the graph API's fastest plan, timed in the
  // same run (the Find row beside it says when that is the faster).
  [[nodiscard]] std::optional<TimingKey> ceiling_row(const TimingKey& row) const override {
    if (row.role == TimingRole::kKernel &&
        row.variant == lessons::to_string(ConvRung::kTensorFp16)) {
      return TimingKey{TimingRole::kLibrary, "cudnn-fp16"};
    }
    return std::nullopt;
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    note_target(device);
    ConvRequest request;
    request.shape = shape_;
    request.block = block_;
    request.repeats = repeats();
    request.time_cpu = time_cpu();
    request.cancel = cancel;
    std::vector<std::pair<ConvRung, std::string>> planned;
    for (ConvRung rung : lessons::kConvRungs) {
      const std::string why = conv_rung_unavailable(device, shape_, rung, block_);
      if (rung == rung_ && !why.empty()) {
        return Error{ErrorKind::kInvalidArgument, "the " + std::string(lessons::to_string(rung)) +
                                                      " rung cannot run here: " + why};
      }
      planned.emplace_back(rung, why);
      if (why.empty()) request.rungs.push_back(rung);
    }
    auto report = run_convolution(device, request);
    if (!report) return report.error();
    return to_lesson_report(*report, planned);
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    note_target(device);
    auto check = trace_convolution(device, shape_, rung_, block_, sink);
    if (!check) return check.error();
    TracedLaunch launch;
    launch.shape = data_shape();
    launch.config = launch_config();
    if (*check) launch.check = LessonCheck{(*check)->passed, (*check)->describe()};
    return launch;
  }

  [[nodiscard]] std::string size_label() const override { return "image side H = W"; }
  [[nodiscard]] std::vector<BlockStep> block_sweep() const override {
    if (rung_ == ConvRung::kDirect) return ParameterizedLesson::block_sweep();
    // The other rungs' blocks are part of their design: one step, nothing to sweep.
    return {BlockStep{launch_config().block, step_values({})}};
  }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    // Image sides from 8 up; on the emulator only as far as its budget reaches quickly.
    const std::uint64_t top = device.is_gpu() ? 224 : 32;
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t side = 8; side <= top; side *= 2) {
      ConvShape shape = shape_;
      shape.h = shape.w = static_cast<std::uint32_t>(side);
      if (!lessons::validate_conv_shape(shape, device.info().global_memory_free,
                                        device.is_gpu() ? 1 : 2)) {
        break;
      }
      sizes.push_back(side);
    }
    if (sizes.empty()) sizes.push_back(shape_.h);
    return sizes;
  }

 private:
  [[nodiscard]] LessonReport to_lesson_report(
      const ConvReport& r, const std::vector<std::pair<ConvRung, std::string>>& planned) const {
    LessonReport report;
    report.on_gpu = r.on_gpu;
    const double flops = lessons::conv_flops(shape_);
    const double bytes = lessons::conv_bytes(shape_);
    const double bytes16 = lessons::conv_bytes(shape_, 2);
    auto not_timed = [&report](const std::string& row, const std::string& why) {
      report.notes.push_back("'" + row + "' not timed: " + why);
    };
    std::size_t ran = 0;
    for (const auto& [rung, why] : planned) {
      const std::string name = rung_row_name(rung, r.on_gpu);
      const double row_bytes = rung == ConvRung::kTensorFp16 ? bytes16 : bytes;
      if (!why.empty()) {
        report.rows.push_back({rung_key(rung), name, {}, row_bytes, flops, true});
        not_timed(name, why);
        continue;
      }
      const ConvRungResult& result = r.rungs[ran++];
      report.rows.push_back({rung_key(rung), name, result.time, row_bytes, flops, true, r.on_gpu});
      if (rung == ConvRung::kIm2colGemm) {
        // The unfolded matrix is written once and read once more by the GEMM.
        const double col_bytes = 4.0 * static_cast<double>(shape_.im2col_elements());
        const double input_bytes = 4.0 * static_cast<double>(shape_.input_elements());
        report.rows.push_back({{TimingRole::kChainStep, "im2col"},
                               std::string(r.on_gpu ? "GPU" : "Emulated") + " im2col alone",
                               result.im2col_step,
                               input_bytes + col_bytes,
                               0,
                               false,
                               r.on_gpu});
        report.rows.push_back({{TimingRole::kChainStep, "gemm"},
                               std::string(r.on_gpu ? "GPU" : "Emulated") + " GEMM alone",
                               result.gemm_step,
                               col_bytes + 4.0 * static_cast<double>(shape_.weight_elements() +
                                                                     shape_.output_elements()),
                               flops,
                               false,
                               r.on_gpu});
        report.notes.push_back(
            "im2col's unfolded matrix holds " + format_count(shape_.im2col_elements()) +
            " floats (" + format_bytes(col_bytes) + "), " + format_ratio(col_bytes / input_bytes) +
            " times the input's " + format_bytes(input_bytes) +
            ": every pixel once per window that covers it");
      }
      if (result.check) {
        if (rung == rung_) {
          report.check = LessonCheck{result.check->passed, result.check->describe()};
        } else if (!result.check->passed) {
          report.notes.push_back("'" + name + "': " + result.check->describe());
        }
      }
    }

    if (r.on_gpu) {
      // Two rows per precision: the graph API's fastest timed plan ("cudnn-fp16", the one the
      // tensor rung's ceiling and the benchmark name first) and the Find API's fastest algorithm
      // ("cudnn-find-fp16"); a note says which is faster, since cuDNN's fastest is the faster one.
      for (const ConvLibraryResult& library : r.cudnn) {
        const std::string precision = library.fp16 ? "FP16" : "FP32";
        const std::string api = library.graph ? "graph API" : "Find";
        std::string name = "cuDNN " + precision + " " + api;
        if (!library.algorithm.empty()) name += " (" + library.algorithm + ")";
        report.rows.push_back(
            {{TimingRole::kLibrary, lessons::cudnn_row_variant(library.fp16, library.graph)},
             name,
             library.time,
             library.fp16 ? lessons::conv_bytes(shape_, 2) -
                                2.0 * static_cast<double>(shape_.output_elements())
                          : bytes,
             flops,
             true,
             true});
        if (!library.not_timed.empty())
          not_timed("cuDNN " + precision + " " + api, library.not_timed);
        if (!library.details.empty()) {
          report.notes.push_back("cuDNN " + precision + " graph API: " + library.details);
        }
        if (library.check && !library.check->passed) {
          report.notes.push_back("'" + name + "': " + library.check->describe());
        }
      }
      for (const bool fp16 : {false, true}) {
        const ConvLibraryResult* graph = nullptr;
        const ConvLibraryResult* find = nullptr;
        for (const ConvLibraryResult& library : r.cudnn) {
          if (library.fp16 != fp16 || !library.not_timed.empty()) continue;
          (library.graph ? graph : find) = &library;
        }
        if (graph == nullptr || find == nullptr) continue;
        const double g = graph->time.median_ms, f = find->time.median_ms;
        if (g <= 0 || f <= 0) continue;
        report.notes.push_back(std::string("cuDNN ") + (fp16 ? "FP16" : "FP32") + ": the " +
                               (g <= f ? "graph API's plan" : "Find API's algorithm") + " is " +
                               format_ratio(std::max(g, f) / std::min(g, f)) + "x as fast as the " +
                               (g <= f ? "Find API's algorithm" : "graph API's plan") +
                               " (median times): it is cuDNN's fastest here");
      }
      report.notes.push_back(
          "cuDNN: " + r.cudnn_library +
          "; the graph API row times every execution plan that cuDNN's heuristics (mode A, then "
          "FALLBACK) offer and keeps the fastest, as PyTorch does with cudnn.benchmark; the Find "
          "row is cudnnFindConvolutionForwardAlgorithm's fastest. Both accumulate in FP32, FP32 "
          "with FMA math only (no TF32)");
    } else {
      not_timed("cuDNN", r.cudnn_library);
    }

    const double input_bytes =
        4.0 * static_cast<double>(shape_.input_elements() + shape_.weight_elements());
    report.rows.push_back(
        {{TimingRole::kCopy, "to-device"},
         r.on_gpu ? "copy input, weights host → device" : "copy input, weights (emulated)",
         r.host_to_device,
         input_bytes,
         0,
         false});
    report.rows.push_back({{TimingRole::kCopy, "to-host"},
                           r.on_gpu ? "copy output device → host" : "copy output (emulated)",
                           r.device_to_host,
                           4.0 * static_cast<double>(shape_.output_elements()),
                           0,
                           false});
    report.rows.push_back(
        {{TimingRole::kCpuAllThreads, "reference"}, kCpuRow, r.cpu_reference, bytes, flops, true});
    if (r.cpu_skipped.empty()) {
      report.notes.push_back(cpu_threads_note(kCpuRow, r.cpu_threads));
    } else {
      not_timed(kCpuRow, r.cpu_skipped);
    }
    report.notes.push_back("every rung was checked against the float64 reference of " +
                           shape_.describe() +
                           " (the tensor-core rung and cuDNN FP16 against the reference of the "
                           "inputs rounded to FP16)");
    return report;
  }

  static std::string format_ratio(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
  }

  ConvShape shape_;
  ConvRung rung_ = ConvRung::kImplicitGemm;
  Dim3 block_{256, 1, 1};
  // The device last handed to this lesson, as far as the tensor rung's launch depends on it:
  // atomics, as a timed run may note it on a worker thread while the window asks for the launch.
  mutable std::atomic<int> target_multiprocessors_{0};
  mutable std::atomic<std::uint64_t> target_shared_optin_{0};
  void note_target(const Device& device) const {
    const ConvTarget target = conv_target(device);
    target_multiprocessors_ = target.multiprocessors;
    target_shared_optin_ = target.shared_per_block_optin;
  }
  [[nodiscard]] ConvTarget target() const {
    return {target_multiprocessors_.load(), target_shared_optin_.load()};
  }
};

}  // namespace

std::unique_ptr<Lesson> make_convolution_lesson() {
  return std::make_unique<ConvolutionLesson>();
}

}  // namespace tl::compute
