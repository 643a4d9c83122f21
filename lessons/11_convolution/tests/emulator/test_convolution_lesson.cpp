// Lesson 11's model and its Lesson on the CPU emulator: the float64 reference against sums worked
// out by hand, the check catching what a wrong kernel does, the shapes refused with their reason,
// and a timed run whose every rung is checked, the tensor-core and cuDNN rows greyed with why.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "lessons/11_convolution/convolution.hpp"
#include "lessons/11_convolution/convolution_runner.hpp"

namespace tl::lessons {
namespace {

ConvShape small(bool nhwc) {
  ConvShape s;
  s.n = 1;
  s.c = 2;
  s.h = 3;
  s.w = 4;
  s.k = 2;
  s.r = s.s = 3;
  s.stride = 1;
  s.pad = 1;
  s.nhwc = nhwc;
  return s;
}

TEST(ConvolutionModel, ReferenceMatchesSumsWorkedOutByHand) {
  // Input channel 0 is 1 2 3 4 / 5 6 7 8 / 9 10 11 12, channel 1 all ones (NCHW). Filter 0 is all
  // ones on channel 0 and zeros on channel 1: its output is the sum of each 3 × 3 neighbourhood.
  // Filter 1 is the centre weight 2 on channel 1 alone: its output is 2 everywhere.
  const ConvShape s = small(false);
  std::vector<float> in(24, 1.0f);
  for (int i = 0; i < 12; ++i) in[i] = static_cast<float>(i + 1);
  std::vector<float> w(36, 0.0f);
  for (int i = 0; i < 9; ++i) w[i] = 1.0f;  // filter 0, channel 0
  w[18 + 9 + 4] = 2.0f;                     // filter 1, channel 1, centre
  const ConvReference ref = conv_reference(s, in, w, 1);
  ASSERT_EQ(ref.out.size(), 24u);
  // Corner (0, 0): 1 + 2 + 5 + 6. Centre (1, 1): 1 + 2 + 3 + 5 + 6 + 7 + 9 + 10 + 11. Edge (2, 3):
  // 7 + 8 + 11 + 12.
  EXPECT_EQ(ref.out[0], 14.0);
  EXPECT_EQ(ref.out[1 * 4 + 1], 54.0);
  EXPECT_EQ(ref.out[2 * 4 + 3], 38.0);
  for (int i = 12; i < 24; ++i) EXPECT_EQ(ref.out[i], 2.0) << i;

  // The same in NHWC: the input and the output rearranged, the sums the same.
  const ConvShape t = small(true);
  const std::vector<float> in_nhwc = conv_to_layout(t, in, 2, 3, 4);
  const ConvReference ref_nhwc = conv_reference(t, in_nhwc, w, 1);
  EXPECT_EQ(ref_nhwc.out[0], 14.0);                   // pixel (0, 0), filter 0
  EXPECT_EQ(ref_nhwc.out[(1 * 4 + 1) * 2], 54.0);     // pixel (1, 1), filter 0
  EXPECT_EQ(ref_nhwc.out[(2 * 4 + 3) * 2 + 1], 2.0);  // pixel (2, 3), filter 1
}

TEST(ConvolutionModel, StrideAndPaddingGiveTheDocumentedOutputSize) {
  ConvShape s = small(false);
  s.h = 17;
  s.w = 17;
  s.r = s.s = 5;
  s.stride = 2;
  s.pad = 0;
  EXPECT_EQ(s.p(), 7u);  // (17 - 5) / 2 + 1
  s.pad = 2;
  EXPECT_EQ(s.q(), 9u);  // (17 + 4 - 5) / 2 + 1
  EXPECT_EQ(s.im2col_elements(), std::uint64_t{1} * 9 * 9 * 2 * 25);
}

TEST(ConvolutionModel, CheckCatchesUnwrittenAndShiftedOutputs) {
  const ConvShape s = small(false);
  std::vector<float> in(24), w(36);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = std::sin(static_cast<float>(i));
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::cos(static_cast<float>(i));
  const ConvReference ref = conv_reference(s, in, w);
  std::vector<float> got(ref.out.begin(), ref.out.end());
  EXPECT_TRUE(check_conv(s, ref, got).passed);
  std::vector<float> unwritten = got;
  unwritten[5] = std::numeric_limits<float>::quiet_NaN();
  const ConvCheck nan = check_conv(s, ref, unwritten);
  EXPECT_FALSE(nan.passed);
  EXPECT_EQ(nan.first_wrong, 5u);
  // One output plane shifted by a pixel, as an off-by-one window would.
  std::vector<float> shifted = got;
  std::rotate(shifted.begin(), shifted.begin() + 1, shifted.begin() + 12);
  EXPECT_FALSE(check_conv(s, ref, shifted).passed);
}

TEST(ConvolutionModel, GemmWeightsFollowTheLayoutsReductionOrder) {
  ConvShape s = small(false);
  std::vector<float> w(36);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);
  // Weight (k = 1, c = 1, r = 2, s = 0) is KCRS index ((1 · 2 + 1) · 3 + 2) · 3 + 0 = 33.
  const std::vector<float> nchw = conv_gemm_weights(s, w);
  EXPECT_EQ(nchw[((1 * 3 + 2) * 3 + 0) * 2 + 1], 33.0f);  // row (c, r, s)
  s.nhwc = true;
  const std::vector<float> nhwc = conv_gemm_weights(s, w);
  EXPECT_EQ(nhwc[((2 * 3 + 0) * 2 + 1) * 2 + 1], 33.0f);  // row (r, s, c)
}

TEST(ConvolutionModel, RefusesShapesWithTheirReason) {
  ConvShape s = small(false);
  s.pad = 3;
  EXPECT_NE(validate_conv_shape(s).message().find("smaller than the filter"), std::string::npos);
  s = small(false);
  s.r = s.s = 9;
  EXPECT_NE(validate_conv_shape(s).message().find("outside 1 to 7"), std::string::npos);
  s = small(false);
  s.stride = 3;
  EXPECT_FALSE(validate_conv_shape(s).is_ok());
  s = small(false);
  s.h = 1;
  s.pad = 0;  // a 3 × 3 filter on a 1-pixel-high image, no padding: nothing fits
  EXPECT_NE(validate_conv_shape(s).message().find("does not fit"), std::string::npos);
  EXPECT_FALSE(parse_conv_rung("winograd").is_ok());
}

}  // namespace
}  // namespace tl::lessons

