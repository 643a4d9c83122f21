#pragma once
// FP32, TF32, FP16 and BF16: their bit layouts and their roundings, computed exactly as an NVIDIA
// GPU computes them, so that the CPU emulator's low-precision arithmetic gives the GPU's bits.
//
// - FP16 and BF16 conversions from float (cvt.rn.f16.f32, cvt.rn.bf16.f32: __float2half_rn,
//   __float2bfloat16_rn) round to nearest, ties to even; a value past the largest finite one
//   becomes infinity; any NaN becomes the canonical NaN 0x7FFF (sign dropped), as CUDA's own host
//   versions of these conversions do.
// - TF32 (cvt.rna.tf32.f32, wmma::__float_to_tf32) keeps a float's 8 exponent bits and the top 10
//   of its 23 mantissa bits, rounding to nearest with ties AWAY from zero (the "a" of rna).
// - FP16 and BF16 fused multiply-add (__hfma) round a·b + c once; __hadd is a·1 + b and __hmul
//   a·b + (-0), each one rounding. Subnormals are kept, never flushed.
// No CUDA here: kernels/emulator/low_precision_emulation.hpp builds __half and __nv_bfloat16 on it.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace tl::numeric {

enum class FloatFormat : std::uint8_t { kFp32, kTf32, kFp16, kBf16 };
inline constexpr FloatFormat kFloatFormats[] = {FloatFormat::kFp32, FloatFormat::kTf32,
                                                FloatFormat::kFp16, FloatFormat::kBf16};

// "fp32", "tf32", "fp16", "bf16".
[[nodiscard]] std::string_view to_string(FloatFormat format);
// "FP32", "TF32", "FP16", "BF16".
[[nodiscard]] std::string_view display_name(FloatFormat format);
Result<FloatFormat> parse_float_format(std::string_view text);

// Where the bits are: sign (1 bit), exponent, mantissa (the stored fraction, without the hidden 1).
struct FormatLayout {
  int exponent_bits = 0;
  int mantissa_bits = 0;
  int bias = 0;
  int storage_bits = 0;  // how it is stored: TF32 lives in a 32-bit float whose low 13 bits are 0
  [[nodiscard]] int bits() const { return 1 + exponent_bits + mantissa_bits; }
  [[nodiscard]] int min_normal_exponent() const { return 1 - bias; }
  [[nodiscard]] int max_exponent() const { return (1 << exponent_bits) - 2 - bias; }
};
[[nodiscard]] FormatLayout layout(FloatFormat format);

// The numbers that describe a format's range and step, computed from its layout.
struct FormatRange {
  double max_finite = 0;     // largest finite value
  double min_normal = 0;     // smallest positive normal value
  double min_subnormal = 0;  // smallest positive value
  double step_at_one = 0;    // the gap from 1 to the next value up (machine epsilon)
  double unit_roundoff = 0;  // half of it: the largest relative error of one rounding (near 1)
};
[[nodiscard]] FormatRange range(FloatFormat format);

// ---- Rounding, bit-exact with the GPU ----
[[nodiscard]] std::uint16_t float_to_half_bits(float x);
[[nodiscard]] float half_bits_to_float(std::uint16_t h);  // exact
[[nodiscard]] std::uint16_t float_to_bfloat16_bits(float x);
[[nodiscard]] float bfloat16_bits_to_float(std::uint16_t b);  // exact
[[nodiscard]] float round_to_tf32(float x);                   // a float whose low 13 bits are 0

// a·b + c rounded once; a NaN anywhere (or inf - inf) gives the canonical NaN 0x7FFF.
[[nodiscard]] std::uint16_t half_fma_bits(std::uint16_t a, std::uint16_t b, std::uint16_t c);
[[nodiscard]] std::uint16_t bfloat16_fma_bits(std::uint16_t a, std::uint16_t b, std::uint16_t c);
[[nodiscard]] std::uint16_t half_add_bits(std::uint16_t a, std::uint16_t b);      // a·1 + b
[[nodiscard]] std::uint16_t half_mul_bits(std::uint16_t a, std::uint16_t b);      // a·b + (-0)
[[nodiscard]] std::uint16_t bfloat16_add_bits(std::uint16_t a, std::uint16_t b);  // a·1 + b
[[nodiscard]] std::uint16_t bfloat16_mul_bits(std::uint16_t a, std::uint16_t b);  // a·b + (-0)

// The float `x` rounded to `format` and widened back to float (exact): what a kernel computes
// with after converting x to that format. FP32 returns x.
[[nodiscard]] float round_float_to(FloatFormat format, float x);
// The format's own bits of `x` rounded to it, right-aligned (TF32: 19 bits, FP16/BF16: 16).
[[nodiscard]] std::uint32_t format_bits(FloatFormat format, float x);

// One value's fields, for the bit-layout view.
enum class ValueKind : std::uint8_t { kZero, kSubnormal, kNormal, kInfinity, kNaN };
[[nodiscard]] std::string_view to_string(ValueKind kind);
struct DecodedValue {
  FloatFormat format = FloatFormat::kFp32;
  std::uint32_t bits = 0;  // right-aligned, layout(format).bits() wide
  bool negative = false;
  std::uint32_t exponent_field = 0;
  std::uint32_t mantissa_field = 0;
  ValueKind kind = ValueKind::kZero;
  int exponent = 0;  // unbiased; subnormals: the minimum normal exponent
  double value = 0;  // exactly the value the bits hold
  double step = 0;   // the gap to the next value of larger magnitude (0 for inf and NaN)
  // "1.5703125 × 2^-3", "subnormal: 0.0625 × 2^-14", "infinity", "NaN".
  [[nodiscard]] std::string formula() const;
  // The bits as text, the fields separated by a space: "0 01111 0000000000".
  [[nodiscard]] std::string bit_string() const;
};
[[nodiscard]] DecodedValue decode(FloatFormat format, std::uint32_t bits);

// What happens to one value typed by the user in each format: the nearest float first (as a
// program reading it into a float would have it), then that float rounded to the format.
struct FormatRounding {
  DecodedValue decoded;
  double typed = 0;           // the text as a double
  float as_float = 0;         // the text as the nearest float
  double absolute_error = 0;  // |decoded.value - typed| (inf where it overflowed)
  double relative_error = 0;  // absolute_error / |typed| (0 where typed is 0)
  bool overflowed = false;    // finite typed value that became infinity
  bool underflowed = false;   // non-zero typed value that became zero
  bool went_subnormal = false;
};
Result<FormatRounding> round_typed_value(FloatFormat format, std::string_view text);

}  // namespace tl::numeric
