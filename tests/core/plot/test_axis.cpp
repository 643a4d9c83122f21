#include "core/plot/axis.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tl::plot {
namespace {

std::vector<double> major_values(const std::vector<AxisTick>& ticks) {
  std::vector<double> values;
  for (const AxisTick& t : ticks) {
    if (t.major) values.push_back(t.value);
  }
  return values;
}

std::vector<std::string> labels(const std::vector<AxisTick>& ticks) {
  std::vector<std::string> out;
  for (const AxisTick& t : ticks) {
    if (!t.label.empty()) out.push_back(t.label);
  }
  return out;
}

TEST(DataRange, SkipsNonFiniteAndNonPositiveOnLog) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> values{nan, 0.0, -5.0, 3.0, 300.0};
  const auto linear = data_range(values, AxisScale::kLinear);
  ASSERT_TRUE(linear);
  EXPECT_EQ(*linear, (AxisRange{-5.0, 300.0}));
  const auto log = data_range(values, AxisScale::kLog10);
  ASSERT_TRUE(log);
  EXPECT_EQ(*log, (AxisRange{3.0, 300.0}));
}

TEST(DataRange, NothingUsableGivesNullopt) {
  EXPECT_FALSE(data_range({}, AxisScale::kLinear));
  const std::vector<double> non_positive{0.0, -1.0};
  EXPECT_FALSE(data_range(non_positive, AxisScale::kLog10));
}

TEST(PadRange, LinearAddsFractionOfSpan) {
  const AxisRange padded = pad_range({0, 100}, AxisScale::kLinear, 0.05);
  EXPECT_DOUBLE_EQ(padded.min, -5);
  EXPECT_DOUBLE_EQ(padded.max, 105);
}

TEST(PadRange, LogPadsInDecades) {
  const AxisRange padded = pad_range({1, 1e4}, AxisScale::kLog10, 0.05);
  EXPECT_NEAR(std::log10(padded.min), -0.2, 1e-12);
  EXPECT_NEAR(std::log10(padded.max), 4.2, 1e-12);
}

TEST(PadRange, SingleValueGetsAWindowAroundIt) {
  const AxisRange linear = pad_range({50, 50}, AxisScale::kLinear, 0.05);
  EXPECT_LT(linear.min, 50);
  EXPECT_GT(linear.max, 50);
  const AxisRange zero = pad_range({0, 0}, AxisScale::kLinear, 0.05);
  EXPECT_DOUBLE_EQ(zero.min, -1);
  EXPECT_DOUBLE_EQ(zero.max, 1);
  const AxisRange log = pad_range({100, 100}, AxisScale::kLog10, 0.05);
  EXPECT_NEAR(std::log10(log.min), 1.5, 1e-12);
  EXPECT_NEAR(std::log10(log.max), 2.5, 1e-12);
}

TEST(LinearTicks, UseOneTwoFiveStepsAndFiveToEightTicks) {
  for (const AxisRange range :
       {AxisRange{0, 1}, AxisRange{0, 7.3}, AxisRange{-3, 42}, AxisRange{0.001, 0.0047},
        AxisRange{1e6, 3.3e6}, AxisRange{-100, -1}, AxisRange{0, 13}}) {
    const double step = nice_linear_step(range);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 ||
                std::fabs(mantissa - 5) < 1e-9)
        << "step " << step;
    const std::vector<AxisTick> ticks = linear_ticks(range, TickFormat::kNumber);
    EXPECT_GE(ticks.size(), 5u) << range.min << ".." << range.max;
    EXPECT_LE(ticks.size(), 8u) << range.min << ".." << range.max;
    for (const AxisTick& t : ticks) {
      EXPECT_GE(t.value, range.min - 1e-12);
      EXPECT_LE(t.value, range.max + 1e-12);
    }
  }
}

