// Matrix multiply: what the thread of the picked element of C reads. A and B are drawn to scale
// beside C; the naive kernel's whole row of A and column of B, or the tiled kernel's tiles phase by
// phase, with a slider over the phases. The reads come from the core (matmul_tiles); this draws.

#include <algorithm>
#include <string>

#include "element_reads.hpp"
#include "panels/draw_colors.hpp"
#include "panels/panels.hpp"

namespace tl::ui::matmul_views {
namespace {

struct MatrixBox {
  ImVec2 origin;
  float scale = 1;  // pixels per element
  [[nodiscard]] ImVec2 at(std::uint32_t row, std::uint32_t col) const {
    return {origin.x + scale * static_cast<float>(col), origin.y + scale * static_cast<float>(row)};
  }
};

void fill(ImDrawList* draw, const MatrixBox& box, lessons::IndexRange rows,
          lessons::IndexRange cols, ImU32 color) {
  if (rows.size() == 0 || cols.size() == 0) return;
  const ImVec2 a = box.at(rows.begin, cols.begin);
  const ImVec2 b = box.at(rows.end, cols.end);
  draw->AddRectFilled(a, {std::max(b.x, a.x + 1.5f), std::max(b.y, a.y + 1.5f)}, color);
}

void outline(ImDrawList* draw, const MatrixBox& box, std::uint32_t rows, std::uint32_t cols,
             const char* name) {
  const ImVec2 a = box.at(0, 0);
  const ImVec2 b = box.at(rows, cols);
  draw->AddRectFilled(a, b, IM_COL32(40, 42, 50, 255));
  draw->AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, IM_COL32(140, 140, 150, 255));
  draw->AddText({a.x, a.y - ImGui::GetTextLineHeight() - 2}, ImGui::GetColorU32(palette().muted),
                name);
}

}  // namespace

void draw_element_reads_panel(AppController& controller, const Fonts& fonts) {
  const AppState& state = controller.state();
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("What one thread reads");
  ImGui::PopFont();
  const ElementReadsPick* picked = current_pick(state);
  if (picked == nullptr) {
    ImGui::TextColored(palette().muted,
                       "Click an element of C in the mapping view to see the row of A and the "
                       "column of B its thread reads, and, for the tiled kernel, the tiles loaded "
                       "phase by phase.");
    return;
  }
  const ElementReadsPick& pick = *picked;
  const lessons::MatmulElementReads& reads = pick.reads;
  const lessons::MatmulSize& size = reads.size;
  ImGui::Text("C(%u, %u) = Σ A(%u, i) · B(i, %u) over i = 0 .. %u", reads.element.row,
              reads.element.col, reads.element.row, reads.element.col, size.k - 1);
  const lessons::TilePhase* phase = nullptr;
  if (reads.tiled) {
    int shown = static_cast<int>(pick.phase);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    if (ImGui::SliderInt("phase", &shown, 0, static_cast<int>(reads.phases.size()) - 1)) {
      show_phase(controller, static_cast<std::uint32_t>(shown));
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Which step along K to show: the tiles of A and B loaded in that phase");
    }
    phase = &reads.phases[pick.phase];
    ImGui::SameLine();
    ImGui::TextColored(palette().muted,
                       "i = %u .. %u: the block loads a %u×%u tile of A and of B into shared "
                       "memory, then every thread reads %u values of each from there",
                       phase->k_range.begin, phase->k_range.end - 1, reads.tile, reads.tile,
                       phase->k_range.size());
  } else {
    ImGui::TextColored(palette().muted,
                       "naive kernel: %u values of A and %u of B, every one from global memory",
                       size.k, size.k);
  }

  // A (M×K) left, B (K×N) top right, C (M×N) bottom right: the classic layout where rows of A
  // and columns of B meet at their element of C.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label = ImGui::GetTextLineHeight() + 4;
  const float gap = ImGui::GetFontSize();
  const float total_w = static_cast<float>(size.k + size.n);
  const float total_h = static_cast<float>(size.k + size.m);
  const float scale =
      std::min((avail.x - gap * 2) / total_w, (avail.y - gap - label * 2) / total_h);
  if (scale <= 0) return;
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  const float b_top = top_left.y + label;
  const float c_top = b_top + scale * static_cast<float>(size.k) + gap + label;
  const MatrixBox a{{top_left.x, c_top}, scale};
  const MatrixBox b{{top_left.x + scale * static_cast<float>(size.k) + gap, b_top}, scale};
  const MatrixBox c{{b.origin.x, c_top}, scale};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  outline(draw, a, size.m, size.k, "A (M×K)");
  outline(draw, b, size.k, size.n, "B (K×N)");
  outline(draw, c, size.m, size.n, "C (M×N)");

  const ImU32 read = to_imgui(kHighlightColor, 0.35f);
  const ImU32 tile_color = to_imgui(kHighlightColor, 0.8f);
  const lessons::NaiveReads& naive = reads.naive;
  // The whole row and column the dot product needs, faint; the phase's tiles bright.
  fill(draw, a, {naive.a_row, naive.a_row + 1}, naive.a_cols, read);
  fill(draw, b, naive.b_rows, {naive.b_col, naive.b_col + 1}, read);
  if (phase != nullptr) {
    fill(draw, a, phase->a_rows, phase->a_cols, tile_color);
    fill(draw, b, phase->b_rows, phase->b_cols, tile_color);
    fill(draw, c, phase->a_rows, phase->b_cols, to_imgui(kHighlightColor, 0.25f));
    const ImU32 own = IM_COL32(255, 255, 255, 255);
    if (phase->a_loaded_by_thread) {
      fill(draw, a, {phase->a_loaded_by_thread->row, phase->a_loaded_by_thread->row + 1},
           {phase->a_loaded_by_thread->col, phase->a_loaded_by_thread->col + 1}, own);
    }
    if (phase->b_loaded_by_thread) {
      fill(draw, b, {phase->b_loaded_by_thread->row, phase->b_loaded_by_thread->row + 1},
           {phase->b_loaded_by_thread->col, phase->b_loaded_by_thread->col + 1}, own);
    }
  }
  fill(draw, c, {reads.element.row, reads.element.row + 1},
       {reads.element.col, reads.element.col + 1}, to_imgui(kHighlightColor));
  ImGui::Dummy({avail.x, avail.y});
  if (phase != nullptr) {
    ImGui::SetCursorScreenPos({b.origin.x + scale * static_cast<float>(size.n) + gap, b_top});
    ImGui::TextColored(palette().muted,
                       "white: the one value\nthis thread copies\ninto shared memory");
  }
}

}  // namespace tl::ui::matmul_views