namespace tl::compute {
namespace {

TEST(ConvolutionLesson, TimedRunOnTheEmulatorChecksEveryRungAndSaysWhyTheOthersAreMissing) {
  auto lesson = make_lesson("convolution");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  (*lesson)->set_repeats(1);
  ASSERT_TRUE((*lesson)
                  ->configure({{"batch", "2"},
                               {"channels", "3"},
                               {"filters", "5"},
                               {"image_height", "11"},
                               {"image_width", "9"},
                               {"stride", "2"},
                               {"layout", "nchw"},
                               {"kernel", "tiled"}})
                  .is_ok());
  auto device = make_emulator_device();
  auto report = (*lesson)->run_timed(*device, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
  for (const char* rung : {"direct", "tiled", "im2col-gemm", "implicit-gemm"}) {
    const TimingRow* row = report->find({TimingRole::kKernel, rung});
    ASSERT_NE(row, nullptr) << rung;
    EXPECT_FALSE(row->stats.empty()) << rung;
  }
  // The tensor rung's row is there, untimed, and a note says why; cuDNN's too.
  const TimingRow* tensor = report->find({TimingRole::kKernel, "tensor-fp16"});
  ASSERT_NE(tensor, nullptr);
  EXPECT_TRUE(tensor->stats.empty());
  auto has_note = [&](const std::string& text) {
    return std::any_of(report->notes.begin(), report->notes.end(), [&](const std::string& note) {
      return note.find(text) != std::string::npos;
    });
  };
  EXPECT_TRUE(has_note("tensor-core rung uses WMMA"));
  EXPECT_TRUE(has_note("cuDNN runs on a GPU"));
  EXPECT_TRUE(has_note("im2col's unfolded matrix holds"));
  // No rung failed its check quietly.
  EXPECT_FALSE(has_note("check FAILED"));
}

TEST(ConvolutionLesson, RefusesTheTensorRungOnTheEmulatorWithTheReason) {
  auto lesson = make_lesson("convolution");
  ASSERT_TRUE(lesson.is_ok());
  ASSERT_TRUE((*lesson)
                  ->configure({{"batch", "1"},
                               {"channels", "8"},
                               {"filters", "8"},
                               {"image_height", "8"},
                               {"image_width", "8"},
                               {"kernel", "tensor-fp16"}})
                  .is_ok());
  auto device = make_emulator_device();
  auto report = (*lesson)->run_timed(*device, nullptr);
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("WMMA"), std::string::npos) << report.message();
}

}  // namespace
}  // namespace tl::compute

