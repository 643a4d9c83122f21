#include "lessons/11_convolution/convolution.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "core/format.hpp"
#include "core/parallel_chunks.hpp"

namespace tl::lessons {
namespace {

struct RungName {
  ConvRung rung;
  std::string_view name;
};
constexpr RungName kRungNames[] = {{ConvRung::kDirect, "direct"},
                                   {ConvRung::kTiled, "tiled"},
                                   {ConvRung::kIm2colGemm, "im2col-gemm"},
                                   {ConvRung::kImplicitGemm, "implicit-gemm"},
                                   {ConvRung::kTensorFp16, "tensor-fp16"}};

// The kernels index with int (and long long for the largest arrays): keep every array's element
// count within a signed 32-bit int, so that none of their int products can wrap.
constexpr std::uint64_t kMaxElements = 0x7FFFFFFFull;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::uint32_t output_side(std::uint32_t side, std::uint32_t filter, std::uint32_t stride,
                          std::uint32_t pad) {
  const std::uint64_t padded = std::uint64_t{side} + 2ull * pad;
  if (padded < filter || stride == 0) return 0;
  return static_cast<std::uint32_t>((padded - filter) / stride + 1);
}

}  // namespace

std::string_view to_string(ConvRung rung) {
  for (const RungName& entry : kRungNames) {
    if (entry.rung == rung) return entry.name;
  }
  return "?";
}

Result<ConvRung> parse_conv_rung(std::string_view text) {
  for (const RungName& entry : kRungNames) {
    if (entry.name == text) return entry.rung;
  }
  return invalid_argument("kernel: '" + std::string(text) +
                          "' is not a rung of the convolution ladder (direct, tiled, im2col-gemm, "
                          "implicit-gemm, tensor-fp16)");
}

std::uint32_t ConvShape::p() const {
  return output_side(h, r, stride, pad);
}
std::uint32_t ConvShape::q() const {
  return output_side(w, s, stride, pad);
}
kernels::ConvDims ConvShape::dims() const {
  auto i = [](std::uint32_t v) { return static_cast<int>(v); };
  return {i(n), i(c),      i(h),   i(w),   i(k),   i(r),
          i(s), i(stride), i(pad), i(p()), i(q()), nhwc ? 1 : 0};
}
std::uint64_t ConvShape::input_elements() const {
  return std::uint64_t{n} * c * h * w;
}
std::uint64_t ConvShape::weight_elements() const {
  return std::uint64_t{k} * c * r * s;
}
std::uint64_t ConvShape::output_elements() const {
  return std::uint64_t{n} * k * p() * q();
}
std::uint64_t ConvShape::reduction() const {
  return std::uint64_t{c} * r * s;
}
std::uint64_t ConvShape::im2col_elements() const {
  return std::uint64_t{n} * p() * q() * reduction();
}
std::string ConvShape::describe() const {
  return std::to_string(n) + "×" + std::to_string(c) + "×" + std::to_string(h) + "×" +
         std::to_string(w) + (nhwc ? " NHWC" : " NCHW") + ", " + std::to_string(k) + " filters " +
         std::to_string(r) + "×" + std::to_string(s) + ", stride " + std::to_string(stride) +
         ", pad " + std::to_string(pad);
}

Status validate_conv_shape(const ConvShape& shape, std::uint64_t max_bytes, int copies) {
  if (shape.n == 0 || shape.c == 0 || shape.h == 0 || shape.w == 0 || shape.k == 0) {
    return invalid_argument("batch, channels, filters and the image's sides must be at least 1");
  }
  if (shape.r == 0 || shape.s == 0 || shape.r > kernels::kConvMaxFilter ||
      shape.s > kernels::kConvMaxFilter) {
    return invalid_argument("filter: " + std::to_string(shape.r) + "×" + std::to_string(shape.s) +
                            " is outside 1 to " + std::to_string(kernels::kConvMaxFilter) +
                            " (the tiled kernel's shared patch is sized for that)");
  }
  if (shape.stride == 0 || shape.stride > kernels::kConvMaxStride) {
    return invalid_argument("stride: " + std::to_string(shape.stride) + " is outside 1 to " +
                            std::to_string(kernels::kConvMaxStride));
  }
  if (shape.pad >= shape.r || shape.pad >= shape.s) {
    return invalid_argument("pad: " + std::to_string(shape.pad) +
                            " must be smaller than the filter (" + std::to_string(shape.r) + "×" +
                            std::to_string(shape.s) +
                            "): a wider border only adds windows of zeros");
  }
  if (shape.p() == 0 || shape.q() == 0) {
    return invalid_argument("the " + std::to_string(shape.r) + "×" + std::to_string(shape.s) +
                            " filter does not fit the padded " + std::to_string(shape.h) + "×" +
                            std::to_string(shape.w) + " image: no output");
  }
  for (const auto& [what, count] :
       {std::pair{"the input", shape.input_elements()},
        std::pair{"the weights", shape.weight_elements()},
        std::pair{"the output", shape.output_elements()},
        std::pair{"im2col's unfolded matrix", shape.im2col_elements()}}) {
    if (count > kMaxElements) {
      return invalid_argument(std::string(what) + " of " + shape.describe() + " has " +
                              format_count(count) + " elements, more than the kernels' indices (" +
                              format_count(kMaxElements) + ")");
    }
  }
  const double needed = 4.0 *
                        static_cast<double>(shape.input_elements() + shape.weight_elements() +
                                            shape.output_elements()) *
                        copies;
  if (max_bytes > 0 && needed > static_cast<double>(max_bytes)) {
    return Error{ErrorKind::kOutOfMemory, shape.describe() + " needs " + format_bytes(needed) +
                                              " for input, weights and output, but only " +
                                              format_bytes(static_cast<double>(max_bytes)) +
                                              " is available."};
  }
  return Status::ok();
}

double conv_flops(const ConvShape& shape) {
  return 2.0 * static_cast<double>(shape.output_elements()) *
         static_cast<double>(shape.reduction());
}

double conv_bytes(const ConvShape& shape, int element_bytes) {
  return element_bytes * static_cast<double>(shape.input_elements() + shape.weight_elements()) +
         4.0 * static_cast<double>(shape.output_elements());
}

std::vector<float> conv_gemm_weights(const ConvShape& shape, std::span<const float> w_kcrs) {
  const std::uint64_t rows = shape.reduction();
  std::vector<float> g(rows * shape.k);
  for (std::uint32_t k = 0; k < shape.k; ++k) {
    for (std::uint32_t c = 0; c < shape.c; ++c) {
      for (std::uint32_t r = 0; r < shape.r; ++r) {
        for (std::uint32_t s = 0; s < shape.s; ++s) {
          const std::uint64_t row = shape.nhwc ? (std::uint64_t{r} * shape.s + s) * shape.c + c
                                               : (std::uint64_t{c} * shape.r + r) * shape.s + s;
          g[row * shape.k + k] =
              w_kcrs[((std::uint64_t{k} * shape.c + c) * shape.r + r) * shape.s + s];
        }
      }
    }
  }
  return g;
}

std::vector<float> conv_to_layout(const ConvShape& shape, std::span<const float> nchw,
                                  std::uint32_t channels, std::uint32_t height,
                                  std::uint32_t width) {
  if (!shape.nhwc) return {nchw.begin(), nchw.end()};
  std::vector<float> out(nchw.size());
  const std::uint64_t images = nchw.size() / (std::uint64_t{channels} * height * width);
  for (std::uint64_t n = 0; n < images; ++n) {
    for (std::uint32_t c = 0; c < channels; ++c) {
      for (std::uint32_t y = 0; y < height; ++y) {
        for (std::uint32_t x = 0; x < width; ++x) {
          out[((n * height + y) * width + x) * channels + c] =
              nchw[((n * channels + c) * height + y) * width + x];
        }
      }
    }
  }
  return out;
}

ConvReference conv_reference(const ConvShape& shape, std::span<const float> in,
                             std::span<const float> w_kcrs, unsigned threads) {
  const kernels::ConvDims d = shape.dims();
  ConvReference ref;
  ref.out.assign(shape.output_elements(), 0.0);
  ref.magnitude.assign(shape.output_elements(), 0.0);
  auto input_at = [&](int n, int c, int y, int x) {
    const std::uint64_t i = d.nhwc ? ((std::uint64_t(n) * d.h + y) * d.w + x) * d.c + c
                                   : ((std::uint64_t(n) * d.c + c) * d.h + y) * d.w + x;
    return static_cast<double>(in[i]);
  };
  // One (image, filter) plane per task: each writes only its own outputs.
  const std::size_t planes = std::size_t(d.n) * d.k;
  for_each_chunk(planes, threads, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t plane = begin; plane < end; ++plane) {
      const int n = static_cast<int>(plane / d.k);
      const int k = static_cast<int>(plane % d.k);
      for (int p = 0; p < d.p; ++p) {
        for (int q = 0; q < d.q; ++q) {
          double sum = 0, magnitude = 0;
          for (int c = 0; c < d.c; ++c) {
            for (int r = 0; r < d.r; ++r) {
              const int y = p * d.stride - d.pad + r;
              if (y < 0 || y >= d.h) continue;
              for (int s = 0; s < d.s; ++s) {
                const int x = q * d.stride - d.pad + s;
                if (x < 0 || x >= d.w) continue;
                const double term =
                    input_at(n, c, y, x) *
                    static_cast<double>(w_kcrs[((std::size_t(k) * d.c + c) * d.r + r) * d.s + s]);
                sum += term;
                magnitude += std::fabs(term);
              }
            }
          }
          const std::size_t o = d.nhwc ? ((std::size_t(n) * d.p + p) * d.q + q) * d.k + k
                                       : ((std::size_t(n) * d.k + k) * d.p + p) * d.q + q;
          ref.out[o] = sum;
          ref.magnitude[o] = magnitude;
        }
      }
    }
  });
  return ref;
}

