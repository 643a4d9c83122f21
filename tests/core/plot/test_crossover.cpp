#include "core/plot/crossover.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tl::plot {
namespace {

PlotSeries series_of(std::initializer_list<std::pair<double, double>> xy) {
  PlotSeries series;
  for (const auto& [x, y] : xy) series.points.push_back({x, y, y, y});
  return series;
}

TEST(Crossover, InterpolatesInLogLogSpace) {
  // CPU: t = N / 1000 (linear), GPU: flat 1 ms. They meet at N = 1000 exactly.
  const PlotSeries cpu = series_of({{10, 0.01}, {100, 0.1}, {10000, 10}, {100000, 100}});
  const PlotSeries gpu = series_of({{10, 1}, {100, 1}, {10000, 1}, {100000, 1}});
  const auto crossing = find_crossover(cpu, gpu);
  ASSERT_TRUE(crossing);
  EXPECT_NEAR(*crossing, 1000.0, 1e-6);
}

TEST(Crossover, NeverFasterGivesNullopt) {
  const PlotSeries cpu = series_of({{1, 1}, {10, 1}});
  const PlotSeries gpu = series_of({{1, 2}, {10, 3}});
  EXPECT_FALSE(find_crossover(cpu, gpu));
}

TEST(Crossover, MustStayFaster) {
  // The GPU wins briefly at N = 10, loses at 100, then wins for good between 100 and 1000.
  const PlotSeries cpu = series_of({{1, 1}, {10, 10}, {100, 100}, {1000, 1000}});
  const PlotSeries gpu = series_of({{1, 5}, {10, 5}, {100, 1000}, {1000, 10}});
  const auto crossing = find_crossover(cpu, gpu);
  ASSERT_TRUE(crossing);
  EXPECT_GT(*crossing, 100.0);
  EXPECT_LT(*crossing, 1000.0);
  // Log-log: cpu goes 2 → 3, gpu 3 → 1 over one decade; equal at a third of the way.
  EXPECT_NEAR(std::log10(*crossing), 2.0 + 1.0 / 3.0, 1e-9);
}

TEST(Crossover, FasterEverywhereGivesStartOfOverlap) {
  const PlotSeries cpu = series_of({{1, 10}, {10, 100}, {100, 1000}});
  const PlotSeries gpu = series_of({{10, 1}, {100, 2}, {1000, 3}});
  const auto crossing = find_crossover(cpu, gpu);
  ASSERT_TRUE(crossing);
  EXPECT_DOUBLE_EQ(*crossing, 10.0);
}

TEST(Crossover, HandlesDifferentGridsAndUnsortedPoints) {
  const PlotSeries cpu = series_of({{1000, 1}, {10, 0.01}, {100000, 100}});
  const PlotSeries gpu = series_of({{30, 1}, {3000, 1}, {30000, 1}});
  const auto crossing = find_crossover(cpu, gpu);
  ASSERT_TRUE(crossing);
  EXPECT_NEAR(*crossing, 1000.0, 1e-6);
}

TEST(Crossover, IgnoresNonPositiveValuesAndEmptySeries) {
  const PlotSeries cpu = series_of({{0, 5}, {10, 0}, {100, 10}, {1000, 100}});
  const PlotSeries gpu = series_of({{100, 1}, {1000, 1}});
  const auto crossing = find_crossover(cpu, gpu);
  ASSERT_TRUE(crossing);
  EXPECT_DOUBLE_EQ(*crossing, 100.0);
  EXPECT_FALSE(find_crossover(PlotSeries{}, gpu));
}

TEST(Crossover, NoOverlapGivesNullopt) {
  const PlotSeries cpu = series_of({{1, 10}, {10, 100}});
  const PlotSeries gpu = series_of({{100, 1}, {1000, 1}});
  EXPECT_FALSE(find_crossover(cpu, gpu));
}

}  // namespace
}  // namespace tl::plot
