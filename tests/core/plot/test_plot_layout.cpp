// The plot's layout rules: where the legend goes, ceiling labels in the margin beside the data
// (never on it, never on each other), series told apart by marker and dash as well as hue, and the
// note where a line runs above its ceiling.

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>
#include <vector>

#include "core/plot/ceiling_notes.hpp"
#include "core/plot/plot_layout.hpp"
#include "core/plot/series_marks.hpp"

namespace tl::plot {
namespace {

TEST(LegendPlacement, OneRowThatFitsGoesAbove) {
  const LegendLayout layout = place_legend({.width = 800,
                                            .entries = 2,
                                            .row_width = 300,
                                            .widest_entry = 150,
                                            .spacing = 8,
                                            .min_plot_width = 260});
  EXPECT_EQ(layout.placement, LegendPlacement::kAbove);
  EXPECT_DOUBLE_EQ(layout.canvas_width, 800);
}

TEST(LegendPlacement, ALegendThatWouldWrapGoesBesideThePlot) {
  // Eleven series of the matrix multiply: 1900 px in a row, 800 px of panel.
  const LegendLayout layout = place_legend({.width = 800,
                                            .entries = 11,
                                            .row_width = 1900,
                                            .widest_entry = 240,
                                            .spacing = 8,
                                            .min_plot_width = 260});
  EXPECT_EQ(layout.placement, LegendPlacement::kBeside);
  EXPECT_DOUBLE_EQ(layout.legend_width, 240);
  EXPECT_DOUBLE_EQ(layout.canvas_width, 800 - 240 - 8);
}

TEST(LegendPlacement, TooNarrowForBesideWrapsAbove) {
  const LegendLayout layout = place_legend({.width = 400,
                                            .entries = 11,
                                            .row_width = 1900,
                                            .widest_entry = 240,
                                            .spacing = 8,
                                            .min_plot_width = 260});
  EXPECT_EQ(layout.placement, LegendPlacement::kAbove);
  EXPECT_DOUBLE_EQ(layout.canvas_width, 400);
}

TEST(LegendPlacement, NoSeriesNoLegend) {
  EXPECT_EQ(place_legend({.width = 800}).placement, LegendPlacement::kNone);
}

bool overlap(const PixelRect& a, const PixelRect& b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

TEST(GuideLabels, SitInTheRightMarginBesideTheirLinesWithoutOverlapping) {
  const PixelRect area{50, 20, 650, 420};
  const std::vector<LabelSize> labels = {{180, 30}, {140, 30}, {200, 30}};
  // Two lines 4 px apart, one far below.
  const std::vector<double> ys = {200, 204, 380};
  const double gap = 4;
  const double margin = guide_margin_width(labels, gap);
  EXPECT_DOUBLE_EQ(margin, 208);
  const std::vector<PixelRect> rects = place_guide_labels(area, ys, labels, gap);
  ASSERT_EQ(rects.size(), 3u);
  for (std::size_t i = 0; i < rects.size(); ++i) {
    EXPECT_GE(rects[i].left, area.right) << "label " << i << " on the data";
    EXPECT_LE(rects[i].right, area.right + margin) << "label " << i << " past the margin";
    EXPECT_GE(rects[i].top, area.top);
    EXPECT_LE(rects[i].bottom, area.bottom);
    EXPECT_DOUBLE_EQ(rects[i].width(), labels[i].width);
    for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(overlap(rects[i], rects[j])) << i << j;
  }
  // A label with room is centred on its line.
  EXPECT_DOUBLE_EQ((rects[2].top + rects[2].bottom) / 2, 380);
  // The two close lines keep their order.
  EXPECT_LT(rects[0].top, rects[1].top);
}

TEST(GuideLabels, ALineAtTheBottomEdgePushesTheColumnUpInsideTheArea) {
  const PixelRect area{0, 0, 300, 100};
  const std::vector<LabelSize> labels = {{50, 30}, {50, 30}};
  const std::vector<double> ys = {99, 100};
  const std::vector<PixelRect> rects = place_guide_labels(area, ys, labels, 4);
  EXPECT_LE(rects[1].bottom, area.bottom);
  EXPECT_GE(rects[0].top, area.top);
  EXPECT_FALSE(overlap(rects[0], rects[1]));
}

TEST(GuideLabels, NoLabelsNoMargin) {
  EXPECT_DOUBLE_EQ(guide_margin_width({}, 4), 0);
  EXPECT_TRUE(place_guide_labels({0, 0, 10, 10}, {}, {}, 4).empty());
}

// Up to eleven series (and twelve) all differ in marker and dash, whichever of them are twins.
TEST(SeriesMarks, ElevenSeriesAllDifferWhateverIsTwinned) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::set<std::pair<MarkerShape, LineDash>> seen;
    for (std::size_t i = 0; i < 11; ++i) {
      const bool twin = trial == 0 ? false : trial == 1 ? true : (random() % 2 == 0);
      const SeriesMark mark = series_mark(i, twin);
      EXPECT_TRUE(seen.insert({mark.marker, mark.dash}).second) << "series " << i;
    }
  }
  std::set<std::pair<MarkerShape, LineDash>> twelve;
  for (std::size_t i = 0; i < kDistinctSeriesMarks; ++i) {
    const SeriesMark mark = series_mark(i, i % 3 == 0);
    twelve.insert({mark.marker, mark.dash});
  }
  EXPECT_EQ(twelve.size(), kDistinctSeriesMarks);
}

TEST(SeriesMarks, TwinsAreNeverSolidAndTheFirstRoundOfPlainSeriesIs) {
  for (std::size_t i = 0; i < kDistinctSeriesMarks; ++i) {
    EXPECT_NE(series_mark(i, true).dash, LineDash::kSolid) << i;
  }
  for (std::size_t i = 0; i < kMarkerShapeCount; ++i) {
    EXPECT_EQ(series_mark(i, false).dash, LineDash::kSolid) << i;
    EXPECT_EQ(series_mark(i, false).marker, series_mark(i, true).marker) << i;
  }
  std::set<MarkerShape> shapes;
  for (std::size_t i = 0; i < kMarkerShapeCount; ++i) shapes.insert(series_mark(i, false).marker);
  EXPECT_EQ(shapes.size(), kMarkerShapeCount);
}

TEST(SeriesMarks, EachDashHasItsOwnPatternAndEachShapeAnOutline) {
  EXPECT_TRUE(dash_lengths(LineDash::kSolid, 2).empty());
  std::set<std::vector<double>> patterns;
  for (LineDash dash : {LineDash::kDashed, LineDash::kDotted, LineDash::kDashDot}) {
    const std::vector<double> lengths = dash_lengths(dash, 2);
    ASSERT_GE(lengths.size(), 2u) << to_string(dash);
    EXPECT_EQ(lengths.size() % 2, 0u) << to_string(dash);
    for (double l : lengths) EXPECT_GT(l, 0) << to_string(dash);
    EXPECT_TRUE(patterns.insert(lengths).second) << to_string(dash);
  }
  const PixelPoint centre{100, 100};
  for (MarkerShape shape : {MarkerShape::kSquare, MarkerShape::kTriangleUp, MarkerShape::kDiamond,
                            MarkerShape::kTriangleDown, MarkerShape::kCross}) {
    const std::vector<PixelPoint> outline = marker_outline(shape, centre, 5);
    EXPECT_GE(outline.size(), 3u) << to_string(shape);
    for (const PixelPoint& p : outline) {
      EXPECT_LE(std::abs(p.x - centre.x), 6.0) << to_string(shape);
      EXPECT_LE(std::abs(p.y - centre.y), 6.0) << to_string(shape);
    }
  }
  // Up and down triangles point opposite ways (screen y grows downwards).
  EXPECT_LT(marker_outline(MarkerShape::kTriangleUp, centre, 5)[0].y, centre.y);
  EXPECT_GT(marker_outline(MarkerShape::kTriangleDown, centre, 5)[2].y, centre.y);
}

TEST(DashPattern, ADashDotPatternDrawsItsDashAndItsDot) {
  const std::vector<PixelPoint> line = {{0, 0}, {100, 0}};
  const double pattern[] = {10, 5, 2, 5};
  const std::vector<PixelSegment> dashes = dash_polyline(line, pattern);
  ASSERT_GE(dashes.size(), 4u);
  EXPECT_NEAR(dashes[0].to.x - dashes[0].from.x, 10, 1e-9);
  EXPECT_NEAR(dashes[1].from.x, 15, 1e-9);
  EXPECT_NEAR(dashes[1].to.x - dashes[1].from.x, 2, 1e-9);
  EXPECT_NEAR(dashes[2].from.x, 22, 1e-9);
  // An odd pattern is drawn solid.
  const double odd[] = {10, 5, 2};
  EXPECT_EQ(dash_polyline(line, odd).size(), 1u);
}

PlotSeries line(std::string name, std::vector<std::pair<double, double>> xy, bool faint = false) {
  PlotSeries s;
  s.name = std::move(name);
  for (auto [x, y] : xy) s.points.push_back({x, y, y, y});
  s.faint = faint;
  return s;
}

TEST(CeilingNotes, ALineAboveItsCeilingIsNamedWithWhereAndWhy) {
  const std::vector<PlotSeries> series = {
      line("CPU, 1 thread", {{1024, 30e9}, {65536, 25e9}, {1 << 24, 8e9}}),
      line("Emulated kernel", {{1024, 1e9}, {65536, 2e9}}),
      line("earlier sweep", {{1024, 90e9}}, /*faint=*/true)};
  const std::vector<PlotGuide> guides = {
      {.y = 10e9,
       .label = "host memcpy\nmeasured: 10 GB/s",
       .name = "host memcpy",
       .above_reason = "It was measured copying 64 MiB, more than the caches hold."}};
  const std::vector<std::string> notes = notes_above_guides(series, guides, TickFormat::kCount);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "Above the host memcpy line: CPU, 1 thread (at " +
                          format_tick(1024, TickFormat::kCount) + " to " +
                          format_tick(65536, TickFormat::kCount) +
                          "). It was measured copying 64 MiB, more than the caches hold.");
}

TEST(CeilingNotes, NoLineAboveNoNote) {
  const std::vector<PlotSeries> series = {line("GPU kernel", {{1024, 1e9}, {4096, 9.9e9}})};
  const std::vector<PlotGuide> guides = {{.y = 10e9, .label = "copy", .name = "copy"}};
  EXPECT_TRUE(notes_above_guides(series, guides, TickFormat::kCount).empty());
}

}  // namespace
}  // namespace tl::plot
