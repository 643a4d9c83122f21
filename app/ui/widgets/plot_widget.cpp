#include "ui/widgets/plot_widget.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/plot/plot_axes.hpp"
#include "core/plot/plot_layout.hpp"
#include "ui/widgets/plot_colors.hpp"
#include "ui/widgets/plot_legend.hpp"
#include "ui/widgets/plot_painter.hpp"

namespace tl::ui {
namespace {

// Height of the plot area when the caller leaves it to us and there is no room to fill.
constexpr float kDefaultHeightEm = 18.0f;
// Below this the plot cannot show ticks and data; it is drawn this big and clipped by the window.
constexpr float kMinimumSideEm = 6.0f;
// The legend moves beside the plot, one series a row, where a row above would not hold it and the
// plot keeps at least this width: its rows would otherwise take the data's height.
constexpr float kLegendBesideMinPlotEm = 20.0f;

float widest_label(const plot::AxisLayout& axis) {
  float widest = 0;
  for (const plot::AxisTick& tick : axis.ticks) {
    if (!tick.label.empty()) widest = std::max(widest, ImGui::CalcTextSize(tick.label.c_str()).x);
  }
  return widest;
}

std::vector<plot::LabelSize> guide_label_sizes(std::span<const plot::PlotGuide> guides) {
  std::vector<plot::LabelSize> sizes;
  sizes.reserve(guides.size());
  for (const plot::PlotGuide& guide : guides) {
    const ImVec2 size = ImGui::CalcTextSize(guide.label.c_str());
    sizes.push_back({size.x, size.y});
  }
  return sizes;
}

// The rectangle inside the canvas left once tick labels, axis titles and the ceilings' labels (in
// the right margin, off the data) have their room.
plot::PixelRect plot_area(ImVec2 canvas_min, ImVec2 canvas_max, const plot::PlotAxes& axes,
                          const PlotOptions& options, std::span<const plot::LabelSize> guides) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight();
  const float gap = style.ItemInnerSpacing.x;
  const float left = widest_label(axes.y) + 2 * gap;
  const float top = (options.y_title.empty() ? 0.5f * line : line + gap);
  const float bottom = line + gap + (options.x_title.empty() ? 0.0f : line + gap);
  // Room for half of the last x label, which is centred on its tick.
  const float right = std::max({gap, 0.5f * widest_label(axes.x),
                                static_cast<float>(plot::guide_margin_width(guides, gap))});
  return {canvas_min.x + left, canvas_min.y + top, canvas_max.x - right, canvas_max.y - bottom};
}

void paint_axis_titles(ImDrawList& draw, ImVec2 canvas_min, ImVec2 canvas_max,
                       const plot::PixelRect& area, const PlotOptions& options) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  if (!options.x_title.empty()) {
    const ImVec2 size = ImGui::CalcTextSize(options.x_title.c_str());
    const float centre = static_cast<float>(area.left + area.right) * 0.5f;
    draw.AddText({centre - size.x * 0.5f, canvas_max.y - size.y}, text, options.x_title.c_str());
  }
  // ImGui cannot rotate text, so the y title sits above the y axis, left-aligned with the labels.
  if (!options.y_title.empty()) draw.AddText(canvas_min, text, options.y_title.c_str());
}

void show_hover_tooltip(const plot::PlotSeries& series, const plot::PlotPoint& point,
                        const PlotOptions& options) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(series.name.c_str());
  ImGui::Separator();
  const std::string x = plot::format_readout(point.x, options.x_axis.format);
  const std::string y = plot::format_readout(point.y, options.y_axis.format);
  ImGui::Text("x: %s", x.c_str());
  ImGui::Text("y: %s", y.c_str());
  if (plot::has_spread(point)) {
    const std::string low = plot::format_readout(point.y_min, options.y_axis.format);
    const std::string high = plot::format_readout(point.y_max, options.y_axis.format);
    // "to", not an en dash: the UI fonts load Latin-1 glyphs only.
    ImGui::Text("range: %s to %s", low.c_str(), high.c_str());
  }
  ImGui::EndTooltip();
}

}  // namespace