// The tensor rung's resident form is a GPU kernel; where it runs, with what grid and how much
// shared memory, is plain host arithmetic, checked here without a GPU.
namespace tl::compute {
namespace {

lessons::ConvShape resnet_nhwc() {
  lessons::ConvShape s;
  s.n = 32;
  s.c = 64;
  s.h = s.w = 56;
  s.k = 64;
  s.r = s.s = 3;
  s.stride = 1;
  s.pad = 1;
  s.nhwc = true;
  return s;
}

// Hopper's and the data-centre Blackwells' 227 KiB a block; the A100's 163 KiB.
constexpr ConvTarget kHopper{132, 232448};
constexpr ConvTarget kA100{108, 166912};

TEST(ConvolutionResidentForm, TakesTheResNetLayerOnHopperAndNotWhereItsSharedMemoryDoesNotFit) {
  const lessons::ConvShape s = resnet_nhwc();
  // The weights' 3·3·64 rows of 72 halves, two chunks of 256 + 2·58 + 2 pixels of 80 halves, and
  // eight 16 × 20-float staging tiles: 82,944 + 2 · 59,904 (rounded to 128 bytes) + 10,240.
  EXPECT_EQ(kernels::conv_resident_shared_bytes(s.dims()), 82944 + 2 * 59904 + 10240);
  EXPECT_TRUE(conv_tensor_resident(s, kHopper));
  EXPECT_EQ(conv_tensor_kernel(s, kHopper), "conv_implicit_gemm_fp16_resident");
  EXPECT_FALSE(conv_tensor_resident(s, kA100));
  EXPECT_EQ(conv_tensor_kernel(s, kA100), "conv_implicit_gemm_fp16_3x3x64");
  EXPECT_FALSE(conv_tensor_resident(s, ConvTarget{}));  // no device known yet: the tile's launch
  // Every other shape takes the tile, with its reason in the shape: the layout, the stride, the
  // filter, the channels, filters that are no multiple of 8, an image too wide for the chunk.
  auto changed = [&](auto change) {
    lessons::ConvShape t = s;
    change(t);
    return conv_tensor_resident(t, kHopper);
  };
  EXPECT_FALSE(changed([](lessons::ConvShape& t) { t.nhwc = false; }));
  EXPECT_FALSE(changed([](lessons::ConvShape& t) { t.stride = 2; }));
  EXPECT_FALSE(changed([](lessons::ConvShape& t) { t.r = t.s = 5; }));
  EXPECT_FALSE(changed([](lessons::ConvShape& t) { t.c = 32; }));
  EXPECT_FALSE(changed([](lessons::ConvShape& t) { t.k = 60; }));
  EXPECT_FALSE(changed([](lessons::ConvShape& t) { t.w = 224; }));
  EXPECT_TRUE(changed([](lessons::ConvShape& t) {
    t.n = 3;
    t.h = 13;
    t.w = 21;
    t.k = 136;
    t.pad = 0;
  }));
  lessons::ConvShape other = s;
  other.c = 32;
  EXPECT_EQ(conv_tensor_kernel(other, kHopper), "conv_implicit_gemm_fp16");
}

TEST(ConvolutionResidentForm, RunsOneBlockPerMultiprocessorSharedAmongTheFilterSlices) {
  const lessons::ConvShape s = resnet_nhwc();
  // 31 padded images of 58 × 58 and the last one's 56 output rows of 58: 6,720.5 rows of 16.
  EXPECT_EQ(kernels::conv_resident_rows(s.dims()), (31LL * 58 * 58 + 56 * 58 + 15) / 16);
  const LaunchConfig resident = conv_launch_config(s, lessons::ConvRung::kTensorFp16, {}, kHopper);
  EXPECT_EQ(resident.grid, (Dim3{132, 1, 1}));
  EXPECT_EQ(resident.block, (Dim3{256, 1, 1}));
  // 136 filters are three 64-filter slices: 44 blocks each.
  lessons::ConvShape wide = s;
  wide.k = 136;
  EXPECT_EQ(conv_launch_config(wide, lessons::ConvRung::kTensorFp16, {}, kHopper).grid,
            (Dim3{44, 3, 1}));
  // A tiny layer: no more blocks than chunks of 16 rows to share.
  lessons::ConvShape tiny = s;
  tiny.n = 1;
  tiny.h = tiny.w = 8;
  EXPECT_EQ(kernels::conv_resident_rows(tiny.dims()), (8 * 10 + 15) / 16);
  EXPECT_EQ(conv_launch_config(tiny, lessons::ConvRung::kTensorFp16, {}, kHopper).grid,
            (Dim3{1, 1, 1}));
  // Without the device the tensor rung shows its tile's launch: one block per 128 × 64 tile.
  EXPECT_EQ(conv_launch_config(s, lessons::ConvRung::kTensorFp16, {}, ConvTarget{}).grid,
            (Dim3{784, 1, 1}));
}

}  // namespace
}  // namespace tl::compute
