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
  const double pattern[2] = {dash_px, gap_px};
  return dash_polyline(points, pattern);
}

std::vector<PixelSegment> dash_polyline(std::span<const PixelPoint> points,
                                        std::span<const double> pattern) {
  std::vector<PixelSegment> dashes;
  if (points.size() < 2) return dashes;
  const bool solid = pattern.size() < 2 || pattern.size() % 2 != 0 ||
                     std::any_of(pattern.begin(), pattern.end(), [](double l) { return !(l > 0); });
  if (solid) {
    for (std::size_t i = 1; i < points.size(); ++i) dashes.push_back({points[i - 1], points[i]});
    return dashes;
  }
  std::size_t phase = 0;              // even: a dash; odd: a gap
  double left_in_phase = pattern[0];  // length left of the current dash or gap
  for (std::size_t i = 1; i < points.size(); ++i) {
    const PixelPoint a = points[i - 1];
    const PixelPoint b = points[i];
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    double position = 0;  // along a→b
    while (position < length) {
      const double step = std::min(left_in_phase, length - position);
      if (phase % 2 == 0 && step > 0) {
        dashes.push_back({lerp(a, b, position / length), lerp(a, b, (position + step) / length)});
      }
      position += step;
      left_in_phase -= step;
      if (left_in_phase <= 0) {
        phase = (phase + 1) % pattern.size();
        left_in_phase = pattern[phase];
      }
    }
  }
  return dashes;
}

}  // namespace tl::plot
