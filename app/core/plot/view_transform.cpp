#include "core/plot/view_transform.hpp"

#include <cmath>

namespace tl::plot {
namespace {

// Position of `value` along the axis as a fraction: 0 at range.min, 1 at range.max.
double to_fraction(const AxisMapping& axis, double value) {
  if (axis.scale == AxisScale::kLog10) {
    const double lo = std::log10(axis.range.min);
    const double hi = std::log10(axis.range.max);
    if (!(value > 0)) return 0.0;
    return hi > lo ? (std::log10(value) - lo) / (hi - lo) : 0.5;
  }
  const double span = axis.range.span();
  return span != 0 ? (value - axis.range.min) / span : 0.5;
}

double from_fraction(const AxisMapping& axis, double fraction) {
  if (axis.scale == AxisScale::kLog10) {
    const double lo = std::log10(axis.range.min);
    const double hi = std::log10(axis.range.max);
    return std::pow(10.0, lo + fraction * (hi - lo));
  }
  return axis.range.min + fraction * axis.range.span();
}

}  // namespace

ViewTransform::ViewTransform(PixelRect rect, AxisMapping x_axis, AxisMapping y_axis)
    : rect_(rect), x_axis_(x_axis), y_axis_(y_axis) {}

double ViewTransform::x_to_pixel(double x) const {
  return rect_.left + to_fraction(x_axis_, x) * rect_.width();
}

double ViewTransform::y_to_pixel(double y) const {
  // Screen y grows downwards, data y upwards.
  return rect_.bottom - to_fraction(y_axis_, y) * rect_.height();
}

double ViewTransform::pixel_to_x(double px) const {
  return rect_.width() != 0 ? from_fraction(x_axis_, (px - rect_.left) / rect_.width())
                            : x_axis_.range.min;
}

double ViewTransform::pixel_to_y(double py) const {
  return rect_.height() != 0 ? from_fraction(y_axis_, (rect_.bottom - py) / rect_.height())
                             : y_axis_.range.min;
}

std::optional<PointHit> nearest_point(const ViewTransform& view, std::span<const PlotSeries> series,
                                      const SeriesVisibility& visibility, double mouse_x,
                                      double mouse_y, double max_distance_px) {
  std::optional<PointHit> best;
  for (std::size_t s = 0; s < series.size(); ++s) {
    if (!visibility.is_visible(series[s])) continue;
    const std::vector<PlotPoint>& points = series[s].points;
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (!std::isfinite(points[i].x) || !std::isfinite(points[i].y)) continue;
      const double dx = view.x_to_pixel(points[i].x) - mouse_x;
      const double dy = view.y_to_pixel(points[i].y) - mouse_y;
      const double distance = std::hypot(dx, dy);
      if (distance > max_distance_px) continue;
      if (!best || distance <= best->distance_px) best = PointHit{s, i, distance};
    }
  }
  return best;
}

}  // namespace tl::plot
