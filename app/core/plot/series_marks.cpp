#include "core/plot/series_marks.hpp"

#include <array>

namespace tl::plot {
namespace {

constexpr std::array<MarkerShape, kMarkerShapeCount> kMarkers{
    MarkerShape::kCircle,  MarkerShape::kSquare,       MarkerShape::kTriangleUp,
    MarkerShape::kDiamond, MarkerShape::kTriangleDown, MarkerShape::kCross};

}  // namespace

SeriesMark series_mark(std::size_t index, bool twin) {
  const bool second_round = (index / kMarkerShapeCount) % 2 == 1;
  SeriesMark mark;
  mark.marker = kMarkers[index % kMarkerShapeCount];
  if (second_round) {
    mark.dash = twin ? LineDash::kDashDot : LineDash::kDotted;
  } else {
    mark.dash = twin ? LineDash::kDashed : LineDash::kSolid;
  }
  return mark;
}

std::string_view to_string(LineDash dash) {
  switch (dash) {
    case LineDash::kSolid:
      return "solid";
    case LineDash::kDashed:
      return "dashed";
    case LineDash::kDotted:
      return "dotted";
    case LineDash::kDashDot:
      return "dash-dot";
  }
  return "solid";
}

std::string_view to_string(MarkerShape marker) {
  switch (marker) {
    case MarkerShape::kCircle:
      return "circle";
    case MarkerShape::kSquare:
      return "square";
    case MarkerShape::kTriangleUp:
      return "triangle up";
    case MarkerShape::kDiamond:
      return "diamond";
    case MarkerShape::kTriangleDown:
      return "triangle down";
    case MarkerShape::kCross:
      return "cross";
  }
  return "circle";
}

std::vector<double> dash_lengths(LineDash dash, double thickness) {
  const double t = thickness > 0 ? thickness : 1.0;
  switch (dash) {
    case LineDash::kSolid:
      return {};
    case LineDash::kDashed:
      return {3.0 * t + 4.0, 1.8 * t + 2.4};
    case LineDash::kDotted:
      return {t, 1.5 * t + 2.0};
    case LineDash::kDashDot:
      return {3.0 * t + 4.0, 1.2 * t + 2.0, t, 1.2 * t + 2.0};
  }
  return {};
}

std::vector<PixelPoint> marker_outline(MarkerShape marker, PixelPoint c, double r) {
  // Screen y grows downwards: "up" is -y.
  switch (marker) {
    case MarkerShape::kCircle:
      return {};
    case MarkerShape::kSquare: {
      const double h = r * 0.8;  // a square as heavy as the circle of radius r
      return {{c.x - h, c.y - h}, {c.x + h, c.y - h}, {c.x + h, c.y + h}, {c.x - h, c.y + h}};
    }
    case MarkerShape::kTriangleUp:
      return {{c.x, c.y - r * 1.15}, {c.x + r, c.y + r * 0.75}, {c.x - r, c.y + r * 0.75}};
    case MarkerShape::kDiamond:
      return {{c.x, c.y - r * 1.2}, {c.x + r, c.y}, {c.x, c.y + r * 1.2}, {c.x - r, c.y}};
    case MarkerShape::kTriangleDown:
      return {{c.x - r, c.y - r * 0.75}, {c.x + r, c.y - r * 0.75}, {c.x, c.y + r * 1.15}};
    case MarkerShape::kCross:
      return {{c.x - r, c.y - r}, {c.x + r, c.y + r}, {c.x - r, c.y + r}, {c.x + r, c.y - r}};
  }
  return {};
}

}  // namespace tl::plot
