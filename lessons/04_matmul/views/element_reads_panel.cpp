// Matrix multiply: what the thread of the picked element of C reads. A and B are drawn to scale
// beside C; the naive kernel's whole row of A and column of B, or the tiled kernel's tiles phase by
// phase, with a slider over the phases. The reads come from the core (matmul_tiles); this draws.

#include <algorithm>
#include <string>

#include "element_reads.hpp"
#include "panels/draw_colors.hpp"
#include "theme.hpp"
#include "widgets/tooltip.hpp"

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

// One element made visible at any scale: at least about a third of a line square, centred on the
// element, outlined so it shows on the tile under it.
void mark(ImDrawList* draw, const MatrixBox& box, std::uint32_t row, std::uint32_t col,
          ImU32 color) {
  const float side = std::max(box.scale, ImGui::GetFontSize() * 0.35f);
  const ImVec2 corner = box.at(row, col);
  const ImVec2 centre{corner.x + box.scale * 0.5f, corner.y + box.scale * 0.5f};
  const ImVec2 a{centre.x - side * 0.5f, centre.y - side * 0.5f};
  const ImVec2 b{centre.x + side * 0.5f, centre.y + side * 0.5f};
  draw->AddRectFilled(a, b, color);
  draw->AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, IM_COL32(20, 20, 24, 255));
}

void draw_matrices(const lessons::MatmulElementReads& reads, const lessons::TilePhase* phase);

}  // namespace

void draw_element_reads_panel(LessonViewContext& context, const Fonts& fonts) {
  const AppState& state = context.state();
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
  // In a wide, short panel (the tab under the mapping view) the words go in a column on the left
  // and the matrices take the whole height beside them; lines of text above would leave them a
  // strip a hundred pixels high.
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const bool text_beside = room.x >= room.y * 2.0f;
  if (text_beside) {
    const float text_width = std::min(room.x * 0.42f, ImGui::GetFontSize() * 26.0f);
    ImGui::BeginChild("reads-text", {text_width, room.y});
    ImGui::PushTextWrapPos(0.0f);
  }
  ImGui::Text("C(%u, %u) = Σ A(%u, i) · B(i, %u) over i = 0 .. %u", reads.element.row,
              reads.element.col, reads.element.row, reads.element.col, size.k - 1);
  const lessons::TilePhase* phase = nullptr;
  if (reads.tiled) {
    int shown = static_cast<int>(pick.phase);
    ImGui::SetNextItemWidth(
        std::min(ImGui::GetFontSize() * 14, ImGui::GetContentRegionAvail().x -
                                                ImGui::CalcTextSize("phase").x -
                                                ImGui::GetStyle().ItemInnerSpacing.x));
    if (ImGui::SliderInt("phase", &shown, 0, static_cast<int>(reads.phases.size()) - 1)) {
      show_phase(context, static_cast<std::uint32_t>(shown));
    }
    if (ImGui::IsItemHovered()) {
      wrapped_tooltip("Which step along K to show: the tiles of A and B loaded in that phase");
    }
    phase = &reads.phases[pick.phase];
    if (!text_beside) ImGui::SameLine();
    // Wrapped at the panel's edge, never cut off there.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(palette().muted,
                       "i = %u .. %u: the block loads a %u×%u tile of A and of B into shared "
                       "memory, then every thread reads %u values of each from there",
                       phase->k_range.begin, phase->k_range.end - 1, reads.tile, reads.tile,
                       phase->k_range.size());
    ImGui::PopTextWrapPos();
  } else {
    ImGui::TextColored(palette().muted,
                       "naive kernel: %u values of A and %u of B, every one from global memory",
                       size.k, size.k);
  }

  if (phase != nullptr) {
    ImGui::TextColored(palette().muted,
                       "white: the one value this thread copies into shared memory");
  }
  if (text_beside) {
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("reads-picture", {0, room.y}, false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  }
  draw_matrices(reads, phase);
  if (text_beside) ImGui::EndChild();
}

namespace {

void draw_matrices(const lessons::MatmulElementReads& reads, const lessons::TilePhase* phase) {
  const lessons::MatmulSize& size = reads.size;
  // Drawn as large as the panel allows, in whichever of two arrangements is larger there: A (M×K)
  // left, B (K×N) top right, C (M×N) bottom right, where rows of A and columns of B meet at their
  // element of C (tall panels); or A, B and C side by side (the wide, short panel under the
  // mapping view).
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label = ImGui::GetTextLineHeight() + 4;
  const float gap = ImGui::GetFontSize();
  const auto k = static_cast<float>(size.k);
  const auto m = static_cast<float>(size.m);
  const auto n = static_cast<float>(size.n);
  const float classic_scale =
      std::min((avail.x - gap * 2) / (k + n), (avail.y - gap - label * 2) / (k + m));
  const float row_scale =
      std::min((avail.x - gap * 3) / (k + n + n), (avail.y - label - gap) / std::max(m, k));
  const bool side_by_side = row_scale > classic_scale;
  const float scale = side_by_side ? row_scale : classic_scale;
  if (scale <= 0) return;
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  MatrixBox a;
  MatrixBox b;
  MatrixBox c;
  if (side_by_side) {
    const float top = top_left.y + label;
    a = {{top_left.x, top}, scale};
    b = {{a.origin.x + scale * k + gap, top}, scale};
    c = {{b.origin.x + scale * n + gap, top}, scale};
  } else {
    const float b_top = top_left.y + label;
    const float c_top = b_top + scale * k + gap + label;
    a = {{top_left.x, c_top}, scale};
    b = {{top_left.x + scale * k + gap, b_top}, scale};
    c = {{b.origin.x, c_top}, scale};
  }
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
      mark(draw, a, phase->a_loaded_by_thread->row, phase->a_loaded_by_thread->col, own);
    }
    if (phase->b_loaded_by_thread) {
      mark(draw, b, phase->b_loaded_by_thread->row, phase->b_loaded_by_thread->col, own);
    }
  }
  mark(draw, c, reads.element.row, reads.element.col, to_imgui(kHighlightColor));
  ImGui::Dummy({avail.x, avail.y});
}

}  // namespace

}  // namespace tl::ui::matmul_views
