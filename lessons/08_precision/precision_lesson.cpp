#include "precision_lesson.hpp"

#include <algorithm>
#include <cstdio>

#include "compute/lessons/parameterized_lesson.hpp"
#include "core/sweep/size_sweep.hpp"

namespace tl::compute {
namespace {

using lessons::Accumulate;
using lessons::FloatFormat;

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"n", "dot length n", lessons::ParamKind::kCount, "16M", {}, "Elements of the dot product"},
      {"size",
       "matrix size",
       lessons::ParamKind::kCount,
       "512",
       {},
       "The matrix product multiplies two size × size matrices (and is the traced kernel)"},
      {"data",
       "data",
       lessons::ParamKind::kChoice,
       "uniform",
       {"uniform", "signed", "large", "tiny"},
       "uniform in [0, 1); in [-1, 1); in [100, 300) (products past FP16's 65504); in [1e-5, "
       "2e-5) (FP16 subnormals)"},
      {"dtype",
       "drawn dtype",
       lessons::ParamKind::kChoice,
       "fp16",
       {"fp32", "tf32", "fp16", "bf16"},
       "The format of the traced matrix product (a timed run computes every format)"},
      {"accumulate",
       "drawn sums in",
       lessons::ParamKind::kChoice,
       "fp32",
       {"fp32", "same"},
       "Whether the traced product keeps its sums in FP32 or in its own format (not for TF32)"},
      {"block",
       "dot threads / block",
       lessons::ParamKind::kDim3,
       "256",
       {},
       "Threads in each block of the dot product: a power of two from 32 to 1024",
       {},
       true},
      {"blocks",
       "dot blocks",
       lessons::ParamKind::kCount,
       "1024",
       {},
       "Blocks of the dot product's grid (fixed, so every device adds in the same order)",
       {},
       true},
  };
  return kSpecs;
}

