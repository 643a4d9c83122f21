// The launch as a picture, beside its controls: the grid's blocks, each drawn as its warps (one row
// of 32 lanes per warp, threads numbered x fastest as CUDA forms warps), idle threads greyed. The
// blocks and their idle threads come from the core's grid diagram; this only draws them.

#include <algorithm>
#include <cmath>
#include <string>

#include "core/format.hpp"
#include "draw_colors.hpp"
#include "panels.hpp"

namespace tl::ui {
namespace {

std::string dims(const Dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

// A block's label as short as its grid allows: "12" in a 1D grid, "(3, 1)" in a 2D one, so the
// labels of neighbouring tiles do not run into each other.
std::string block_label(const Dim3& index, const Dim3& grid) {
  if (grid.y == 1 && grid.z == 1) return std::to_string(index.x);
  if (grid.z == 1) return "(" + std::to_string(index.x) + ", " + std::to_string(index.y) + ")";
  return dims(index);
}

// The next piece of text on the current line where it fits whole, else on the next: numbers are
// never broken (3,072 split after its comma), as wrapped text would.
void text_piece(const ImVec4& color, const std::string& text, bool first = false) {
  if (!first) {
    ImGui::SameLine(0, ImGui::CalcTextSize(" ").x);
    if (ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
  }
  ImGui::TextColored(color, "%s", text.c_str());
}

void draw_caption(const GridDiagram& diagram, const DeviceLimits& limits) {
  const ImVec4 text = ImGui::GetStyleColorVec4(ImGuiCol_Text);
  text_piece(text, "grid " + dims(diagram.config.grid), true);
  text_piece(text, "× block " + dims(diagram.config.block));
  text_piece(text, "= " + format_count(diagram.threads) + " threads");
  text_piece(text, "in " + format_count(diagram.blocks) + " block(s)");
  text_piece(text,
             std::to_string(diagram.warps_per_block) + " warp(s) of " +
                 std::to_string(diagram.warp_size) + " per block",
             true);
  if (diagram.last_warp_threads < diagram.warp_size) {
    text_piece(palette().warning, "the last uses " + std::to_string(diagram.last_warp_threads) +
                                      " of " + std::to_string(diagram.warp_size) + " lanes");
  }
  if (diagram.idle_threads) {
    if (*diagram.idle_threads > 0) {
      ImGui::TextColored(palette().muted, "%s idle thread(s): no element to compute",
                         format_count(*diagram.idle_threads).c_str());
    } else {
      ImGui::TextColored(palette().muted, "no idle threads");
    }
  } else {
    ImGui::TextColored(palette().muted, "threads cooperate on elements: none is idle by position");
  }
  // Wrapped: the panel is also drawn narrow, beside the mapping view.
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  ImGui::TextWrapped("limits: block ≤ %u threads, ≤ %s; grid ≤ %s", limits.max_threads_per_block,
                     dims(limits.max_block_dim).c_str(), dims(limits.max_grid_dim).c_str());
  ImGui::PopStyleColor();
}

}  // namespace

void draw_grid_panel(AppController& controller, const Fonts& fonts, bool titled) {
  const AppState& state = controller.state();
  const GridDiagram& diagram = state.controls.grid_diagram;
  if (titled) {
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted("Grid of blocks");
    ImGui::PopFont();
  }
  draw_caption(diagram, state.device.limits);
  if (diagram.shown.empty()) {
    ImGui::TextColored(palette().error, "blocks this large cannot launch: none drawn");
    return;
  }

  const float width = ImGui::GetContentRegionAvail().x;
  const float height = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing();
  const float gap = ImGui::GetFontSize() * 0.5f;
  const float label_h = ImGui::GetTextLineHeight();
  const std::size_t slots = diagram.shown.size() + (diagram.gap_before_last ? 1 : 0);
  const float lanes = static_cast<float>(diagram.warp_size);
  const float warps = static_cast<float>(diagram.warps_per_block);
  // The number of tiles per row that gives the largest cells with every tile in view.
  std::size_t per_row = 1;
  float cell = 0;
  for (std::size_t columns = 1; columns <= slots; ++columns) {
    const float rows = std::ceil(static_cast<float>(slots) / static_cast<float>(columns));
    const float by_width =
        (width - gap * static_cast<float>(columns - 1)) / (static_cast<float>(columns) * lanes);
    const float by_height = (height - rows * (label_h + gap)) / (rows * warps);
    const float fits = std::floor(std::min(by_width, by_height));
    if (fits > cell) {
      cell = fits;
      per_row = columns;
    }
  }
  cell = std::clamp(cell, 1.0f, 12.0f);
  const float tile_w = cell * lanes;
  const float tile_h = cell * static_cast<float>(diagram.warps_per_block);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const std::uint64_t per_block = diagram.config.block.volume();

  std::size_t slot = 0;
  float bottom = origin.y;
  for (std::size_t i = 0; i < diagram.shown.size(); ++i, ++slot) {
    if (diagram.gap_before_last && i + 1 == diagram.shown.size()) {
      const float x = origin.x + static_cast<float>(slot % per_row) * (tile_w + gap);
      const float y = origin.y + static_cast<float>(slot / per_row) * (tile_h + label_h + gap);
      draw->AddText({x + tile_w * 0.4f, y + label_h + tile_h * 0.4f},
                    ImGui::GetColorU32(palette().muted), "…");
      ++slot;
    }
    const DiagramBlock& block = diagram.shown[i];
    const float x0 = origin.x + static_cast<float>(slot % per_row) * (tile_w + gap);
    const float y0 = origin.y + static_cast<float>(slot / per_row) * (tile_h + label_h + gap);
    // The label where it fits over its tile; else the tooltip names the block.
    const std::string label = block_label(block.index, diagram.config.grid);
    if (ImGui::CalcTextSize(label.c_str()).x <= tile_w + gap * 0.5f) {
      draw->AddText({x0, y0}, ImGui::GetColorU32(palette().muted), label.c_str());
    }
    const float top = y0 + label_h;
    const std::uint32_t block_linear = static_cast<std::uint32_t>(
        diagram.config.grid.linear(block.index.x, block.index.y, block.index.z));
    const ImU32 busy = to_imgui(categorical_color(block_linear));
    const ImU32 idle = to_imgui(kIdleThreadColor);
    for (std::uint64_t t = 0; t < per_block; ++t) {
      const float cx = x0 + cell * static_cast<float>(t % diagram.warp_size);
      const float cy = top + cell * static_cast<float>(t / diagram.warp_size);
      const float inset = cell >= 4.0f ? 1.0f : 0.0f;
      draw->AddRectFilled({cx, cy}, {cx + cell - inset, cy + cell - inset},
                          block.idle[t] ? idle : busy);
      if (mouse.x >= cx && mouse.x < cx + cell && mouse.y >= cy && mouse.y < cy + cell) {
        const Dim3 thread = diagram.config.block.unlinear(t);
        wrapped_tooltip("blockIdx %s, threadIdx %s\nwarp %llu, lane %llu%s",
                        dims(block.index).c_str(), dims(thread).c_str(),
                        static_cast<unsigned long long>(t / diagram.warp_size),
                        static_cast<unsigned long long>(t % diagram.warp_size),
                        block.idle[t] ? "\nidle: no element" : "");
      }
    }
    // The block's outline; its rows are its warps.
    draw->AddRect({x0 - 1, top - 1}, {x0 + tile_w + 1, top + tile_h + 1}, IM_COL32(0, 0, 0, 255));
    bottom = std::max(bottom, top + tile_h);
  }
  ImGui::Dummy({width, bottom - origin.y + gap});
  ImGui::TextColored(palette().muted, "one row = one warp; hover a thread for its indices");
}

}  // namespace tl::ui
