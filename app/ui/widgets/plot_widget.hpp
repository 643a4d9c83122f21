#pragma once
// ThreadLab's plot: CPU vs GPU timings over a sweep, on log or linear axes. ImPlot is not packaged
// in Debian, so this is a small one of our own: the layout, ticks, mapping and picking live in
// core/plot (tested without ImGui); this file only draws them and handles the mouse.

#include <imgui.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/plot/axis.hpp"
#include "core/plot/series.hpp"
#include "core/plot/series_visibility.hpp"
#include "core/plot/view_transform.hpp"

namespace tl::ui {

struct PlotOptions {
  std::string title;    // above the legend; empty for none
  std::string x_title;  // under the x tick labels: "Elements (N)"
  std::string y_title;  // above the y tick labels: "Time"
  plot::AxisOptions x_axis{.scale = plot::AxisScale::kLog10, .format = plot::TickFormat::kCount};
  plot::AxisOptions y_axis{.scale = plot::AxisScale::kLog10,
                           .format = plot::TickFormat::kMilliseconds};
  std::vector<plot::PlotGuide> guides{};  // horizontal reference lines, e.g. a measured ceiling
  bool show_legend = true;
  bool show_bands = true;          // min–max range of the repeats as a translucent band
  bool show_point_markers = true;  // a dot on every measured point, so the samples are visible
  float line_thickness = 2.0f;
  // Hover pick radius, in multiples of the font size so it grows with projector fonts.
  float hover_radius_em = 1.0f;
};

// What the widget remembers between frames. Owned by the caller, one per plot.
struct PlotState {
  plot::SeriesVisibility visibility;  // the user's legend toggles
  // Nearest point under the mouse this frame, if any (indices into the series span).
  std::optional<plot::PointHit> hovered;
  // The mapping used for the last frame, for callers drawing overlays (and for tests).
  plot::ViewTransform view;
};

// Draws the plot in a `size` box at the cursor (a size component <= 0 takes the available space).
// Returns true when the user changed `state.visibility` this frame (a legend click).
bool PlotWidget(const char* id, PlotState& state, std::span<const plot::PlotSeries> series,
                std::span<const plot::PlotMarker> markers, const PlotOptions& options, ImVec2 size);

}  // namespace tl::ui