std::string ConvCheck::describe() const {
  if (passed) return "check passed: every output matches the float64 reference";
  return "check FAILED: " + std::to_string(wrong_count) + " wrong output(s); first at index " +
         std::to_string(first_wrong) + ": expected " + number(expected) + ", got " +
         number(actual) + " (allowed ±" + number(allowed) + ")";
}

ConvCheck check_conv(const ConvShape& shape, const ConvReference& expected,
                     std::span<const float> got, double output_rounding) {
  ConvCheck check;
  const double per_magnitude =
      static_cast<double>(shape.reduction()) * 4.0 * std::numeric_limits<float>::epsilon() + 1e-6;
  for (std::size_t i = 0; i < got.size() && i < expected.out.size(); ++i) {
    const double allowed = per_magnitude * expected.magnitude[i] +
                           output_rounding * std::fabs(expected.out[i]) + 1e-30;
    const double actual = static_cast<double>(got[i]);
    if (std::fabs(actual - expected.out[i]) <= allowed) continue;  // false for NaN
    if (check.passed) {
      check.passed = false;
      check.first_wrong = i;
      check.expected = expected.out[i];
      check.actual = actual;
      check.allowed = allowed;
    }
    ++check.wrong_count;
  }
  if (got.size() != expected.out.size() && check.passed) {
    check.passed = false;
    check.wrong_count = 1;
    check.first_wrong = std::min(got.size(), expected.out.size());
  }
  return check;
}

}  // namespace tl::lessons
