// Small pieces of the plot core: visibility toggles, dashed lines, whole-plot axes.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/plot/dash_pattern.hpp"
#include "core/plot/plot_axes.hpp"
#include "core/plot/series_visibility.hpp"

namespace tl::plot {
namespace {

TEST(SeriesVisibility, DefaultsToSeriesFlagAndTogglesByName) {
  SeriesVisibility visibility;
  PlotSeries shown{.name = "CPU", .points = {}};
  PlotSeries hidden{.name = "old", .points = {}, .visible = false};
  EXPECT_TRUE(visibility.is_visible(shown));
  EXPECT_FALSE(visibility.is_visible(hidden));
  visibility.toggle(shown);
  visibility.toggle(hidden);
  EXPECT_FALSE(visibility.is_visible(shown));
  EXPECT_TRUE(visibility.is_visible(hidden));
  // A rebuilt series with the same name keeps the user's choice.
  PlotSeries rebuilt{.name = "CPU", .points = {{1, 2, 2, 2}}};
  EXPECT_FALSE(visibility.is_visible(rebuilt));
  visibility.reset();
  EXPECT_TRUE(visibility.is_visible(rebuilt));
}

double total_length(const std::vector<PixelSegment>& segments) {
  double length = 0;
  for (const PixelSegment& s : segments) length += std::hypot(s.to.x - s.from.x, s.to.y - s.from.y);
  return length;
}

TEST(DashPattern, SplitsStraightLineIntoDashes) {
  const std::vector<PixelPoint> line{{0, 0}, {100, 0}};
  const std::vector<PixelSegment> dashes = dash_polyline(line, 10, 10);
  ASSERT_EQ(dashes.size(), 5u);
  EXPECT_EQ(dashes[0].from, (PixelPoint{0, 0}));
  EXPECT_EQ(dashes[0].to, (PixelPoint{10, 0}));
  EXPECT_EQ(dashes[1].from, (PixelPoint{20, 0}));
  EXPECT_DOUBLE_EQ(total_length(dashes), 50);
}

TEST(DashPattern, PatternContinuesAcrossCorners) {
  // 15 px right then 15 px down: dash 0-10, gap 10-20, dash 20-30 (5 px into the second leg).
  const std::vector<PixelPoint> line{{0, 0}, {15, 0}, {15, 15}};
  const std::vector<PixelSegment> dashes = dash_polyline(line, 10, 10);
  ASSERT_EQ(dashes.size(), 2u);
  EXPECT_NEAR(dashes[1].from.x, 15, 1e-12);
  EXPECT_NEAR(dashes[1].from.y, 5, 1e-12);
  EXPECT_NEAR(dashes[1].to.y, 15, 1e-12);
}

TEST(DashPattern, DegenerateInputs) {
  const std::vector<PixelPoint> one{{1, 1}};
  EXPECT_TRUE(dash_polyline(one, 5, 5).empty());
  const std::vector<PixelPoint> line{{0, 0}, {3, 4}, {6, 8}};
  EXPECT_EQ(dash_polyline(line, 0, 5).size(), 2u);  // solid
}

TEST(PlotAxes, HiddenSeriesDoNotCountAndBandsWidenY) {
  std::vector<PlotSeries> series{
      {.name = "cpu", .points = {{10, 100, 50, 200}, {1000, 1000, 900, 1100}}},
      {.name = "gpu", .points = {{10, 1, 1, 1}, {1000, 2, 2, 2}}}};
  const std::vector<PlotMarker> markers{{5000, "crossover"}};
  SeriesVisibility visibility;
  const AxisOptions log{.scale = AxisScale::kLog10, .padding_fraction = 0};

  PlotAxes axes = layout_plot_axes(series, markers, visibility, log, log, true);
  EXPECT_DOUBLE_EQ(axes.x.range.max, 5000);  // the marker is inside
  EXPECT_DOUBLE_EQ(axes.y.range.max, 1100);  // the band top
  axes = layout_plot_axes(series, markers, visibility, log, log, false);
  EXPECT_DOUBLE_EQ(axes.y.range.max, 1000);

  visibility.toggle(series[0]);
  axes = layout_plot_axes(series, markers, visibility, log, log, true);
  EXPECT_DOUBLE_EQ(axes.y.range.max, 2);
}

TEST(PlotAxes, GuidesStayInViewOnlyBesidePoints) {
  const std::vector<PlotSeries> series{{.name = "kernel", .points = {{10, 5e12}, {1000, 8e12}}}};
  const std::vector<PlotGuide> guides{{51.2e12, "cuBLAS SGEMM, measured"}};
  const AxisOptions log{.scale = AxisScale::kLog10, .padding_fraction = 0};
  const PlotAxes axes = layout_plot_axes(series, {}, SeriesVisibility{}, log, log, false, guides);
  EXPECT_NEAR(axes.y.range.max, 51.2e12, 1e3);  // through log10 and back
  EXPECT_NEAR(axes.y.range.min, 5e12, 1e3);
  // With nothing plotted a guide alone does not set the axis: the empty plot keeps its default.
  const PlotAxes empty = layout_plot_axes({}, {}, SeriesVisibility{}, log, log, false, guides);
  EXPECT_DOUBLE_EQ(empty.y.range.max, 10);
}

}  // namespace
}  // namespace tl::plot
