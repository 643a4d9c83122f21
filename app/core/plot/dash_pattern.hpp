#pragma once
// Dashed polylines for ImDrawList, which draws only solid lines: the dash segments are computed
// here, where they can be tested, and the widget draws each one as a line.

#include <span>
#include <vector>

namespace tl::plot {

struct PixelPoint {
  double x = 0;
  double y = 0;
  friend bool operator==(const PixelPoint&, const PixelPoint&) = default;
};

struct PixelSegment {
  PixelPoint from;
  PixelPoint to;
};

// Splits the polyline into dashes of `dash_px` separated by gaps of `gap_px`, measured along the
// line; the pattern carries on across corners so dashes look even on a jagged curve. Returns the
// whole polyline's segments unchanged when dash_px or gap_px is not positive.
[[nodiscard]] std::vector<PixelSegment> dash_polyline(std::span<const PixelPoint> points,
                                                      double dash_px, double gap_px);
// The same with a pattern of any even length, alternately drawn and skipped (dash, gap, dot,
// gap for a dash-dot line). An empty pattern, or one with a length that is not positive, draws the
// polyline solid.
[[nodiscard]] std::vector<PixelSegment> dash_polyline(std::span<const PixelPoint> points,
                                                      std::span<const double> pattern);

}  // namespace tl::plot