TEST(LinearTicks, ExactValuesAndLabels) {
  const std::vector<AxisTick> ticks = linear_ticks({0, 1}, TickFormat::kNumber);
  EXPECT_EQ(labels(ticks), (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1"}));
}

TEST(LinearTicks, LabelsGetEnoughDigitsToDiffer) {
  const std::vector<AxisTick> ticks = linear_ticks({10000, 10010}, TickFormat::kNumber);
  const std::vector<std::string> text = labels(ticks);
  ASSERT_GE(text.size(), 2u);
  EXPECT_EQ(std::adjacent_find(text.begin(), text.end()), text.end());
  EXPECT_EQ(text.front(), "10000");
}

TEST(LogTicks, MajorAtDecadesWithMinorsForFewDecades) {
  const std::vector<AxisTick> ticks = log_ticks({1, 1000}, TickFormat::kMilliseconds);
  EXPECT_EQ(major_values(ticks), (std::vector<double>{1, 10, 100, 1000}));
  EXPECT_EQ(labels(ticks), (std::vector<std::string>{"1 ms", "10 ms", "100 ms", "1 s"}));
  // 8 minors (2..9) in each of the three decades.
  EXPECT_EQ(ticks.size(), 4u + 3u * 8u);
  EXPECT_TRUE(std::is_sorted(ticks.begin(), ticks.end(), [](const AxisTick& a, const AxisTick& b) {
    return a.value < b.value;
  }));
}

TEST(LogTicks, ManyDecadesSkipLabelsAndMinors) {
  const std::vector<AxisTick> ticks = log_ticks({1e-6, 1e12}, TickFormat::kNumber);
  const std::vector<double> majors = major_values(ticks);
  EXPECT_GE(majors.size(), 5u);
  EXPECT_LE(majors.size(), 10u);
  // Skipped decades are still there as unlabelled minor ticks, for the grid.
  EXPECT_EQ(ticks.size(), 19u);
  for (const AxisTick& t : ticks) EXPECT_EQ(t.major, !t.label.empty());
}

TEST(LogTicks, ShortRangeLabelsTwoAndFiveMultiples) {
  const std::vector<AxisTick> ticks = log_ticks({1, 20}, TickFormat::kCount);
  EXPECT_EQ(labels(ticks), (std::vector<std::string>{"1", "2", "5", "10", "20"}));
}

TEST(LogTicks, LessThanADecadeFallsBackToLinearSteps) {
  const std::vector<AxisTick> ticks = log_ticks({3, 8}, TickFormat::kNumber);
  EXPECT_GE(ticks.size(), 5u);
  for (const AxisTick& t : ticks) {
    EXPECT_GT(t.value, 0);
    EXPECT_FALSE(t.label.empty());
  }
}

// Bytes in binary units tick at powers of two: the Copies plot read "9.77 KiB, 97.7 KiB, 977 KiB"
// at decades (issue 36 item 12). At most eight labels; every power keeps its grid line.
TEST(LogTicks, BytesTickAtPowersOfTwoWithWholeBinaryLabels) {
  const std::vector<AxisTick> ticks = log_ticks({1000, 300e6}, TickFormat::kBytes);
  ASSERT_FALSE(ticks.empty());
  std::size_t labelled = 0;
  for (const AxisTick& t : ticks) {
    int exponent = 0;
    EXPECT_EQ(std::frexp(t.value, &exponent), 0.5) << t.value << " is a power of two";
    if (t.label.empty()) continue;
    ++labelled;
    EXPECT_EQ(t.label.find('.'), std::string::npos) << t.label;
  }
  EXPECT_GE(labelled, 4u);
  EXPECT_LE(labelled, 8u);
  EXPECT_EQ(
      labels(log_ticks({1000, 70000}, TickFormat::kBytes)),
      (std::vector<std::string>{"1 KiB", "2 KiB", "4 KiB", "8 KiB", "16 KiB", "32 KiB", "64 KiB"}));
}

TEST(LayoutAxis, EmptyDataGivesDefaultFrame) {
  const AxisLayout linear = layout_axis({}, {});
  EXPECT_EQ(linear.range, (AxisRange{0, 1}));
  EXPECT_FALSE(linear.ticks.empty());
  const AxisLayout log = layout_axis({}, {.scale = AxisScale::kLog10});
  EXPECT_EQ(log.range, (AxisRange{1, 10}));
  EXPECT_FALSE(log.ticks.empty());
}

TEST(LayoutAxis, LogIgnoresZeroAndNegativeData) {
  const std::vector<double> values{0.0, -1.0, 10.0, 1000.0};
  const AxisLayout layout = layout_axis(values, {.scale = AxisScale::kLog10});
  EXPECT_GT(layout.range.min, 0);
  EXPECT_LT(layout.range.min, 10.0);
  EXPECT_GT(layout.range.max, 1000.0);
}

TEST(LayoutAxis, IncludeZeroAnchorsPositiveData) {
  const std::vector<double> values{40.0, 50.0};
  const AxisLayout layout =
      layout_axis(values, {.scale = AxisScale::kLinear, .include_zero = true});
  EXPECT_EQ(layout.range.min, 0.0);
  EXPECT_GT(layout.range.max, 50.0);
}

TEST(LayoutAxis, SingleValueOnLogAxisHasTicks) {
  const std::vector<double> values{0.5};
  const AxisLayout layout =
      layout_axis(values, {.scale = AxisScale::kLog10, .format = TickFormat::kMilliseconds});
  EXPECT_LT(layout.range.min, 0.5);
  EXPECT_GT(layout.range.max, 0.5);
  EXPECT_GE(labels(layout.ticks).size(), 2u);
}

}  // namespace
}  // namespace tl::plot
