#include "lessons/08_precision/precision.hpp"

#include <bit>
#include <cmath>
#include <random>

#include "core/parallel_chunks.hpp"

namespace tl::lessons {
namespace {

constexpr PrecisionVariant kVariants[] = {
    {FloatFormat::kFp32, Accumulate::kFp32},       {FloatFormat::kTf32, Accumulate::kFp32},
    {FloatFormat::kFp16, Accumulate::kSameFormat}, {FloatFormat::kFp16, Accumulate::kFp32},
    {FloatFormat::kBf16, Accumulate::kSameFormat}, {FloatFormat::kBf16, Accumulate::kFp32},
};

// Neumaier's compensated sum of float64 terms.
struct CompensatedSum {
  double sum = 0;
  double compensation = 0;
  void add(double x) {
    const double t = sum + x;
    compensation += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  [[nodiscard]] double value() const { return sum + compensation; }
};

}  // namespace

std::string_view to_string(PrecisionData data) {
  switch (data) {
    case PrecisionData::kUniform:
      return "uniform";
    case PrecisionData::kSigned:
      return "signed";
    case PrecisionData::kLarge:
      return "large";
    case PrecisionData::kTiny:
      return "tiny";
  }
  return "?";
}

Result<PrecisionData> parse_precision_data(std::string_view text) {
  for (PrecisionData d : {PrecisionData::kUniform, PrecisionData::kSigned, PrecisionData::kLarge,
                          PrecisionData::kTiny}) {
    if (text == to_string(d)) return d;
  }
  return invalid_argument("unknown data '" + std::string(text) +
                          "': use uniform, signed, large or tiny.");
}

std::string_view to_string(Accumulate accumulate) {
  return accumulate == Accumulate::kFp32 ? "fp32" : "same";
}

Result<Accumulate> parse_accumulate(std::string_view text) {
  if (text == "fp32") return Accumulate::kFp32;
  if (text == "same") return Accumulate::kSameFormat;
  return invalid_argument("unknown accumulator '" + std::string(text) + "': use same or fp32.");
}

std::span<const PrecisionVariant> precision_variants() {
  return kVariants;
}

std::string variant_key(const PrecisionVariant& variant) {
  return std::string(numeric::to_string(variant.format)) + "-" +
         std::string(to_string(variant.accumulate));
}

std::string variant_label(const PrecisionVariant& variant) {
  const std::string format(numeric::display_name(variant.format));
  if (variant.format == FloatFormat::kFp32) return "FP32";
  if (variant.accumulate == Accumulate::kSameFormat) return format + ", " + format + " sums";
  return format + " inputs, FP32 sums";
}

Status validate_precision(const PrecisionParams& p) {
  if (p.n < 1 || p.n > (std::uint64_t{1} << 30)) {
    return invalid_argument("the dot product's n must be from 1 to 2^30, not " +
                            std::to_string(p.n) + ".");
  }
  if (p.size < 1 || p.size > 4096) {
    return invalid_argument("the matrix size must be from 1 to 4096, not " +
                            std::to_string(p.size) + ".");
  }
  if (p.block < 32 || p.block > kernels::kPrecisionDotMaxBlock || (p.block & (p.block - 1)) != 0) {
    return invalid_argument("the dot product's block must be a power of two from 32 to 1024, not " +
                            std::to_string(p.block) + ".");
  }
  if (p.blocks < 1 || p.blocks > 65535) {
    return invalid_argument("the dot product's blocks must be from 1 to 65535, not " +
                            std::to_string(p.blocks) + ".");
  }
  return kernels::check_accumulator(p.drawn.format, p.drawn.accumulate);
}

std::vector<float> make_precision_data(std::uint64_t n, PrecisionData data, std::uint32_t seed) {
  std::mt19937 engine(seed);
  // Uniform floats from the engine's bits, not std::uniform_real_distribution, whose algorithm
  // the standard leaves to each library: the same seed gives the same data everywhere.
  auto unit = [&engine] { return static_cast<float>(engine() >> 8) * 0x1p-24f; };  // [0, 1)
  std::vector<float> values(n);
  for (float& v : values) {
    const float u = unit();
    switch (data) {
      case PrecisionData::kUniform:
        v = u;
        break;
      case PrecisionData::kSigned:
        v = 2.0f * u - 1.0f;
        break;
      case PrecisionData::kLarge:
        v = 100.0f + 200.0f * u;
        break;
      case PrecisionData::kTiny:
        v = 1e-5f + 1e-5f * u;
        break;
    }
  }
  return values;
}

std::vector<float> rounded_copy(std::span<const float> values, FloatFormat format) {
  std::vector<float> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    out[i] = numeric::round_float_to(format, values[i]);
  return out;
}

double exact_dot(std::span<const float> a, std::span<const float> b) {
  CompensatedSum sum;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sum.add(static_cast<double>(a[i]) * static_cast<double>(b[i]));
  }
  return sum.value();
}

double abs_dot(std::span<const float> a, std::span<const float> b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sum += std::fabs(static_cast<double>(a[i]) * static_cast<double>(b[i]));
  }
  return sum;
}

void reference_matmul(std::span<const float> a, std::span<const float> b, std::uint32_t size,
                      std::span<double> c, std::span<double> magnitudes) {
  const std::size_t s = size;
  for_each_chunk(s, 0, 8, [&](std::size_t begin, std::size_t end) {
    std::vector<double> row(s), row_abs(s);
    for (std::size_t i = begin; i < end; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      std::fill(row_abs.begin(), row_abs.end(), 0.0);
      for (std::size_t k = 0; k < s; ++k) {
        const double aik = a[i * s + k];
        for (std::size_t j = 0; j < s; ++j) {
          const double p = aik * static_cast<double>(b[k * s + j]);
          row[j] += p;
          row_abs[j] += std::fabs(p);
        }
      }
      std::copy(row.begin(), row.end(), c.begin() + static_cast<std::ptrdiff_t>(i * s));
      std::copy(row_abs.begin(), row_abs.end(),
                magnitudes.begin() + static_cast<std::ptrdiff_t>(i * s));
    }
  });
}

std::uint64_t dot_depth(std::uint64_t n, std::uint32_t block, std::uint32_t blocks) {
  const std::uint64_t threads = std::uint64_t{block} * blocks;
  const std::uint64_t chain = (n + threads - 1) / threads;
  return chain + static_cast<std::uint64_t>(std::countr_zero(block)) + blocks;
}

double error_bound(std::uint64_t depth, double unit_roundoff, double magnitude) {
  return 1.01 * static_cast<double>(depth) * unit_roundoff * magnitude;
}

double relative_rms_error(std::span<const float> c, std::span<const double> reference) {
  double error = 0;
  double norm = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double d = static_cast<double>(c[i]) - reference[i];
    error += d * d;
    norm += reference[i] * reference[i];
  }
  if (norm == 0) return std::sqrt(error);
  return std::sqrt(error / norm);
}

std::span<const char* const> showcase_values() {
  static const char* const kValues[] = {"1",     "0.1",  "0.333333333", "65504",
                                        "70000", "1e-5", "1e-8",        "3e38"};
  return kValues;
}

}  // namespace tl::lessons
