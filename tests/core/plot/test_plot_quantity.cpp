#include "core/plot/plot_quantity.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tl::plot {
namespace {

PlotSeries series_named(std::string name, std::vector<PlotPoint> points) {
  PlotSeries s;
  s.name = std::move(name);
  s.points = std::move(points);
  return s;
}

TEST(PlotQuantity, NamesRoundTripAndUnknownNamesAreErrors) {
  for (PlotQuantity quantity : all_plot_quantities()) {
    auto parsed = parse_plot_quantity(to_string(quantity));
    ASSERT_TRUE(parsed.is_ok());
    EXPECT_EQ(*parsed, quantity);
    EXPECT_FALSE(quantity_label(quantity).empty());
    EXPECT_FALSE(quantity_axis_title(quantity).empty());
  }
  auto bad = parse_plot_quantity("tflops");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.message().find("gflops"), std::string::npos) << bad.message();
}

TEST(PlotQuantity, TimeIsTheSeriesUnchanged) {
  const std::vector<PlotSeries> times{series_named("GPU kernel", {{1024, 2.0, 1.5, 3.0}})};
  const auto shown = as_quantity(times, PlotQuantity::kTime);
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0].points[0].y, 2.0);
  EXPECT_EQ(shown[0].points[0].y_min, 1.5);
  EXPECT_TRUE(has_quantity(times, PlotQuantity::kTime));
}

TEST(PlotQuantity, RatesAreWorkOverTimeWithTheBandSwapped) {
  // 2 GFLOP in 4 ms (median), 2 ms at best, 8 ms at worst.
  PlotPoint point{4096, 4.0, 2.0, 8.0};
  point.flops = 2e9;
  point.bytes = 1e9;
  const std::vector<PlotSeries> times{series_named("naive", {point})};

  const auto flops = as_quantity(times, PlotQuantity::kFlopRate);
  ASSERT_EQ(flops.size(), 1u);
  ASSERT_EQ(flops[0].points.size(), 1u);
  const PlotPoint& f = flops[0].points[0];
  EXPECT_EQ(f.x, 4096);
  EXPECT_DOUBLE_EQ(f.y, 500e9);
  EXPECT_DOUBLE_EQ(f.y_min, 250e9);   // the slowest repeat
  EXPECT_DOUBLE_EQ(f.y_max, 1000e9);  // the fastest repeat
  EXPECT_TRUE(has_spread(f));

  const auto bytes = as_quantity(times, PlotQuantity::kBandwidth);
  ASSERT_EQ(bytes.size(), 1u);
  EXPECT_DOUBLE_EQ(bytes[0].points[0].y, 250e9);
}

TEST(PlotQuantity, SeriesWithoutThatWorkAreLeftOut) {
  PlotPoint kernel{1 << 20, 1.0, 1.0, 1.0};
  kernel.flops = 1e6;
  kernel.bytes = 12e6;
  PlotPoint copy{1 << 20, 2.0, 2.0, 2.0};
  copy.bytes = 8e6;  // a copy moves bytes and computes nothing
  PlotPoint unknown{1 << 21, 3.0, 3.0, 3.0};
  const std::vector<PlotSeries> times{series_named("kernel", {kernel, unknown}),
                                      series_named("copy", {copy})};

  const auto flops = as_quantity(times, PlotQuantity::kFlopRate);
  ASSERT_EQ(flops.size(), 1u);
  EXPECT_EQ(flops[0].name, "kernel");
  EXPECT_EQ(flops[0].points.size(), 1u) << "the point without work is not drawn at zero";
  // No spread in the times (min = max = median) is no band in the rates either.
  EXPECT_FALSE(has_spread(flops[0].points[0]));

  EXPECT_EQ(as_quantity(times, PlotQuantity::kBandwidth).size(), 2u);
  EXPECT_TRUE(has_quantity(times, PlotQuantity::kFlopRate));
  EXPECT_FALSE(has_quantity({times.begin() + 1, times.end()}, PlotQuantity::kFlopRate));
}

TEST(PlotQuantity, ZeroTimesGiveNoInfiniteRates) {
  PlotPoint instant{8, 0.0, 0.0, 0.0};
  instant.bytes = 64;
  const std::vector<PlotSeries> times{series_named("too fast to time", {instant})};
  EXPECT_TRUE(as_quantity(times, PlotQuantity::kBandwidth).empty());
  EXPECT_FALSE(has_quantity(times, PlotQuantity::kBandwidth));
}

TEST(PlotQuantity, RateAxesAreLogarithmicWithTheirUnits) {
  EXPECT_EQ(quantity_axis(PlotQuantity::kFlopRate).format, TickFormat::kFlopRate);
  EXPECT_EQ(quantity_axis(PlotQuantity::kBandwidth).format, TickFormat::kByteRate);
  EXPECT_EQ(quantity_axis(PlotQuantity::kTime).format, TickFormat::kMilliseconds);
  EXPECT_EQ(quantity_axis(PlotQuantity::kFlopRate).scale, AxisScale::kLog10);
}

}  // namespace
}  // namespace tl::plot
