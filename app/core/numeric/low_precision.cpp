#include "core/numeric/low_precision.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace tl::numeric {
namespace {

constexpr std::uint16_t kCanonicalNaN16 = 0x7FFF;

// Rounds a finite double to the nearest number with `mantissa_bits` fraction bits whose exponent
// is at least `min_exponent` (below it the quantum stays 2^(min_exponent - mantissa_bits): the
// subnormals), ties to even; past the largest finite value (exponent above `max_exponent`) it is
// infinity. x / quantum is exact (a power of two), and nearbyint rounds ties to even in the
// default rounding mode.
double round_to_precision(double x, int mantissa_bits, int min_exponent, int max_exponent) {
  if (x == 0.0 || !std::isfinite(x)) return x;
  int exponent = std::ilogb(x);
  if (exponent < min_exponent) exponent = min_exponent;
  const double quantum = std::ldexp(1.0, exponent - mantissa_bits);
  const double rounded = std::nearbyint(x / quantum) * quantum;
  const double max_finite =
      std::ldexp(2.0 - std::ldexp(1.0, -mantissa_bits), max_exponent);  // (2 - 2^-m)·2^emax
  if (std::fabs(rounded) > max_finite) return std::copysign(HUGE_VAL, x);
  return rounded;
}

double round_half(double x) {
  return round_to_precision(x, 10, -14, 15);
}
double round_bfloat16(double x) {
  return round_to_precision(x, 7, -126, 127);
}

// A value that round_half left exactly representable, as FP16 bits.
std::uint16_t encode_half(double value) {
  const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  const double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return sign | 0x7C00;
  if (magnitude < 0x1p-14) {  // subnormal or zero: an integer count of 2^-24
    return sign | static_cast<std::uint16_t>(magnitude * 0x1p24);
  }
  const int exponent = std::ilogb(magnitude);
  const auto fraction = static_cast<std::uint16_t>((std::ldexp(magnitude, -exponent) - 1.0) * 1024);
  return sign | static_cast<std::uint16_t>((exponent + 15) << 10) | fraction;
}

// Round to odd: x = s + e exactly (e the error of s = RN(a + b)); the 53-bit neighbour of x with
// an odd last bit. Rounding that to a format of at most 51 bits of precision gives the correctly
// rounded x (Boldo and Melquiond, "When double rounding is odd", 2005), so a·b + c is rounded once.
double round_sum_to_odd(double a, double b) {
  const double s = a + b;
  if (!std::isfinite(s)) return s;
  const double bb = s - a;
  const double e = (a - (s - bb)) + (b - bb);  // TwoSum: exact error of s
  if (e == 0.0) return s;
  if ((std::bit_cast<std::uint64_t>(s) & 1u) != 0) return s;
  return std::nextafter(s, e > 0 ? HUGE_VAL : -HUGE_VAL);
}

// a·b + c for formats of at most 24 bits of precision and exponents within double's: a·b is exact
// in a double (at most 2·11 = 22 significant bits), the sum rounds to odd, then to the format.
std::optional<double> exact_fma_to_odd(double a, double b, double c) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c)) return std::nullopt;
  const double product = a * b;
  if (std::isinf(product) || std::isinf(c)) {
    const double s = product + c;
    if (std::isnan(s)) return std::nullopt;
    return s;
  }
  if (std::isnan(product)) return std::nullopt;  // 0 · inf
  return round_sum_to_odd(product, c);
}

std::uint16_t half_fma_from_doubles(double a, double b, double c) {
  const auto sum = exact_fma_to_odd(a, b, c);
  if (!sum) return kCanonicalNaN16;
  return encode_half(round_half(*sum));
}

std::uint16_t bfloat16_fma_from_doubles(double a, double b, double c) {
  const auto sum = exact_fma_to_odd(a, b, c);
  if (!sum) return kCanonicalNaN16;
  const auto rounded = static_cast<float>(round_bfloat16(*sum));  // exact: it is a bf16 value
  return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(rounded) >> 16);
}

std::string format_number(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

}  // namespace

std::string_view to_string(FloatFormat format) {
  switch (format) {
    case FloatFormat::kFp32:
      return "fp32";
    case FloatFormat::kTf32:
      return "tf32";
    case FloatFormat::kFp16:
      return "fp16";
    case FloatFormat::kBf16:
      return "bf16";
  }
  return "?";
}

std::string_view display_name(FloatFormat format) {
  switch (format) {
    case FloatFormat::kFp32:
      return "FP32";
    case FloatFormat::kTf32:
      return "TF32";
    case FloatFormat::kFp16:
      return "FP16";
    case FloatFormat::kBf16:
      return "BF16";
  }
  return "?";
}

Result<FloatFormat> parse_float_format(std::string_view text) {
  for (FloatFormat format : kFloatFormats) {
    if (text == to_string(format)) return format;
  }
  return invalid_argument("unknown number format '" + std::string(text) +
                          "': use fp32, tf32, fp16 or bf16.");
}