std::string format_g(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

class PrecisionLesson final : public ParameterizedLesson {
 public:
  PrecisionLesson()
      : ParameterizedLesson({.info = lessons::kPrecisionInfo,
                             .specs = specs(),
                             .size_params = {"n"},
                             .blocks = BlockSweepShape::kWarpMultiplesOfTwo}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& reader,
               const lessons::ParamValues& /*values*/) override {
    lessons::PrecisionParams p;
    auto n = reader.count("n");
    if (!n) return n.error();
    p.n = *n;
    auto size = reader.count("size");
    if (!size) return size.error();
    if (*size > 4096) {
      return invalid_argument("the matrix size must be from 1 to 4096, not " +
                              std::to_string(*size) + ".");
    }
    p.size = static_cast<std::uint32_t>(*size);
    auto data = reader.choice("data");
    if (!data) return data.error();
    auto parsed_data = lessons::parse_precision_data(*data);
    if (!parsed_data) return parsed_data.error();
    p.data = *parsed_data;
    auto format = reader.choice("dtype");
    if (!format) return format.error();
    auto parsed_format = numeric::parse_float_format(*format);
    if (!parsed_format) return parsed_format.error();
    auto accumulate = reader.choice("accumulate");
    if (!accumulate) return accumulate.error();
    auto parsed_accumulate = lessons::parse_accumulate(*accumulate);
    if (!parsed_accumulate) return parsed_accumulate.error();
    p.drawn = {*parsed_format, *parsed_accumulate};
    auto block = reader.dim3("block");
    if (!block) return block.error();
    if (block->y != 1 || block->z != 1) {
      return invalid_argument("the dot product takes 1D blocks, not " + to_string(*block) + ".");
    }
    p.block = block->x;
    auto blocks = reader.count("blocks");
    if (!blocks) return blocks.error();
    if (*blocks > 65535) {
      return invalid_argument("the dot product's blocks must be from 1 to 65535, not " +
                              std::to_string(*blocks) + ".");
    }
    p.blocks = static_cast<std::uint32_t>(*blocks);
    TL_RETURN_IF_ERROR(lessons::validate_precision(p));
    params_ = p;
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override {
    return precision_matmul_config(params_.size);
  }
  [[nodiscard]] DataShape data_shape() const override { return {params_.size, params_.size}; }
  [[nodiscard]] lessons::ParamValues emulator_defaults() const override {
    // Six variants of both products, each timed, every FP16 and BF16 rounding done in software:
    // sizes the emulator finishes in about a second (and the soak's random sizes, up to twice
    // these, in a few).
    return {{"n", "16K"}, {"size", "32"}, {"blocks", "16"}};
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    const std::string in = params_.drawn.format == FloatFormat::kFp16   ? "__half"
                           : params_.drawn.format == FloatFormat::kBf16 ? "__nv_bfloat16"
                                                                        : "float";
    const std::string acc = params_.drawn.accumulate == Accumulate::kFp32 ? "float" : in;
    return "matmul_in<" + in + ", " + acc + ">";
  }
  [[nodiscard]] std::optional<KernelWork> longest_kernel() const override {
    const double s = params_.size;
    return KernelWork{"matmul_in", 2 * s * s * s, 8 * s * s, KernelEfficiency{}};
  }
  [[nodiscard]] std::vector<LessonPreset> presets() const override {
    return {{"FP16 overflow",
             "Inputs in [100, 300): their products pass FP16's largest value, 65504",
             {{"data", "large"}, {"dtype", "fp16"}, {"accumulate", "same"}}},
            {"FP16 underflow",
             "Inputs near 1e-5: FP16 subnormals, whose products round to zero in FP16",
             {{"data", "tiny"}, {"dtype", "fp16"}, {"accumulate", "same"}}},
            {"cancelling sums",
             "Inputs in [-1, 1): the sums cancel, and the relative error grows",
             {{"data", "signed"}}}};
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    PrecisionRequest request;
    request.params = params_;
    request.cancel = cancel;
    request.repeats = repeats();
    auto report = run_precision(device, request);
    if (!report) return report.error();
    return to_lesson_report(std::move(*report));
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    TracedLaunch traced;
    traced.shape = data_shape();
    traced.config = launch_config();
    auto check = trace_precision(device, params_, sink);
    if (!check) return check.error();
    traced.check = LessonCheck{check->passed, check->description};
    return traced;
  }

  [[nodiscard]] std::string size_label() const override { return "dot length n"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    const std::uint64_t top = device.is_gpu() ? (std::uint64_t{1} << 28) : (std::uint64_t{1} << 16);
    // The inputs as floats, their rounded copies: under 16 bytes per element.
    const std::uint64_t fits = elements_fitting(device.info().global_memory_free, 16.0);
    return size_sweep(1 << 12, std::max<std::uint64_t>(1 << 12, std::min(top, fits)), 1);
  }

 private:
  LessonReport to_lesson_report(PrecisionReport r) const {
    LessonReport report;
    report.on_gpu = r.on_gpu;
    const double n = static_cast<double>(r.params.n);
    const double s = r.params.size;
    const std::string where = r.on_gpu ? "GPU " : "Emulated ";
    for (const PrecisionVariantResult& v : r.results) {
      const std::string key = lessons::variant_key(v.variant);
      const double bytes_per =
          static_cast<double>(numeric::layout(v.variant.format).storage_bits) / 8;
      report.rows.push_back(
          {{TimingRole::kKernel, "dot-" + key},
           where + "dot, " + lessons::variant_label(v.variant) + (r.on_gpu ? "" : " (CPU)"),
           v.dot_time,
           2 * n * bytes_per,
           2 * n,
           true,
           r.on_gpu});
      report.rows.push_back(
          {{TimingRole::kKernel, "matmul-" + key},
           where + "matmul, " + lessons::variant_label(v.variant) + (r.on_gpu ? "" : " (CPU)"),
           v.matmul_time,
           3 * s * s * bytes_per,
           2 * s * s * s,
           true,
           r.on_gpu});
    }
    if (!r.on_gpu) {
      report.notes.push_back(
          "emulator timings: the CPU performs every rounding in software, so these times are "
          "the emulator's, not a GPU's; the errors are the GPU's, bit for bit");
    }
    for (const std::string& note : r.notes) report.notes.push_back(note);
    for (std::string& line : precision_table_lines(r)) report.notes.push_back(std::move(line));
    for (std::string& line : showcase_lines()) report.notes.push_back(std::move(line));
    report.check = LessonCheck{r.passed(), r.describe_check()};
    report.attachment = std::make_shared<PrecisionAttachment>(std::move(r));
    return report;
  }

  lessons::PrecisionParams params_;
};

}  // namespace

std::vector<std::string> precision_table_lines(const PrecisionReport& r) {
  std::vector<std::string> lines;
  lines.push_back("float64 dot " + format_g("%.17g", r.exact_dot) + " (n " +
                  std::to_string(r.params.n) + ", data " +
                  std::string(lessons::to_string(r.params.data)) + "); matmul " +
                  std::to_string(r.params.size) + "³");
  for (const PrecisionInputError& in : r.inputs) {
    lines.push_back("inputs rounded to " + std::string(numeric::display_name(in.format)) +
                    ", exact arithmetic: dot error " + format_g("%.3g", in.dot_error) +
                    ", matmul RMS error " + format_g("%.3g", in.matmul_error));
  }
  for (const PrecisionVariantResult& v : r.results) {
    std::string line = lessons::variant_label(v.variant) + ": dot " + format_g("%.9g", v.dot) +
                       " (relative error " + format_g("%.3g", v.dot_error) +
                       "), matmul RMS error " + format_g("%.3g", v.matmul_error);
    if (v.matmul_not_finite != 0) {
      line += ", " + std::to_string(v.matmul_not_finite) + " elements of C infinite or NaN";
    }
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> showcase_lines() {
  std::vector<std::string> lines;
  for (const char* value : lessons::showcase_values()) {
    std::string line = std::string(value) + " as";
    for (FloatFormat format : numeric::kFloatFormats) {
      auto rounded = numeric::round_typed_value(format, value);
      if (!rounded) continue;
      line += std::string(format == FloatFormat::kFp32 ? " " : "; ") +
              std::string(numeric::display_name(format)) + " " + rounded->decoded.bit_string() +
              " = " + format_g("%.9g", rounded->decoded.value);
      if (rounded->overflowed) line += " (overflow)";
      if (rounded->underflowed) line += " (underflow)";
      if (rounded->went_subnormal) line += " (subnormal)";
    }
    lines.push_back(line);
  }
  return lines;
}

std::unique_ptr<Lesson> make_precision_lesson() {
  return std::make_unique<PrecisionLesson>();
}

}  // namespace tl::compute
