#include "ui/widgets/plot_painter.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/plot/dash_pattern.hpp"
#include "core/plot/series_marks.hpp"
#include "ui/widgets/plot_colors.hpp"

namespace tl::ui {
namespace {

ImVec2 to_imvec(double x, double y) {
  return {static_cast<float>(x), static_cast<float>(y)};
}

// Pixel positions of the points ImGui can draw. NaN or infinite values are left out (a hole is
// better than a line to nowhere); values a log axis cannot show are clamped to its edge by view.
std::vector<plot::PixelPoint> to_pixels(const plot::ViewTransform& view,
                                        const plot::PlotSeries& series) {
  std::vector<plot::PixelPoint> pixels;
  pixels.reserve(series.points.size());
  for (const plot::PlotPoint& p : series.points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    pixels.push_back({view.x_to_pixel(p.x), view.y_to_pixel(p.y)});
  }
  return pixels;
}

void paint_bands(ImDrawList& draw, const plot::ViewTransform& view, const plot::PlotSeries& series,
                 ImU32 color) {
  const std::vector<plot::PlotPoint>& points = series.points;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const plot::PlotPoint& a = points[i - 1];
    const plot::PlotPoint& b = points[i];
    if (!plot::has_spread(a) || !plot::has_spread(b)) continue;
    const double ax = view.x_to_pixel(a.x);
    const double bx = view.x_to_pixel(b.x);
    // Clockwise on screen, as ImGui's anti-aliased convex fill expects.
    const ImVec2 quad[4] = {
        to_imvec(ax, view.y_to_pixel(a.y_max)), to_imvec(bx, view.y_to_pixel(b.y_max)),
        to_imvec(bx, view.y_to_pixel(b.y_min)), to_imvec(ax, view.y_to_pixel(a.y_min))};
    draw.AddConvexPolyFilled(quad, 4, color);
  }
}

}  // namespace

void paint_line(ImDrawList& draw, std::span<const plot::PixelPoint> pixels, ImU32 color,
                float thickness, plot::LineDash dash) {
  if (dash != plot::LineDash::kSolid) {
    const std::vector<double> pattern = plot::dash_lengths(dash, thickness);
    for (const plot::PixelSegment& s : plot::dash_polyline(pixels, pattern)) {
      draw.AddLine(to_imvec(s.from.x, s.from.y), to_imvec(s.to.x, s.to.y), color, thickness);
    }
    return;
  }
  std::vector<ImVec2> line;
  line.reserve(pixels.size());
  for (const plot::PixelPoint& p : pixels) line.push_back(to_imvec(p.x, p.y));
  draw.AddPolyline(line.data(), static_cast<int>(line.size()), color, ImDrawFlags_None, thickness);
}

void paint_marker(ImDrawList& draw, ImVec2 centre, float radius, plot::MarkerShape shape,
                  ImU32 color) {
  if (shape == plot::MarkerShape::kCircle) {
    draw.AddCircleFilled(centre, radius, color);
    return;
  }
  const std::vector<plot::PixelPoint> outline =
      plot::marker_outline(shape, {centre.x, centre.y}, radius * 1.15);
  std::vector<ImVec2> points;
  points.reserve(outline.size());
  for (const plot::PixelPoint& p : outline) points.push_back(to_imvec(p.x, p.y));
  if (shape == plot::MarkerShape::kCross) {
    const float width = std::max(1.5f, radius * 0.6f);
    draw.AddLine(points[0], points[1], color, width);
    draw.AddLine(points[2], points[3], color, width);
    return;
  }
  draw.AddConvexPolyFilled(points.data(), static_cast<int>(points.size()), color);
}

void paint_axes(ImDrawList& draw, const plot::ViewTransform& view, const plot::PlotAxes& axes) {
  const plot::PixelRect& r = view.rect();
  const ImVec2 top_left = to_imvec(r.left, r.top);
  const ImVec2 bottom_right = to_imvec(r.right, r.bottom);
  draw.AddRectFilled(top_left, bottom_right, style_color(ImGuiCol_FrameBg));

  const ImU32 major_grid = style_color(ImGuiCol_Border, 0.9f);
  const ImU32 minor_grid = style_color(ImGuiCol_Border, 0.35f);
  const ImU32 text = style_color(ImGuiCol_Text);
  const float gap = ImGui::GetStyle().ItemInnerSpacing.x;

  // In a narrow plot neighbouring labels can collide; a label that would overlap the previous one
  // is left out (its grid line stays), which keeps the rest legible.
  float last_label_right = -1e30f;
  for (const plot::AxisTick& tick : axes.x.ticks) {
    const float x = static_cast<float>(view.x_to_pixel(tick.value));
    draw.AddLine({x, top_left.y}, {x, bottom_right.y}, tick.major ? major_grid : minor_grid);
    if (tick.label.empty()) continue;
    const ImVec2 size = ImGui::CalcTextSize(tick.label.c_str());
    const float left = x - size.x * 0.5f;
    if (left < last_label_right + gap) continue;
    draw.AddText({left, bottom_right.y + gap}, text, tick.label.c_str());
    last_label_right = left + size.x;
  }
  float last_label_top = 1e30f;  // y labels go upwards as values grow
  for (const plot::AxisTick& tick : axes.y.ticks) {
    const float y = static_cast<float>(view.y_to_pixel(tick.value));
    draw.AddLine({top_left.x, y}, {bottom_right.x, y}, tick.major ? major_grid : minor_grid);
    if (tick.label.empty()) continue;
    const ImVec2 size = ImGui::CalcTextSize(tick.label.c_str());
    const float top = y - size.y * 0.5f;
    if (top + size.y > last_label_top) continue;
    draw.AddText({top_left.x - gap - size.x, top}, text, tick.label.c_str());
    last_label_top = top;
  }
  draw.AddRect(top_left, bottom_right, style_color(ImGuiCol_Border));
}