FormatLayout layout(FloatFormat format) {
  switch (format) {
    case FloatFormat::kFp32:
      return {8, 23, 127, 32};
    case FloatFormat::kTf32:
      return {8, 10, 127, 32};
    case FloatFormat::kFp16:
      return {5, 10, 15, 16};
    case FloatFormat::kBf16:
      return {8, 7, 127, 16};
  }
  return {};
}

FormatRange range(FloatFormat format) {
  const FormatLayout l = layout(format);
  FormatRange r;
  r.max_finite = std::ldexp(2.0 - std::ldexp(1.0, -l.mantissa_bits), l.max_exponent());
  r.min_normal = std::ldexp(1.0, l.min_normal_exponent());
  r.min_subnormal = std::ldexp(1.0, l.min_normal_exponent() - l.mantissa_bits);
  r.step_at_one = std::ldexp(1.0, -l.mantissa_bits);
  r.unit_roundoff = r.step_at_one / 2;
  return r;
}

std::uint16_t float_to_half_bits(float x) {
  if (std::isnan(x)) return kCanonicalNaN16;
  return encode_half(round_half(x));
}

float half_bits_to_float(std::uint16_t h) {
  const bool negative = (h & 0x8000) != 0;
  const int exponent_field = (h >> 10) & 0x1F;
  const int mantissa = h & 0x3FF;
  double magnitude = 0;
  if (exponent_field == 0x1F) {
    if (mantissa != 0) return std::numeric_limits<float>::quiet_NaN();
    magnitude = HUGE_VAL;
  } else if (exponent_field == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  } else {
    magnitude = std::ldexp(1.0 + mantissa / 1024.0, exponent_field - 15);
  }
  return static_cast<float>(negative ? -magnitude : magnitude);
}

std::uint16_t float_to_bfloat16_bits(float x) {
  if (std::isnan(x)) return kCanonicalNaN16;
  const auto rounded = static_cast<float>(round_bfloat16(x));
  return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(rounded) >> 16);
}

float bfloat16_bits_to_float(std::uint16_t b) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

float round_to_tf32(float x) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  if (std::isnan(x)) {
    // The GPU's cvt.rna.tf32.f32 cuts a NaN's low 13 bits and nothing else: sign and payload kept,
    // not quieted, and a payload wholly in those bits becomes infinity (measured on an H200:
    // 0x7FAF4F0F -> 0x7FAF4000, 0xFFFC4258 -> 0xFFFC4000, 0x7F800001 -> 0x7F800000).
    return std::bit_cast<float>(bits & 0xFFFFE000u);
  }
  if (std::isinf(x)) return x;
  // Ties away from zero on the magnitude: add half of the dropped 13 bits' weight, then cut them.
  // A carry runs into the exponent as it should, up to infinity past the largest TF32 value.
  const std::uint32_t sign = bits & 0x80000000u;
  const std::uint32_t magnitude = ((bits & 0x7FFFFFFFu) + 0x1000u) & 0xFFFFE000u;
  return std::bit_cast<float>(sign | std::min<std::uint32_t>(magnitude, 0x7F800000u));
}

std::uint16_t half_fma_bits(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  return half_fma_from_doubles(half_bits_to_float(a), half_bits_to_float(b), half_bits_to_float(c));
}
std::uint16_t bfloat16_fma_bits(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  return bfloat16_fma_from_doubles(bfloat16_bits_to_float(a), bfloat16_bits_to_float(b),
                                   bfloat16_bits_to_float(c));
}
std::uint16_t half_add_bits(std::uint16_t a, std::uint16_t b) {
  return half_fma_from_doubles(half_bits_to_float(a), 1.0, half_bits_to_float(b));
}
std::uint16_t half_mul_bits(std::uint16_t a, std::uint16_t b) {
  return half_fma_from_doubles(half_bits_to_float(a), half_bits_to_float(b), -0.0);
}
std::uint16_t bfloat16_add_bits(std::uint16_t a, std::uint16_t b) {
  return bfloat16_fma_from_doubles(bfloat16_bits_to_float(a), 1.0, bfloat16_bits_to_float(b));
}
std::uint16_t bfloat16_mul_bits(std::uint16_t a, std::uint16_t b) {
  return bfloat16_fma_from_doubles(bfloat16_bits_to_float(a), bfloat16_bits_to_float(b), -0.0);
}

float round_float_to(FloatFormat format, float x) {
  switch (format) {
    case FloatFormat::kFp32:
      return x;
    case FloatFormat::kTf32:
      return round_to_tf32(x);
    case FloatFormat::kFp16:
      return half_bits_to_float(float_to_half_bits(x));
    case FloatFormat::kBf16:
      return bfloat16_bits_to_float(float_to_bfloat16_bits(x));
  }
  return x;
}

