#pragma once
// Lesson 8, number formats: FP32, TF32, FP16 and BF16. The parameters, the inputs, the float64
// references, the error measures and the check. No CUDA here: the kernels live in
// lessons/08_precision/kernels/precision.cuh, the roundings in core/numeric/low_precision.hpp.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/lessons/catalog.hpp"
#include "core/numeric/low_precision.hpp"
#include "core/result.hpp"
#include "lessons/08_precision/kernels/precision_kernels.hpp"

namespace tl::lessons {

inline constexpr LessonInfo kPrecisionInfo{
    8, "precision", "Number formats",
    "FP32, TF32, FP16 and BF16: their bits, their range, and what they do to sums", "08_precision"};
inline constexpr std::string_view kPrecisionId = kPrecisionInfo.id;

using kernels::Accumulate;
using numeric::FloatFormat;

// The data the products run on.
enum class PrecisionData {
  kUniform,  // uniform in [0, 1): every product positive, the sums grow
  kSigned,   // uniform in [-1, 1): the sums cancel
  kLarge,    // uniform in [100, 300): products up to 90000, past FP16's largest value 65504
  kTiny,     // uniform in [1e-5, 2e-5): FP16 subnormals, products below FP16's smallest value
};
[[nodiscard]] std::string_view to_string(PrecisionData data);
Result<PrecisionData> parse_precision_data(std::string_view text);
[[nodiscard]] std::string_view to_string(Accumulate accumulate);  // "same", "fp32"
Result<Accumulate> parse_accumulate(std::string_view text);

// One way of computing: the inputs stored in `format`, the sums kept in `accumulate`.
struct PrecisionVariant {
  FloatFormat format = FloatFormat::kFp32;
  Accumulate accumulate = Accumulate::kFp32;
  friend bool operator==(const PrecisionVariant&, const PrecisionVariant&) = default;
};
// FP32; TF32 with FP32 sums; FP16 and BF16 with their own sums and with FP32 sums.
[[nodiscard]] std::span<const PrecisionVariant> precision_variants();
// "fp16-same", "fp16-fp32", ...: timing-row variants and table keys.
[[nodiscard]] std::string variant_key(const PrecisionVariant& variant);
// "FP16, FP16 sums", "TF32 inputs, FP32 sums", ...
[[nodiscard]] std::string variant_label(const PrecisionVariant& variant);

struct PrecisionParams {
  std::uint64_t n = std::uint64_t{1} << 24;  // dot product length
  std::uint32_t size = 512;                  // the matrix product: size × size × size
  std::uint32_t block = 256;                 // the dot product's block
  std::uint32_t blocks = 1024;               // the dot product's grid
  PrecisionData data = PrecisionData::kUniform;
  PrecisionVariant drawn{FloatFormat::kFp16, Accumulate::kFp32};  // the traced matrix product
};

// n from 1 to 2^30; size from 1 to 4096; block a power of two from 32 to 1024; blocks from 1 to
// 65535; the drawn variant one that exists (no TF32 sums).
Status validate_precision(const PrecisionParams& params);

// The inputs, deterministic for a seed.
std::vector<float> make_precision_data(std::uint64_t n, PrecisionData data, std::uint32_t seed);
// Every element rounded to `format` (exactly as the GPU's conversion does) and widened back.
std::vector<float> rounded_copy(std::span<const float> values, FloatFormat format);

// Sum of a[i]·b[i] in float64 with Neumaier's compensation (the products of floats are exact in
// float64): the reference errors are measured against.
[[nodiscard]] double exact_dot(std::span<const float> a, std::span<const float> b);
[[nodiscard]] double abs_dot(std::span<const float> a, std::span<const float> b);  // sum |a·b|
// C = A·B in float64 (size × size each), row-major; `magnitudes` gets |A|·|B| (for the bounds).
void reference_matmul(std::span<const float> a, std::span<const float> b, std::uint32_t size,
                      std::span<double> c, std::span<double> magnitudes);

// The longest chain of roundings in the dot product's result: each thread's chain of
// ceil(n / threads) multiply-adds, log2(block) levels of its block's tree, then `blocks` adds.
[[nodiscard]] std::uint64_t dot_depth(std::uint64_t n, std::uint32_t block, std::uint32_t blocks);
// depth · u · sum|a·b| with 1% slack for the second-order terms (Higham, "Accuracy and Stability
// of Numerical Algorithms", 2nd ed., eq. 3.5), u the accumulator's unit roundoff.
[[nodiscard]] double error_bound(std::uint64_t depth, double unit_roundoff, double magnitude);

// RMS of (c - reference) over RMS of the reference: one number for a whole matrix's error.
[[nodiscard]] double relative_rms_error(std::span<const float> c,
                                        std::span<const double> reference);

// The representative values whose bit layouts a timed run reports: 1, 0.1, 1/3, 65504, 70000,
// 1e-5, 1e-8, 3e38.
[[nodiscard]] std::span<const char* const> showcase_values();

}  // namespace tl::lessons