void paint_series(ImDrawList& draw, const plot::ViewTransform& view, const plot::PlotSeries& series,
                  const SeriesStyle& style) {
  const float alpha = series.faint ? kFaintAlpha : 1.0f;
  const float thickness = series.faint ? style.line_thickness * 0.75f : style.line_thickness;
  if (style.show_band)
    paint_bands(draw, view, series, plot_color(series.color, alpha * kBandAlpha));

  const std::vector<plot::PixelPoint> pixels = to_pixels(view, series);
  const ImU32 color = plot_color(series.color, alpha);
  paint_line(draw, pixels, color, thickness, series.dash);
  if (!style.show_point_markers) return;
  const float radius = thickness + 1.5f;
  for (const plot::PixelPoint& p : pixels) {
    paint_marker(draw, to_imvec(p.x, p.y), radius, series.marker, color);
  }
}

void paint_markers(ImDrawList& draw, const plot::ViewTransform& view,
                   std::span<const plot::PlotMarker> markers) {
  const plot::PixelRect& r = view.rect();
  const ImU32 line_color = style_color(ImGuiCol_PlotHistogram);
  const ImU32 text = style_color(ImGuiCol_Text);
  const float pad = ImGui::GetStyle().ItemInnerSpacing.x;
  for (const plot::PlotMarker& marker : markers) {
    if (!std::isfinite(marker.x)) continue;
    const double x = view.x_to_pixel(marker.x);
    const plot::PixelPoint line[2] = {{x, r.top}, {x, r.bottom}};
    for (const plot::PixelSegment& s : plot::dash_polyline(line, 6.0, 4.0)) {
      draw.AddLine(to_imvec(s.from.x, s.from.y), to_imvec(s.to.x, s.to.y), line_color, 1.5f);
    }
    if (marker.label.empty()) continue;
    // Label right of the line, flipped to its left when it would run off the plot.
    const ImVec2 size = ImGui::CalcTextSize(marker.label.c_str());
    float left = static_cast<float>(x) + pad;
    if (left + size.x > static_cast<float>(r.right)) left = static_cast<float>(x) - pad - size.x;
    const ImVec2 at{left, static_cast<float>(r.top) + pad};
    draw.AddRectFilled({at.x - 2, at.y - 1}, {at.x + size.x + 2, at.y + size.y + 1},
                       style_color(ImGuiCol_PopupBg, 0.8f));
    draw.AddText(at, text, marker.label.c_str());
  }
}

void paint_crosshair(ImDrawList& draw, const plot::ViewTransform& view, ImVec2 mouse) {
  const plot::PixelRect& r = view.rect();
  const ImU32 color = style_color(ImGuiCol_Text, 0.35f);
  draw.AddLine({mouse.x, static_cast<float>(r.top)}, {mouse.x, static_cast<float>(r.bottom)},
               color);
  draw.AddLine({static_cast<float>(r.left), mouse.y}, {static_cast<float>(r.right), mouse.y},
               color);
}

void paint_point_highlight(ImDrawList& draw, ImVec2 point, ImU32 color) {
  const float radius = ImGui::GetFontSize() * 0.4f;
  draw.AddCircle(point, radius, style_color(ImGuiCol_Text), 0, 2.5f);
  draw.AddCircleFilled(point, radius * 0.6f, color);
}

void paint_guide_lines(ImDrawList& draw, const plot::ViewTransform& view,
                       std::span<const plot::PlotGuide> guides) {
  const plot::PixelRect& r = view.rect();
  const ImU32 color = style_color(ImGuiCol_Text, 0.75f);
  for (const plot::PlotGuide& guide : guides) {
    if (!std::isfinite(guide.y)) continue;
    const double y = view.y_to_pixel(guide.y);
    if (y < r.top || y > r.bottom) continue;
    const plot::PixelPoint line[2] = {{r.left, y}, {r.right, y}};
    for (const plot::PixelSegment& s : plot::dash_polyline(line, 3.0, 3.0)) {
      draw.AddLine(to_imvec(s.from.x, s.from.y), to_imvec(s.to.x, s.to.y), color, 1.5f);
    }
  }
}

void paint_guide_labels(ImDrawList& draw, std::span<const plot::PlotGuide> guides,
                        std::span<const plot::PixelRect> places) {
  const ImU32 color = style_color(ImGuiCol_Text, 0.85f);
  for (std::size_t i = 0; i < guides.size() && i < places.size(); ++i) {
    draw.AddText(to_imvec(places[i].left, places[i].top), color, guides[i].label.c_str());
  }
}

}  // namespace tl::ui
