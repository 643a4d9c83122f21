#include "core/plot/roofline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/device_ceilings.hpp"
#include "core/own_ceiling.hpp"

namespace tl::plot {
namespace {

// An H100's measured ceilings (docs/PERFORMANCE.md's figures, rounded): the copy and cuBLAS SGEMM.
constexpr double kCopy = 3.0e12;
constexpr double kSgemm = 51.0e12;

RooflineInputs h100_inputs() {
  RooflineInputs in;
  in.bandwidth_bytes_per_second = kCopy;
  in.bandwidth_name = "device copy";
  in.roofs.push_back({"cuBLAS SGEMM", kSgemm});
  return in;
}

TEST(Roofline, TheRidgeIsThePeakOverTheBandwidth) {
  EXPECT_DOUBLE_EQ(ridge_intensity(kSgemm, kCopy), 17.0);
  EXPECT_DOUBLE_EQ(ridge_intensity(kSgemm, 0), 0.0);
  EXPECT_DOUBLE_EQ(ridge_intensity(0, kCopy), 0.0);
}

TEST(Roofline, TheAttainableRateIsTheLowerOfSlopeAndRoof) {
  RooflineInputs in = h100_inputs();
  EXPECT_DOUBLE_EQ(*attainable_flops(in, 1.0), kCopy);
  EXPECT_DOUBLE_EQ(*attainable_flops(in, 17.0), kSgemm);
  EXPECT_DOUBLE_EQ(*attainable_flops(in, 1000.0), kSgemm);
  // A faster roof (tensor cores) is the one a high-intensity kernel meets.
  in.roofs.push_back({"cuBLAS FP16", 600e12});
  EXPECT_DOUBLE_EQ(*attainable_flops(in, 1000.0), 600e12);
  EXPECT_DOUBLE_EQ(*attainable_flops(in, 100.0), kCopy * 100.0);
  EXPECT_FALSE(attainable_flops(RooflineInputs{}, 1.0).has_value());
}

// A memory-bound kernel's height under its roof is its share of the bandwidth: the point's FLOP/s
// over the slope at its intensity is its achieved bytes/s over the copy's, the share column's
// figure (core/device_ceilings.hpp) for the same timing.
TEST(Roofline, AMemoryBoundKernelsHeightUnderTheSlopeIsItsShareOfTheBandwidth) {
  const double n = 268435456.0;  // vector add, 2^28 floats: 12 bytes and 1 flop each
  const double bytes = 12 * n;
  const double flops = n;
  const double ms = 1.166;
  RooflineInputs in = h100_inputs();
  DeviceCeilings device;
  device.copy_bytes_per_second = kCopy;
  device.sgemm_flops_per_second = kSgemm;
  const auto share = share_of_ceilings(bytes, flops, ms, device);
  ASSERT_TRUE(share.has_value());
  EXPECT_EQ(share->ceiling, "device copy");
  in.kernels.push_back({"vector add", bytes, flops, ms, share->share, "device copy"});
  const Roofline r = build_roofline(in);
  ASSERT_EQ(r.points.size(), 1u);
  const RooflinePoint& p = r.points[0];
  EXPECT_DOUBLE_EQ(p.intensity, 1.0 / 12.0);
  const double under_slope = p.flops_per_second / *attainable_flops(in, p.intensity);
  EXPECT_NEAR(under_slope, bytes / (ms * 1e-3) / kCopy, 1e-12);
  EXPECT_NEAR(under_slope, share->share, 1e-12);
  // The label carries the share column's figure, written as the column writes it.
  EXPECT_EQ(p.label, "vector add: " + format_share(share->share));
  EXPECT_EQ(format_share(share->share), "92%");
  // Below 10 %, two significant digits: the emulator's points read "0%" and "1%" before.
  EXPECT_EQ(format_share(0.0042), "0.42%");
  EXPECT_EQ(format_share(0.012), "1.2%");
  EXPECT_EQ(format_share(0.5), "50%");
  EXPECT_NE(p.detail.find("of the device copy"), std::string::npos) << p.detail;
}

TEST(Roofline, TheSlopeMeetsTheHighestRoofAtItsRidgeAndTheFrameHoldsEverything) {
  RooflineInputs in = h100_inputs();
  in.roofs.push_back({"cuBLAS FP16", 600e12});
  in.kernels.push_back({"naive", 12.0 * 4096 * 4096, 2.0 * 4096 * 4096 * 4096, 40.0, 0.1, "x"});
  in.kernels.push_back({"add", 12e6, 1e6, 0.01, 0.4, "device copy"});
  const Roofline r = build_roofline(in);
  ASSERT_EQ(r.points.size(), 2u);
  ASSERT_EQ(r.lines.size(), 3u);
  const RooflineLine& slope = r.lines[0];
  EXPECT_TRUE(slope.memory);
  EXPECT_DOUBLE_EQ(slope.x1, ridge_intensity(600e12, kCopy));
  EXPECT_DOUBLE_EQ(slope.y1, 600e12);
  EXPECT_NEAR(slope.y0 / slope.x0, kCopy, kCopy * 1e-12);
  // Each roof starts at its own ridge and runs flat to the frame's right edge.
  EXPECT_DOUBLE_EQ(r.lines[1].x0, 17.0);
  EXPECT_DOUBLE_EQ(r.lines[1].y0, r.lines[1].y1);
  EXPECT_DOUBLE_EQ(r.lines[2].x1, r.x.range.max);
  for (const RooflinePoint& p : r.points) {
    EXPECT_GT(p.intensity, r.x.range.min);
    EXPECT_LT(p.intensity, r.x.range.max);
    EXPECT_GT(p.flops_per_second, r.y.range.min);
    EXPECT_LT(p.flops_per_second, r.y.range.max);
  }
  EXPECT_LT(r.y.range.min, 600e12);
  EXPECT_GT(r.y.range.max, 600e12);
  EXPECT_FALSE(r.x.ticks.empty());
  EXPECT_FALSE(r.y.ticks.empty());
  EXPECT_TRUE(r.empty_reason.empty());
}

TEST(Roofline, KernelsWithoutArithmeticAreLeftOutAndSaySo) {
  RooflineInputs in = h100_inputs();
  in.kernels.push_back({"copy", 8e6, 0, 0.005, 0.53, "device copy"});
  const Roofline r = build_roofline(in);
  EXPECT_TRUE(r.points.empty());
  EXPECT_FALSE(r.empty_reason.empty());
  ASSERT_EQ(r.left_out.size(), 1u);
  EXPECT_NE(r.left_out[0].find("copy: moves bytes and computes nothing"), std::string::npos);
  EXPECT_NE(r.left_out[0].find("53 % of the device copy"), std::string::npos) << r.left_out[0];
  EXPECT_NE(build_roofline(RooflineInputs{}).empty_reason.find("Launch"), std::string::npos);
}

TEST(Roofline, WithoutAComputeRoofTheSlopeRunsAcrossTheFrame) {
  RooflineInputs in;
  in.bandwidth_bytes_per_second = 20e9;  // host memcpy on the emulator
  in.bandwidth_name = "host memcpy";
  in.kernels.push_back({"add", 12e6, 1e6, 2.0, 0.3, "host memcpy"});
  const Roofline r = build_roofline(in);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_TRUE(r.lines[0].memory);
  EXPECT_NEAR(r.lines[0].x1, r.x.range.max, r.x.range.max * 1e-9);
  EXPECT_LE(r.lines[0].y1, r.y.range.max * (1 + 1e-9));
}

TEST(Roofline, PointAndLineLabelsDoNotOverlapEachOtherOrTheMarkers) {
  RooflineInputs in = h100_inputs();
  in.roofs.push_back({"cuBLAS FP16", 600e12});
  // Six kernels of nearly one intensity and rate: their labels must find room around them.
  for (int i = 0; i < 6; ++i) {
    const double t = 1.0 + 0.03 * i;
    in.kernels.push_back({"rung " + std::to_string(i), 1e8, 2e10, t, 0.5, "cuBLAS SGEMM"});
  }
  const Roofline r = build_roofline(in);
  ASSERT_EQ(r.points.size(), 6u);
  const PixelRect area{60, 20, 860, 520};
  const std::vector<LabelSize> point_sizes(6, LabelSize{90, 16});
  const std::vector<LabelSize> line_sizes(r.lines.size(), LabelSize{200, 16});
  const double radius = 5;
  const RooflinePixels px = layout_roofline(r, area, point_sizes, line_sizes, radius, 4);
  ASSERT_EQ(px.point_labels.size(), 6u);
  ASSERT_EQ(px.line_labels.size(), r.lines.size());
  std::vector<PixelRect> labels = px.point_labels;
  labels.insert(labels.end(), px.line_labels.begin(), px.line_labels.end());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    EXPECT_GE(labels[i].left, area.left);
    EXPECT_LE(labels[i].right, area.right);
    EXPECT_GE(labels[i].top, area.top);
    EXPECT_LE(labels[i].bottom, area.bottom);
    for (std::size_t j = i + 1; j < labels.size(); ++j) {
      EXPECT_FALSE(rects_overlap(labels[i], labels[j])) << "labels " << i << " and " << j;
    }
    for (const PixelPoint& c : px.points) {
      const PixelRect marker{c.x - radius, c.y - radius, c.x + radius, c.y + radius};
      EXPECT_FALSE(rects_overlap(labels[i], marker)) << "label " << i;
    }
    for (std::size_t line = 0; line + 1 < px.line_ends.size(); line += 2) {
      EXPECT_FALSE(segment_crosses_rect(px.line_ends[line], px.line_ends[line + 1], labels[i]))
          << "label " << i << " crosses line " << line / 2;
    }
  }
  // A label placed away from its point has a leader line to it, from the point's centre.
  ASSERT_EQ(px.leaders.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const PixelRect& label = px.point_labels[i];
    const PixelPoint c = px.points[i];
    const double gap_x = std::max({label.left - c.x, c.x - label.right, 0.0});
    const double gap_y = std::max({label.top - c.y, c.y - label.bottom, 0.0});
    const bool far = std::hypot(gap_x, gap_y) > radius + 4 + 4;
    EXPECT_EQ(px.leaders[i].has_value(), far) << "point " << i;
    if (px.leaders[i]) EXPECT_EQ(px.leaders[i]->from, c);
  }
  // The points land where the view maps their data: the higher rate higher on screen.
  EXPECT_LT(px.points[0].y, px.points[5].y);
  EXPECT_DOUBLE_EQ(px.points[0].x, px.view.x_to_pixel(r.points[0].intensity));
}

// A point just above the slope (small data in the caches can beat the copy): the label to its
// right would sit across the rising line, so it goes where it crosses no line.
TEST(Roofline, ALabelDoesNotCrossACeilingLine) {
  RooflineInputs in;
  in.bandwidth_bytes_per_second = 10e9;
  in.bandwidth_name = "host memcpy";
  const double bytes = 12e6;
  const double flops = 1e6;
  const double ms = bytes / (10e9 * 1.1) * 1e3;  // 1.1 × the slope's rate
  in.kernels.push_back({"kernel, float4", bytes, flops, ms, 1.1, "host memcpy"});
  in.kernels.push_back({"kernel", bytes, flops, ms * 20, 0.05, "host memcpy"});
  const Roofline r = build_roofline(in);
  ASSERT_EQ(r.points.size(), 2u);
  const PixelRect area{80, 30, 780, 230};
  const std::vector<LabelSize> sizes(2, LabelSize{130, 16});
  const std::vector<LabelSize> line_sizes(r.lines.size(), LabelSize{260, 16});
  const RooflinePixels px = layout_roofline(r, area, sizes, line_sizes, 5, 4);
  ASSERT_EQ(px.line_ends.size(), 2u);
  for (const PixelRect& label : px.point_labels) {
    EXPECT_FALSE(segment_crosses_rect(px.line_ends[0], px.line_ends[1], label))
        << label.left << "," << label.top;
  }
  EXPECT_FALSE(segment_crosses_rect(px.line_ends[0], px.line_ends[1], px.line_labels[0]));
}

TEST(Roofline, ASegmentCrossesARectangleOnlyWhereItPassesThroughIt) {
  const PixelRect r{10, 10, 20, 20};
  EXPECT_TRUE(segment_crosses_rect({0, 0}, {30, 30}, r));    // through the middle
  EXPECT_TRUE(segment_crosses_rect({15, 15}, {40, 0}, r));   // from inside
  EXPECT_FALSE(segment_crosses_rect({0, 0}, {30, 5}, r));    // above it
  EXPECT_FALSE(segment_crosses_rect({0, 30}, {9, 0}, r));    // left of it
  EXPECT_FALSE(segment_crosses_rect({0, 25}, {30, 25}, r));  // flat, below it
  EXPECT_TRUE(segment_crosses_rect({0, 15}, {30, 15}, r));   // flat, through it
}

TEST(Roofline, OverlapIsAboutAreaNotTouchingEdges) {
  EXPECT_TRUE(rects_overlap({0, 0, 10, 10}, {5, 5, 15, 15}));
  EXPECT_FALSE(rects_overlap({0, 0, 10, 10}, {10, 0, 20, 10}));
  EXPECT_FALSE(rects_overlap({0, 0, 10, 10}, {0, 11, 10, 20}));
}

}  // namespace
}  // namespace tl::plot
