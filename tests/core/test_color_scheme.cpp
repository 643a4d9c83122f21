#include <gtest/gtest.h>

#include <cmath>

#include "core/color_scheme.hpp"

namespace tl {
namespace {

TraceRecord written(std::uint32_t block, std::uint32_t thread, std::uint32_t sm_plus_one = 0,
                    std::uint32_t writes = 1) {
  return {block, thread | (sm_plus_one << kTraceSmShift), 0, writes};
}

// Euclidean distance in 8-bit sRGB: crude, but enough to say "clearly different".
double distance(const Rgb& a, const Rgb& b) {
  const auto x = to_rgb8(a);
  const auto y = to_rgb8(b);
  double sum = 0;
  for (int c = 0; c < 3; ++c)
    sum += std::pow(static_cast<double>(x[c]) - static_cast<double>(y[c]), 2);
  return std::sqrt(sum);
}

double luminance(const Rgb& c) {
  return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
}

TEST(ColorScheme, NamesRoundTrip) {
  for (const ColorBy mode : all_color_modes()) {
    Result<ColorBy> parsed = parse_color_by(to_string(mode));
    ASSERT_TRUE(parsed.is_ok());
    EXPECT_EQ(*parsed, mode);
    EXPECT_FALSE(describe(mode).empty());
  }
  EXPECT_EQ(to_string(ColorBy::kSm), "sm");
  EXPECT_EQ(all_color_modes().size(), 6u);
}

TEST(ColorScheme, UnknownNameListsTheChoices) {
  Result<ColorBy> parsed = parse_color_by("rainbow");
  ASSERT_FALSE(parsed.is_ok());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(parsed.message().find("rainbow"), std::string::npos);
  EXPECT_NE(parsed.message().find("writes"), std::string::npos);
}

TEST(ColorScheme, NeighbouringCategoriesAreClearlyDifferent) {
  for (std::uint32_t i = 0; i < 4096; ++i) {
    EXPECT_GT(distance(categorical_color(i), categorical_color(i + 1)), 40.0) << i;
  }
  // Far-away indices still give valid colours (integer hashing, no float blow-up).
  const Rgb far = categorical_color(0xFFFFFFF0u);
  EXPECT_GE(far.r, 0.0f);
  EXPECT_LE(far.r, 1.0f);
}

TEST(ColorScheme, CategoricalColoursAreInRangeAndDeterministic) {
  for (std::uint32_t i = 0; i < 1000; ++i) {
    const Rgb c = categorical_color(i * 7919u);
    for (float v : {c.r, c.g, c.b}) {
      EXPECT_GE(v, 0.0f);
      EXPECT_LE(v, 1.0f);
    }
    EXPECT_EQ(c, categorical_color(i * 7919u));
  }
}

TEST(ColorScheme, ThreadGradientGetsLighterWithTheThreadIndex) {
  double previous = -1;
  for (int step = 0; step <= 16; ++step) {
    const double l = luminance(sequential_color(static_cast<float>(step) / 16.0f));
    EXPECT_GT(l, previous) << step;
    previous = l;
  }
  EXPECT_EQ(sequential_color(-1.0f), sequential_color(0.0f));
  EXPECT_EQ(sequential_color(2.0f), sequential_color(1.0f));
  // First and last thread of a block are the ends of the ramp.
  EXPECT_EQ(color_for(ColorBy::kThread, written(0, 0), 256, 32), sequential_color(0.0f));
  EXPECT_EQ(color_for(ColorBy::kThread, written(0, 255), 256, 32), sequential_color(1.0f));
}

TEST(ColorScheme, WriteCountsHaveThreeDistinctColours) {
  EXPECT_EQ(color_for(ColorBy::kWrites, TraceRecord{}, 256, 32), kUnwrittenColor);
  EXPECT_EQ(color_for(ColorBy::kWrites, written(3, 4, 0, 1), 256, 32), kWrittenOnceColor);
  EXPECT_EQ(color_for(ColorBy::kWrites, written(3, 4, 0, 2), 256, 32), kWrittenTwiceColor);
  EXPECT_EQ(color_for(ColorBy::kWrites, written(3, 4, 0, 9), 256, 32), kWrittenTwiceColor);
  EXPECT_GT(distance(kUnwrittenColor, kWrittenOnceColor), 100.0);
  EXPECT_GT(distance(kWrittenOnceColor, kWrittenTwiceColor), 100.0);
  EXPECT_GT(distance(kUnwrittenColor, kWrittenTwiceColor), 100.0);
}

TEST(ColorScheme, UnwrittenElementsLookTheSameInEveryMode) {
  for (const ColorBy mode : all_color_modes()) {
    EXPECT_EQ(color_for(mode, TraceRecord{}, 128, 32), kUnwrittenColor) << to_string(mode);
  }
}

TEST(ColorScheme, PassModeReadsTheGridStrideIterationAndNeighboursDiffer) {
  TraceRecord record = written(4, 9);
  for (std::uint32_t pass = 0; pass < 8; ++pass) {
    record.iteration = pass;
    EXPECT_EQ(color_for(ColorBy::kPass, record, 256, 32), categorical_color(pass));
    if (pass > 0) {
      EXPECT_GT(distance(categorical_color(pass - 1), categorical_color(pass)), 20.0) << pass;
    }
  }
  EXPECT_EQ(*parse_color_by("pass"), ColorBy::kPass);
}

TEST(ColorScheme, ModesReadTheRightFields) {
  EXPECT_EQ(color_for(ColorBy::kBlock, written(17, 3), 64, 32), categorical_color(17));
  // Warps are numbered across the grid: block 2 of 64 threads has warps 4 and 5.
  EXPECT_EQ(global_warp_index(2, 40, 64, 32), 5u);
  EXPECT_EQ(color_for(ColorBy::kWarp, written(2, 40), 64, 32), categorical_color(5));
  // A block of 48 threads still has two warps (the second one half full).
  EXPECT_EQ(global_warp_index(1, 0, 48, 32), 2u);
  EXPECT_EQ(color_for(ColorBy::kSm, written(0, 0, 4), 64, 32), categorical_color(3));
  EXPECT_EQ(color_for(ColorBy::kSm, written(0, 0, 0), 64, 32), kUnknownSmColor);
}

TEST(ColorScheme, IdleThreadHatchAlternatesAlongDiagonals) {
  EXPECT_FALSE(idle_thread_stripe(0, 0));
  EXPECT_TRUE(idle_thread_stripe(4, 0));
  EXPECT_TRUE(idle_thread_stripe(2, 2));
  EXPECT_FALSE(idle_thread_stripe(4, 4));
  EXPECT_NE(idle_thread_color(true), idle_thread_color(false));
  // Idle cells are dim: darker than any written element colour's typical lightness.
  EXPECT_LT(luminance(idle_thread_color(true)), 0.35);
}

TEST(ColorScheme, GridLinesDarkenTheCell) {
  const Rgb cell{0.5f, 0.8f, 1.0f};
  const Rgb line = shade_grid_line(cell);
  EXPECT_LT(line.r, cell.r);
  EXPECT_LT(line.g, cell.g);
  EXPECT_LT(line.b, cell.b);
  EXPECT_EQ(to_rgb8({1.0f, 0.0f, 0.5f}), (std::array<std::uint8_t, 3>{255, 0, 128}));
}

}  // namespace
}  // namespace tl
