// Dense layer: the layer drawn small. The input vector as a strip above W's heatmap (input cell j
// over heatmap column j), the outputs as a strip right of it (heatmap row k gives output k), so a
// row of W times the inputs can be followed to its output. The averaging into cells and the
// colours come from the core (dense_layer_picture); this draws them and the hover readout.

#include <algorithm>
#include <cmath>
#include <string>

#include "core/format.hpp"
#include "core/plot/tick_format.hpp"
#include "layer_panel.hpp"
#include "panels/draw_colors.hpp"
#include "theme.hpp"
#include "widgets/tooltip.hpp"

namespace tl::ui::dense_layer_views {
namespace {

struct Strip {
  ImVec2 origin;
  float cell = 1;  // pixels per cell
  bool vertical = false;
  [[nodiscard]] ImVec2 cell_min(std::uint32_t i) const {
    const float offset = cell * static_cast<float>(i);
    return vertical ? ImVec2{origin.x, origin.y + offset} : ImVec2{origin.x + offset, origin.y};
  }
};

void draw_cell(ImDrawList* draw, ImVec2 min, float size, const Rgb& color) {
  const ImVec2 max{min.x + size, min.y + size};
  draw->AddRectFilled(min, max, to_imgui(color));
  // A hairline between cells once they are big enough to spare it.
  if (size >= 6) draw->AddRect(min, max, to_imgui(kBackgroundColor, 0.6f));
}

bool mouse_in(ImVec2 min, float width, float height) {
  const ImVec2 m = ImGui::GetIO().MousePos;
  return ImGui::IsWindowHovered() && m.x >= min.x && m.x < min.x + width && m.y >= min.y &&
         m.y < min.y + height;
}

std::string value_text(float value, int digits) {
  return plot::format_value(value, plot::TickFormat::kNumber, digits);
}

// "12" or "64 .. 95": the items a cell covers.
std::string covered(lessons::CellRange range) {
  if (range.end - range.begin <= 1) return std::to_string(range.begin);
  return std::to_string(range.begin) + " .. " + std::to_string(range.end - 1);
}

std::string scale_legend(const char* name, lessons::ValueRange range) {
  return std::string(name) + " " + value_text(range.min, 3) + " .. " + value_text(range.max, 3);
}

// Muted text after the previous item where it fits on that line, else on the next one, wrapped:
// the panel is drawn wide in its tab and narrow beside the mapping view.
void muted_after(const std::string& text) {
  ImGui::SameLine(0, ImGui::GetFontSize());
  if (ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

}  // namespace

void draw_layer_panel(LessonViewContext& context, const Fonts& fonts) {
  const AppState& state = context.state();
  ImGui::PushFont(fonts.bold);
  ImGui::TextWrapped("y = σ(W·x + b), drawn small");
  ImGui::PopFont();
  const lessons::LayerPicture* shown = compute::layer_picture(state.lesson_picture);
  if (shown == nullptr) {
    ImGui::TextColored(palette().muted,
                       "Launch to see the layer: the inputs, the weights as a heatmap and the "
                       "outputs, from the timed run.");
    return;
  }
  const lessons::LayerPicture& picture = *shown;
  const bool averaged = picture.input_cells < picture.in || picture.neuron_cells < picture.out;
  muted_after(format_count(picture.in) + " inputs → " + format_count(picture.out) +
              " neurons, batch row 0" +
              (averaged ? "; each cell is the mean of the values it covers" : ""));
  ImGui::TextColored(palette().muted, "%s", scale_legend("x", picture.input_range).c_str());
  muted_after(scale_legend("W", picture.weight_range));
  if (!picture.outputs.empty()) muted_after(scale_legend("y", picture.output_range));
  muted_after("(blue < 0 < orange; dark → light for y)");

  // Heatmap neuron_cells × input_cells; the input strip above it after a gap of one cell; the
  // σ arrow right of it, as wide as its label; the output strip right of the arrow; the heatmap's
  // caption under it.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label = ImGui::GetTextLineHeightWithSpacing();
  const char* sigma = "σ(·+b)";
  const float arrow_w = ImGui::CalcTextSize(sigma).x + ImGui::GetFontSize();
  const auto columns = static_cast<float>(picture.input_cells + 1);
  const auto rows = static_cast<float>(picture.neuron_cells + 2);
  const float cell =
      std::floor(std::min((avail.x - arrow_w) / columns, (avail.y - 2 * label) / rows));
  if (cell < 2 || picture.input_cells == 0 || picture.neuron_cells == 0) return;
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  const Strip inputs{{top_left.x, top_left.y + label}, cell, false};
  const ImVec2 heatmap{top_left.x, inputs.origin.y + 2 * cell};
  const float heatmap_w = cell * static_cast<float>(picture.input_cells);
  const float heatmap_h = cell * static_cast<float>(picture.neuron_cells);
  const Strip outputs{{heatmap.x + heatmap_w + arrow_w, heatmap.y}, cell, true};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(palette().muted);
  draw->AddText({inputs.origin.x, top_left.y}, text, "x (inputs)");
  draw->AddText({outputs.origin.x, heatmap.y - label}, text, "y");
  std::string caption = "W: " + format_count(picture.out) + " neurons (rows) × " +
                        format_count(picture.in) + " inputs (columns)";
  // Narrow (beside the mapping view): the sizes alone, rows × columns as everywhere else.
  if (ImGui::CalcTextSize(caption.c_str()).x > avail.x) {
    caption = "W: " + format_count(picture.out) + " × " + format_count(picture.in);
  }
  draw->AddText({heatmap.x, heatmap.y + heatmap_h + 4}, text, caption.c_str());

  for (std::uint32_t c = 0; c < picture.input_cells; ++c) {
    draw_cell(draw, inputs.cell_min(c), cell,
              lessons::layer_cell_color(picture.inputs[c], picture.input_range));
  }
  for (std::uint32_t k = 0; k < picture.neuron_cells; ++k) {
    for (std::uint32_t c = 0; c < picture.input_cells; ++c) {
      const float w = picture.weights[std::size_t{k} * picture.input_cells + c];
      draw_cell(
          draw,
          {heatmap.x + cell * static_cast<float>(c), heatmap.y + cell * static_cast<float>(k)},
          cell, lessons::layer_cell_color(w, picture.weight_range));
    }
  }
  for (std::uint32_t k = 0; k < picture.outputs.size(); ++k) {
    draw_cell(draw, outputs.cell_min(k), cell,
              lessons::layer_cell_color(picture.outputs[k], picture.output_range));
  }
  // σ between W and y: each row of W dotted with x, plus b, through the sigmoid.
  const float arrow_y = heatmap.y + heatmap_h * 0.5f;
  const float arrow_x0 = heatmap.x + heatmap_w + 4;
  const float arrow_x1 = outputs.origin.x - 4;
  draw->AddLine({arrow_x0, arrow_y}, {arrow_x1, arrow_y}, text, 1.5f);
  draw->AddTriangleFilled({arrow_x1, arrow_y}, {arrow_x1 - 7, arrow_y - 4},
                          {arrow_x1 - 7, arrow_y + 4}, text);
  draw->AddText({arrow_x0 + ImGui::GetFontSize() * 0.25f, arrow_y - label}, text, sigma);

  // Hover: which values a cell stands for.
  const std::uint64_t in = picture.in;
  const std::uint64_t out = picture.out;
  if (mouse_in(inputs.origin, heatmap_w, cell)) {
    const auto c = static_cast<std::uint32_t>((ImGui::GetIO().MousePos.x - inputs.origin.x) / cell);
    const auto range = lessons::cell_range(c, picture.input_cells, in);
    wrapped_tooltip("x[%s] = %s", covered(range).c_str(), value_text(picture.inputs[c], 4).c_str());
  } else if (mouse_in(heatmap, heatmap_w, heatmap_h)) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const auto c = static_cast<std::uint32_t>((m.x - heatmap.x) / cell);
    const auto k = static_cast<std::uint32_t>((m.y - heatmap.y) / cell);
    wrapped_tooltip(
        "W[%s][%s] = %s\nneuron %s reads input %s through this weight",
        covered(lessons::cell_range(k, picture.neuron_cells, out)).c_str(),
        covered(lessons::cell_range(c, picture.input_cells, in)).c_str(),
        value_text(picture.weights[std::size_t{k} * picture.input_cells + c], 4).c_str(),
        covered(lessons::cell_range(k, picture.neuron_cells, out)).c_str(),
        covered(lessons::cell_range(c, picture.input_cells, in)).c_str());
  } else if (!picture.outputs.empty() &&
             mouse_in(outputs.origin, cell, cell * static_cast<float>(picture.outputs.size()))) {
    const auto k =
        static_cast<std::uint32_t>((ImGui::GetIO().MousePos.y - outputs.origin.y) / cell);
    wrapped_tooltip("y[%s] = σ(W[%s]·x + b) = %s",
                    covered(lessons::cell_range(k, picture.neuron_cells, out)).c_str(),
                    covered(lessons::cell_range(k, picture.neuron_cells, out)).c_str(),
                    value_text(picture.outputs[k], 4).c_str());
  }
  ImGui::Dummy({avail.x, heatmap.y + heatmap_h + label - top_left.y});
}

}  // namespace tl::ui::dense_layer_views
