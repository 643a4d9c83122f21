#pragma once
// What a plot shows: named series of points with a min–max range each, and vertical markers.
// Plain data, filled by the sweep code and read by the plot widget and the exporters.

#include <cstdint>
#include <string>
#include <vector>

#include "core/timing/timing_key.hpp"

namespace tl::plot {

struct PlotPoint {
  double x = 0;
  double y = 0;  // the headline value: the median of the repeats for timings
  double y_min = 0;
  double y_max = 0;  // the spread of the repeats, drawn as a translucent band
  // The work one timed run did at x, so that a time can also be shown as a rate (0: unknown).
  double bytes = 0;
  double flops = 0;
};

// Whether the point carries a real min–max range around y. Points built with y only leave
// y_min = y_max = 0, which must not become a band down to zero (or to the edge of a log axis).
[[nodiscard]] inline bool has_spread(const PlotPoint& p) {
  return p.y_max > p.y_min && p.y_min <= p.y && p.y <= p.y_max;
}

// Colour as 0xRRGGBBAA: the order people write colours in, independent of ImGui's packing.
constexpr std::uint32_t rgba(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a = 255) {
  return (std::uint32_t{r} << 24) | (std::uint32_t{g} << 16) | (std::uint32_t{b} << 8) | a;
}

// How a series' line is drawn, so that series read apart without their colours (colour-blind
// readers, a projector, a grey printout): core/plot/series_marks.hpp assigns them.
enum class LineDash : std::uint8_t { kSolid, kDashed, kDotted, kDashDot };
// The shape drawn on each measured point.
enum class MarkerShape : std::uint8_t {
  kCircle,
  kSquare,
  kTriangleUp,
  kDiamond,
  kTriangleDown,
  kCross
};

struct PlotSeries {
  std::string name;
  // What the series measures; points join the series of the same key. The views choose colour and
  // dash from it (app/ui/series_style.hpp).
  TimingKey key;
  std::vector<PlotPoint> points;  // sorted by x: lines and bands join neighbours in this order
  std::uint32_t color = rgba(255, 255, 255);
  bool visible = true;
  bool faint = false;  // an earlier sweep kept for comparison: drawn faded, behind current ones
  LineDash dash = LineDash::kSolid;
  MarkerShape marker = MarkerShape::kCircle;
};

// A labelled vertical line, e.g. the size where the GPU starts beating the CPU.
struct PlotMarker {
  double x = 0;
  std::string label;
};

// A labelled horizontal line, e.g. the device's measured copy bandwidth on a GB/s axis: the
// ceiling the curves are read against.
struct PlotGuide {
  double y = 0;
  std::string label;
  // What the ceiling is, short ("host memcpy"), and why a line can still run above it ("it was
  // measured copying 64 MiB, more than the caches hold"): the note under a plot where one does.
  std::string name;
  std::string above_reason;
};

}  // namespace tl::plot
