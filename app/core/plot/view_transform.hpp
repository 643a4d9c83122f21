#pragma once
// Data ↔ pixel mapping of a plot area, shared by drawing and by hover picking so the point under
// the mouse is the point that was drawn there.

#include <cstddef>
#include <optional>
#include <span>

#include "core/plot/axis.hpp"
#include "core/plot/series.hpp"
#include "core/plot/series_visibility.hpp"

namespace tl::plot {

// Screen rectangle in pixels, y growing downwards as on screen (ImGui's convention).
struct PixelRect {
  double left = 0;
  double top = 0;
  double right = 1;
  double bottom = 1;
  [[nodiscard]] double width() const { return right - left; }
  [[nodiscard]] double height() const { return bottom - top; }
  [[nodiscard]] bool contains(double x, double y) const {
    return x >= left && x <= right && y >= top && y <= bottom;
  }
};

struct AxisMapping {
  AxisRange range;
  AxisScale scale = AxisScale::kLinear;
};

class ViewTransform {
 public:
  ViewTransform() = default;
  ViewTransform(PixelRect rect, AxisMapping x_axis, AxisMapping y_axis);

  // Data → pixels. Values a log axis cannot place (<= 0) are clamped to its lower edge, so a
  // zero-length band edge or a zero time still lands on the frame instead of vanishing.
  [[nodiscard]] double x_to_pixel(double x) const;
  [[nodiscard]] double y_to_pixel(double y) const;
  // Pixels → data, the inverse of the above.
  [[nodiscard]] double pixel_to_x(double px) const;
  [[nodiscard]] double pixel_to_y(double py) const;

  [[nodiscard]] const PixelRect& rect() const { return rect_; }
  [[nodiscard]] const AxisMapping& x_axis() const { return x_axis_; }
  [[nodiscard]] const AxisMapping& y_axis() const { return y_axis_; }

 private:
  PixelRect rect_;
  AxisMapping x_axis_;
  AxisMapping y_axis_;
};

struct PointHit {
  std::size_t series_index = 0;
  std::size_t point_index = 0;
  double distance_px = 0;
  friend bool operator==(const PointHit&, const PointHit&) = default;
};

// The point of a visible series nearest to the mouse (in pixels, not data units, so log axes and
// unequal scales do not bias the pick), if one is within `max_distance_px`. Hidden series are
// skipped. On ties, the series drawn later (on top) wins.
[[nodiscard]] std::optional<PointHit> nearest_point(const ViewTransform& view,
                                                    std::span<const PlotSeries> series,
                                                    const SeriesVisibility& visibility,
                                                    double mouse_x, double mouse_y,
                                                    double max_distance_px);

}  // namespace tl::plot
