#include "core/plot/dash_pattern.hpp"

#include <algorithm>
#include <cmath>

namespace tl::plot {
namespace {

PixelPoint lerp(PixelPoint a, PixelPoint b, double t) {
  return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
}

}  // namespace

std::vector<PixelSegment> dash_polyline(std::span<const PixelPoint> points, double dash_px,
                                        double gap_px) {
  std::vector<PixelSegment> dashes;
  if (points.size() < 2) return dashes;
  if (!(dash_px > 0) || !(gap_px > 0)) {
    for (std::size_t i = 1; i < points.size(); ++i) dashes.push_back({points[i - 1], points[i]});
    return dashes;
  }
  bool drawing = true;             // in a dash (true) or a gap (false)
  double left_in_phase = dash_px;  // length left of the current dash or gap
  for (std::size_t i = 1; i < points.size(); ++i) {
    const PixelPoint a = points[i - 1];
    const PixelPoint b = points[i];
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    double position = 0;  // along a→b
    while (position < length) {
      const double step = std::min(left_in_phase, length - position);
      if (drawing && step > 0) {
        dashes.push_back({lerp(a, b, position / length), lerp(a, b, (position + step) / length)});
      }
      position += step;
      left_in_phase -= step;
      if (left_in_phase <= 0) {
        drawing = !drawing;
        left_in_phase = drawing ? dash_px : gap_px;
      }
    }
  }
  return dashes;
}

}  // namespace tl::plot