std::uint32_t format_bits(FloatFormat format, float x) {
  switch (format) {
    case FloatFormat::kFp32:
      return std::bit_cast<std::uint32_t>(x);
    case FloatFormat::kTf32:
      return std::bit_cast<std::uint32_t>(round_to_tf32(x)) >> 13;
    case FloatFormat::kFp16:
      return float_to_half_bits(x);
    case FloatFormat::kBf16:
      return float_to_bfloat16_bits(x);
  }
  return 0;
}

std::string_view to_string(ValueKind kind) {
  switch (kind) {
    case ValueKind::kZero:
      return "zero";
    case ValueKind::kSubnormal:
      return "subnormal";
    case ValueKind::kNormal:
      return "normal";
    case ValueKind::kInfinity:
      return "infinity";
    case ValueKind::kNaN:
      return "NaN";
  }
  return "?";
}

DecodedValue decode(FloatFormat format, std::uint32_t bits) {
  const FormatLayout l = layout(format);
  DecodedValue d;
  d.format = format;
  d.bits = bits & ((l.bits() == 32) ? 0xFFFFFFFFu : ((1u << l.bits()) - 1));
  d.negative = ((d.bits >> (l.bits() - 1)) & 1u) != 0;
  d.exponent_field = (d.bits >> l.mantissa_bits) & ((1u << l.exponent_bits) - 1);
  d.mantissa_field = d.bits & ((1u << l.mantissa_bits) - 1);
  const std::uint32_t all_ones = (1u << l.exponent_bits) - 1;
  const double sign = d.negative ? -1.0 : 1.0;
  if (d.exponent_field == all_ones) {
    d.kind = d.mantissa_field == 0 ? ValueKind::kInfinity : ValueKind::kNaN;
    d.value =
        d.kind == ValueKind::kNaN ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
    return d;
  }
  const double fraction = std::ldexp(static_cast<double>(d.mantissa_field), -l.mantissa_bits);
  if (d.exponent_field == 0) {
    d.kind = d.mantissa_field == 0 ? ValueKind::kZero : ValueKind::kSubnormal;
    d.exponent = l.min_normal_exponent();
    d.value = sign * std::ldexp(fraction, d.exponent);
  } else {
    d.kind = ValueKind::kNormal;
    d.exponent = static_cast<int>(d.exponent_field) - l.bias;
    d.value = sign * std::ldexp(1.0 + fraction, d.exponent);
  }
  d.step = std::ldexp(1.0, d.exponent - l.mantissa_bits);
  return d;
}

std::string DecodedValue::formula() const {
  const FormatLayout l = layout(format);
  const std::string sign = negative ? "-" : "";
  const double fraction = std::ldexp(static_cast<double>(mantissa_field), -l.mantissa_bits);
  switch (kind) {
    case ValueKind::kNaN:
      return "NaN (exponent all ones, mantissa not zero)";
    case ValueKind::kInfinity:
      return sign + "infinity (exponent all ones, mantissa zero)";
    case ValueKind::kZero:
      return sign + "0";
    case ValueKind::kSubnormal:
      return sign + format_number(fraction) + " × 2^" + std::to_string(exponent) +
             " (subnormal: no hidden 1)";
    case ValueKind::kNormal:
      return sign + format_number(1.0 + fraction) + " × 2^" + std::to_string(exponent);
  }
  return {};
}

std::string DecodedValue::bit_string() const {
  const FormatLayout l = layout(format);
  std::string text;
  for (int i = l.bits() - 1; i >= 0; --i) {
    text += ((bits >> i) & 1u) != 0 ? '1' : '0';
    if (i == l.bits() - 1 || i == l.mantissa_bits) text += ' ';
  }
  return text;
}

Result<FormatRounding> round_typed_value(FloatFormat format, std::string_view text) {
  const std::string copy(text);
  if (copy.empty()) return invalid_argument("type a number, such as 0.1, 70000 or 1e-8.");
  errno = 0;
  char* end = nullptr;
  const double typed = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str() || *end != '\0') {
    return invalid_argument("'" + copy + "' is not a number: type one such as 0.1, 70000 or 1e-8.");
  }
  FormatRounding r;
  r.typed = typed;
  r.as_float = std::strtof(copy.c_str(), nullptr);
  r.decoded = decode(format, format_bits(format, r.as_float));
  const double value = r.decoded.value;
  if (std::isnan(typed) || std::isnan(value)) {
    r.absolute_error = std::isnan(typed) && std::isnan(value) ? 0.0 : HUGE_VAL;
  } else if (std::isinf(typed) && std::isinf(value) && (typed > 0) == (value > 0)) {
    r.absolute_error = 0;
  } else {
    r.absolute_error = std::fabs(value - typed);
  }
  r.relative_error = typed == 0 || std::isinf(typed) ? 0.0 : r.absolute_error / std::fabs(typed);
  r.overflowed = std::isfinite(typed) && std::isinf(value);
  r.underflowed = typed != 0 && value == 0;
  r.went_subnormal = r.decoded.kind == ValueKind::kSubnormal;
  return r;
}

}  // namespace tl::numeric
