#pragma once
// The drawing half of the plot widget: turns already laid-out axes, series and markers into
// ImDrawList calls. No layout decisions here beyond pixel offsets for text.

#include <imgui.h>

#include <span>

#include "core/plot/dash_pattern.hpp"
#include "core/plot/plot_axes.hpp"
#include "core/plot/series.hpp"
#include "core/plot/view_transform.hpp"

namespace tl::ui {

struct SeriesStyle {
  float line_thickness = 2.0f;
  bool show_band = true;
  bool show_point_markers = true;
};

// Background, grid lines for every tick (minor ones lighter), the frame, and tick labels outside
// the plot rectangle (x below it, y to its left).
void paint_axes(ImDrawList& draw, const plot::ViewTransform& view, const plot::PlotAxes& axes);

// Band, line and point dots of one series. Faint series are drawn thinner and translucent.
void paint_series(ImDrawList& draw, const plot::ViewTransform& view, const plot::PlotSeries& series,
                  const SeriesStyle& style);

// A polyline in `dash`'s pattern (core/plot/series_marks.hpp), and one point's marker shape: the
// series and their legend swatches draw with these.
void paint_line(ImDrawList& draw, std::span<const plot::PixelPoint> pixels, ImU32 color,
                float thickness, plot::LineDash dash);
void paint_marker(ImDrawList& draw, ImVec2 centre, float radius, plot::MarkerShape shape,
                  ImU32 color);

// Dashed vertical lines with their labels along the top edge of the plot.
void paint_markers(ImDrawList& draw, const plot::ViewTransform& view,
                   std::span<const plot::PlotMarker> markers);
// Horizontal dotted lines across the data area, and their labels where core/plot/plot_layout.hpp
// placed them (in the right margin, off the data).
void paint_guide_lines(ImDrawList& draw, const plot::ViewTransform& view,
                       std::span<const plot::PlotGuide> guides);
void paint_guide_labels(ImDrawList& draw, std::span<const plot::PlotGuide> guides,
                        std::span<const plot::PixelRect> places);

// Crosshair through the mouse and a ring around the hovered point.
void paint_crosshair(ImDrawList& draw, const plot::ViewTransform& view, ImVec2 mouse);
void paint_point_highlight(ImDrawList& draw, ImVec2 point, ImU32 color);

}  // namespace tl::ui
