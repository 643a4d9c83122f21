#pragma once
// Runs the precision lesson on a Device: the inputs rounded to each format by the GPU's own
// conversions, the dot product and the matrix product in every variant (timed), their errors
// against float64, and the traced matrix product of the drawn variant.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/stats.hpp"
#include "lessons/08_precision/precision.hpp"

namespace tl::compute {

struct PrecisionVariantResult {
  lessons::PrecisionVariant variant;
  double dot = 0;        // the kernels' result, widened to float
  double dot_error = 0;  // |dot - exact| / |exact|, exact the float64 dot of the FP32 data
  double dot_bound = 0;  // FP32 sums: the bound its distance from the rounded inputs' dot obeys
  bool dot_checked = false;
  bool dot_within = true;
  double matmul_error = 0;  // relative RMS error against the float64 product of the FP32 data
  std::uint64_t matmul_not_finite = 0;
  std::uint64_t matmul_outside = 0;  // FP32 sums: elements outside their bound
  TimingStats dot_time;
  TimingStats matmul_time;
};

// What rounding the inputs alone costs: the float64 results of the rounded inputs.
struct PrecisionInputError {
  lessons::FloatFormat format = lessons::FloatFormat::kFp32;
  double dot_error = 0;
  double matmul_error = 0;
};

struct PrecisionReport {
  bool on_gpu = false;
  lessons::PrecisionParams params;
  double exact_dot = 0;
  double abs_dot = 0;
  std::vector<PrecisionInputError> inputs;
  std::vector<PrecisionVariantResult> results;
  std::vector<std::string> notes;  // formats this device cannot run, and why
  [[nodiscard]] bool passed() const;
  [[nodiscard]] std::string describe_check() const;
};

struct PrecisionRequest {
  lessons::PrecisionParams params;
  int warmup = 1;
  int repeats = 5;
  std::uint32_t seed = 8;
  const std::atomic<bool>* cancel = nullptr;
};

Result<PrecisionReport> run_precision(Device& device, const PrecisionRequest& request);

struct PrecisionTraceCheck {
  bool passed = true;
  std::string description;
};
// The drawn variant's matrix product, traced: one record per element of C.
Result<PrecisionTraceCheck> trace_precision(Device& device, const lessons::PrecisionParams& params,
                                            TraceSink& sink, std::uint32_t seed = 8);

// Whether `device` computes in `format`: TF32 conversion and BF16 arithmetic need compute
// capability 8.0; the emulator does all four.
[[nodiscard]] bool runs_format(const Device& device, lessons::FloatFormat format);

// The configurations the runner launches with.
[[nodiscard]] LaunchConfig precision_matmul_config(std::uint32_t size);
[[nodiscard]] LaunchConfig precision_dot_config(const lessons::PrecisionParams& params);

}  // namespace tl::compute
