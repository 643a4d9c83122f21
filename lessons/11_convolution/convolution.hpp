#pragma once
// Lesson 11, convolution: who it is, the shapes it accepts, the rungs of its ladder, the float64
// CPU reference and the check. No CUDA here: the kernels are lessons/11_convolution/kernels/.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/lessons/catalog.hpp"
#include "core/result.hpp"
#include "lessons/11_convolution/kernels/convolution_shapes.hpp"

namespace tl::lessons {

inline constexpr LessonInfo kConvolutionInfo{
    11, "convolution", "Convolution",
    "A batch of images through a bank of filters: direct, tiled, im2col + GEMM, implicit GEMM on "
    "tensor cores, against cuDNN",
    "11_convolution"};
inline constexpr std::string_view kConvolutionId = kConvolutionInfo.id;

// The ladder, each rung one change.
enum class ConvRung : std::uint8_t {
  kDirect,        // one thread per output, everything from global memory
  kTiled,         // a shared patch with its halo, one channel at a time
  kIm2colGemm,    // unfold, then lesson 4's pipelined FP32 GEMM
  kImplicitGemm,  // the same product without the unfolded matrix, register-tiled FP32
  kTensorFp16,    // the implicit GEMM on tensor cores, FP16 in, FP32 accumulation (GPU only)
};
inline constexpr ConvRung kConvRungs[] = {ConvRung::kDirect, ConvRung::kTiled,
                                          ConvRung::kIm2colGemm, ConvRung::kImplicitGemm,
                                          ConvRung::kTensorFp16};
[[nodiscard]] std::string_view to_string(ConvRung rung);  // "im2col-gemm"
Result<ConvRung> parse_conv_rung(std::string_view text);

struct ConvShape {
  std::uint32_t n = 1, c = 1, h = 1, w = 1;  // batch, channels in, image height, width
  std::uint32_t k = 1, r = 3, s = 3;         // filters (channels out), filter height, width
  std::uint32_t stride = 1, pad = 1;
  bool nhwc = false;
  [[nodiscard]] std::uint32_t p() const;  // output height; 0 where the filter does not fit
  [[nodiscard]] std::uint32_t q() const;
  [[nodiscard]] kernels::ConvDims dims() const;
  [[nodiscard]] std::uint64_t input_elements() const;
  [[nodiscard]] std::uint64_t weight_elements() const;  // K·C·R·S
  [[nodiscard]] std::uint64_t output_elements() const;  // N·K·P·Q
  [[nodiscard]] std::uint64_t reduction() const;        // C·R·S
  // The unfolded matrix of im2col: every window of every image, N·P·Q × C·R·S elements.
  [[nodiscard]] std::uint64_t im2col_elements() const;
  [[nodiscard]] std::string describe()
      const;  // "32×64×56×56 NCHW, 64 filters 3×3, stride 1, pad 1"
};

// Limits: sides and filters at least 1, filters up to kConvMaxFilter, stride up to kConvMaxStride,
// padding below the filter (a window entirely in the padding computes nothing), an output of at
// least 1 × 1, every array within the kernels' int indices and, with `copies` of each (2 on the
// emulator), `max_bytes` (0: no memory check).
Status validate_conv_shape(const ConvShape& shape, std::uint64_t max_bytes = 0, int copies = 1);

// Multiply-adds count twice; the minimum traffic reads the input and the weights once and writes
// the output once, in `element_bytes` per input element (4 for FP32, 2 for FP16; output floats).
[[nodiscard]] double conv_flops(const ConvShape& shape);
[[nodiscard]] double conv_bytes(const ConvShape& shape, int element_bytes = 4);

// The weights as the implicit GEMMs and im2col read them: a (C·R·S) × K row-major matrix whose row
// for (c, r, s) is numbered c·R·S + r·S + s for NCHW and (r·S + s)·C + c for NHWC, from KCRS
// weights w[k][c][r][s].
[[nodiscard]] std::vector<float> conv_gemm_weights(const ConvShape& shape,
                                                   std::span<const float> w_kcrs);
// The activations of `shape` given as NCHW, rearranged to the shape's layout (a copy for NCHW).
[[nodiscard]] std::vector<float> conv_to_layout(const ConvShape& shape, std::span<const float> nchw,
                                                std::uint32_t channels, std::uint32_t height,
                                                std::uint32_t width);

// The float64 reference: every output of `shape` (in its layout) from `in` (in its layout) and KCRS
// weights, and each output's sum of |in · w| over its window, which bounds the rounding error any
// order of float additions can make.
struct ConvReference {
  std::vector<double> out;
  std::vector<double> magnitude;
};
ConvReference conv_reference(const ConvShape& shape, std::span<const float> in,
                             std::span<const float> w_kcrs, unsigned threads = 0);

struct ConvCheck {
  bool passed = true;
  std::uint64_t wrong_count = 0;
  std::uint64_t first_wrong = 0;
  double expected = 0;
  double actual = 0;
  double allowed = 0;
  [[nodiscard]] std::string describe() const;
};
// `got` against the reference: each element within (reduction · 4 · 2⁻²³ + 1e-6) · magnitude of the
// float64 value (FP32 sums of `reduction` products in any order stay well inside that; a wrong
// window, a missing channel or a shifted pixel is off by a sizeable share of the magnitude), plus
// `output_rounding` × |value| for outputs stored in a narrower format (FP16: 2⁻¹¹). A NaN, the
// value of an output never written, always fails.
ConvCheck check_conv(const ConvShape& shape, const ConvReference& expected,
                     std::span<const float> got, double output_rounding = 0);

}  // namespace tl::lessons
