#include "ui/widgets/plot_legend.hpp"

#include <imgui.h>

#include <algorithm>

#include "ui/widgets/plot_colors.hpp"
#include "ui/widgets/plot_painter.hpp"
#include "ui/widgets/tooltip.hpp"

namespace tl::ui {
namespace {

// Wide enough for a dash-dot pattern to show one whole period either side of the marker.
constexpr float kSwatchEm = 2.2f;

void paint_swatch(ImDrawList& draw, ImVec2 left_centre, float width, const plot::PlotSeries& s,
                  bool visible) {
  const float alpha = (s.faint ? kFaintAlpha : 1.0f) * (visible ? 1.0f : 0.3f);
  const ImU32 color = plot_color(s.color, alpha);
  // The series' own dash and marker, as on the plot, so that a swatch is found by its shape too.
  const plot::PixelPoint line[2] = {{left_centre.x, left_centre.y},
                                    {left_centre.x + width, left_centre.y}};
  paint_line(draw, line, color, 2.0f, s.dash);
  paint_marker(draw, {left_centre.x + width * 0.5f, left_centre.y}, 3.5f, s.marker, color);
}

float legend_entry_width(const plot::PlotSeries& s) {
  return ImGui::GetFontSize() * kSwatchEm + ImGui::GetStyle().ItemInnerSpacing.x +
         ImGui::CalcTextSize(s.name.c_str()).x;
}

}  // namespace

float widest_legend_entry(std::span<const plot::PlotSeries> series) {
  float widest = 0;
  for (const plot::PlotSeries& s : series) widest = std::max(widest, legend_entry_width(s));
  return widest;
}

float legend_row_width(std::span<const plot::PlotSeries> series) {
  float total = 0;
  for (const plot::PlotSeries& s : series) {
    total += legend_entry_width(s) + ImGui::GetStyle().ItemSpacing.x * 2;
  }
  return total;
}

bool draw_plot_legend(std::span<const plot::PlotSeries> series, plot::SeriesVisibility& visibility,
                      float width, bool one_per_row) {
  bool changed = false;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float swatch_width = ImGui::GetFontSize() * kSwatchEm;
  const float row_start = ImGui::GetCursorScreenPos().x;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const plot::PlotSeries& s = series[i];
    const bool visible = visibility.is_visible(s);
    const ImVec2 text_size = ImGui::CalcTextSize(s.name.c_str());
    const ImVec2 item_size{swatch_width + style.ItemInnerSpacing.x + text_size.x,
                           ImGui::GetTextLineHeight()};
    if (i > 0) {
      // Same row when the entry still fits, otherwise wrap.
      ImGui::SameLine(0, style.ItemSpacing.x * 2);
      if (one_per_row || ImGui::GetCursorScreenPos().x + item_size.x > row_start + width) {
        ImGui::NewLine();
        ImGui::SetCursorScreenPos({row_start, ImGui::GetCursorScreenPos().y});
      }
    }
    ImGui::PushID(static_cast<int>(i));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (ImGui::InvisibleButton("##legend", item_size)) {
      visibility.toggle(s);
      changed = true;
    }
    if (ImGui::IsItemHovered()) wrapped_tooltip(visible ? "Click to hide" : "Click to show");
    ImGui::PopID();

    ImDrawList& draw = *ImGui::GetWindowDrawList();
    paint_swatch(draw, {at.x, at.y + item_size.y * 0.5f}, swatch_width, s, visible);
    const ImU32 text = ImGui::GetColorU32(visible ? ImGuiCol_Text : ImGuiCol_TextDisabled);
    draw.AddText({at.x + swatch_width + style.ItemInnerSpacing.x, at.y}, text, s.name.c_str());
  }
  return changed;
}

}  // namespace tl::ui