bool PlotWidget(const char* id, PlotState& state, std::span<const plot::PlotSeries> series,
                std::span<const plot::PlotMarker> markers, const PlotOptions& options,
                ImVec2 size) {
  ImGui::PushID(id);
  const ImVec2 available = ImGui::GetContentRegionAvail();
  const float em = ImGui::GetFontSize();
  const float width = std::max(size.x > 0 ? size.x : available.x, kMinimumSideEm * em);
  const float total_height =
      size.y > 0 ? size.y
                 : (available.y > kMinimumSideEm * em ? available.y : kDefaultHeightEm * em);
  const float top = ImGui::GetCursorScreenPos().y;

  ImGui::BeginGroup();
  if (!options.title.empty()) ImGui::TextUnformatted(options.title.c_str());
  bool changed = false;
  const bool has_legend = options.show_legend && !series.empty();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  // Beside the plot the legend scrolls where its entries run past the plot's height (the matrix
  // multiply's eleven at 1280 x 720): its column then has room for the scrollbar too.
  const float title_height = options.title.empty() ? 0.0f : ImGui::GetTextLineHeightWithSpacing();
  const bool legend_scrolls =
      static_cast<float>(series.size()) * ImGui::GetTextLineHeightWithSpacing() >
      total_height - title_height;
  const float legend_column =
      has_legend
          ? widest_legend_entry(series) + (legend_scrolls ? ImGui::GetStyle().ScrollbarSize : 0.0f)
          : 0.0f;
  const plot::LegendLayout legend =
      plot::place_legend({.width = width,
                          .entries = has_legend ? series.size() : 0,
                          .row_width = has_legend ? legend_row_width(series) : 0.0f,
                          .widest_entry = legend_column,
                          .spacing = spacing,
                          .min_plot_width = kLegendBesideMinPlotEm * em});
  const bool legend_beside = legend.placement == plot::LegendPlacement::kBeside;
  if (legend.placement == plot::LegendPlacement::kAbove) {
    changed = draw_plot_legend(series, state.visibility, width);
  }

  // The canvas takes whatever height the title and legend left, and the width the legend beside
  // it leaves.
  const float used = ImGui::GetCursorScreenPos().y - top;
  const auto canvas_width = static_cast<float>(legend.canvas_width);
  const ImVec2 canvas_size{canvas_width, std::max(total_height - used, kMinimumSideEm * em)};
  const ImVec2 canvas_min = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##canvas", canvas_size);
  const bool canvas_hovered = ImGui::IsItemHovered();
  const ImVec2 canvas_max{canvas_min.x + canvas_size.x, canvas_min.y + canvas_size.y};

  const plot::PlotAxes axes =
      plot::layout_plot_axes(series, markers, state.visibility, options.x_axis, options.y_axis,
                             options.show_bands, options.guides);
  const std::vector<plot::LabelSize> guide_labels = guide_label_sizes(options.guides);
  const plot::PixelRect area = plot_area(canvas_min, canvas_max, axes, options, guide_labels);
  state.view =
      plot::ViewTransform(area, {axes.x.range, axes.x.scale}, {axes.y.range, axes.y.scale});

  ImDrawList& draw = *ImGui::GetWindowDrawList();
  paint_axes(draw, state.view, axes);
  // A title longer than the canvas is cut at its edge rather than drawn over a legend beside it.
  draw.PushClipRect(canvas_min, canvas_max, true);
  paint_axis_titles(draw, canvas_min, canvas_max, area, options);
  draw.PopClipRect();

  const ImVec2 area_min{static_cast<float>(area.left), static_cast<float>(area.top)};
  const ImVec2 area_max{static_cast<float>(area.right), static_cast<float>(area.bottom)};
  draw.PushClipRect(area_min, area_max, true);
  const SeriesStyle style{options.line_thickness, options.show_bands, options.show_point_markers};
  // Earlier sweeps first, so the current ones are drawn on top of them.
  for (const bool faint_pass : {true, false}) {
    for (const plot::PlotSeries& s : series) {
      if (s.faint == faint_pass && state.visibility.is_visible(s)) {
        paint_series(draw, state.view, s, style);
      }
    }
  }
  paint_markers(draw, state.view, markers);
  paint_guide_lines(draw, state.view, options.guides);

  state.hovered.reset();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (canvas_hovered && area.contains(mouse.x, mouse.y)) {
    paint_crosshair(draw, state.view, mouse);
    state.hovered = plot::nearest_point(state.view, series, state.visibility, mouse.x, mouse.y,
                                        options.hover_radius_em * em);
    if (state.hovered) {
      const plot::PlotSeries& s = series[state.hovered->series_index];
      const plot::PlotPoint& p = s.points[state.hovered->point_index];
      const ImVec2 at{static_cast<float>(state.view.x_to_pixel(p.x)),
                      static_cast<float>(state.view.y_to_pixel(p.y))};
      paint_point_highlight(draw, at, plot_color(s.color));
      show_hover_tooltip(s, p, options);
    }
  }
  draw.PopClipRect();
  // The ceilings' labels in the right margin, beside their lines.
  std::vector<double> guide_y;
  guide_y.reserve(options.guides.size());
  for (const plot::PlotGuide& guide : options.guides) {
    guide_y.push_back(state.view.y_to_pixel(guide.y));
  }
  paint_guide_labels(
      draw, options.guides,
      plot::place_guide_labels(area, guide_y, guide_labels, ImGui::GetStyle().ItemInnerSpacing.x));

  if (legend_beside) {
    ImGui::SetCursorScreenPos({canvas_max.x + spacing, canvas_min.y});
    ImGui::BeginChild("##legend", {static_cast<float>(legend.legend_width), canvas_size.y}, false,
                      ImGuiWindowFlags_NoBackground);
    changed = draw_plot_legend(series, state.visibility, widest_legend_entry(series),
                               /*one_per_row=*/true);
    ImGui::EndChild();
  }
  ImGui::EndGroup();
  ImGui::PopID();
  return changed;
}

}  // namespace tl::ui
