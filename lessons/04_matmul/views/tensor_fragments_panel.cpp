// Matrix multiply: which lane of a warp holds which element of A, B and C for one tensor-core
// instruction, mma.sync.m16n8k16 (FP16/BF16 inputs, FP32 accumulators). The layout is a documented
// function of the lane (the PTX ISA; lessons/04_matmul/matmul_tensor.hpp lists its cells), so it is
// drawn the same on a GPU and on the emulator. Hovering a cell lights up everything its lane holds.

#include <algorithm>
#include <string>
#include <vector>

#include "panels/draw_colors.hpp"
#include "tensor_fragments.hpp"
#include "theme.hpp"
#include "widgets/tooltip.hpp"

namespace tl::ui::matmul_views {
namespace {

struct Operand {
  lessons::MmaOperand operand;
  const char* title;
  std::vector<lessons::FragmentCell> cells;
  int rows = 0, cols = 0;
};

const std::vector<Operand>& operands() {
  static const std::vector<Operand> kOperands = [] {
    std::vector<Operand> all;
    for (const auto& [operand, title] : {std::pair{lessons::MmaOperand::kA, "A 16×16"},
                                         std::pair{lessons::MmaOperand::kB, "B 16×8"},
                                         std::pair{lessons::MmaOperand::kC, "C 16×8"}}) {
      all.push_back({operand, title, lessons::fragment_cells(operand), kernels::mma_rows(operand),
                     kernels::mma_cols(operand)});
    }
    return all;
  }();
  return kOperands;
}

}  // namespace

void draw_tensor_fragments_panel(LessonViewContext& /*context*/, const Fonts& fonts) {
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted(
      "Tensor-core fragments: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  ImGui::PopFont();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(palette().muted,
                     "Drawn from the layout the PTX ISA documents (a function of the lane, the "
                     "same on every GPU and here): no kernel runs for this picture. Colour: the "
                     "lane. A warp's 32 lanes form 8 groups of 4: groupID = lane / 4 picks the "
                     "row of A and C and the column of B, lane %% 4 the pair of k or columns. "
                     "A: 16 rows × 16 k, a0..a7 per lane; B: 16 k × 8 columns, b0..b3; C: 16 rows "
                     "× 8 columns, c0..c3.");
  ImGui::PopTextWrapPos();

  const std::vector<Operand>& all = operands();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label = ImGui::GetTextLineHeight() + 4;
  const float gap = ImGui::GetFontSize() * 1.5f;
  // A (16 wide), B and C (8 wide) side by side, square cells.
  const float cell =
      std::clamp(std::min((avail.x - 2 * gap) / 32.0f, (avail.y - label * 3) / 16.0f), 6.0f, 40.0f);
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool window_hovered = ImGui::IsWindowHovered();

  // First pass: which cell the mouse is over, so the second can light up its lane everywhere.
  int hovered_lane = -1;
  const lessons::FragmentCell* hovered_cell = nullptr;
  const Operand* hovered_operand = nullptr;
  std::vector<ImVec2> origins;
  float x = top_left.x;
  for (const Operand& op : all) {
    const ImVec2 origin{x, top_left.y + label};
    origins.push_back(origin);
    if (window_hovered) {
      const int col = static_cast<int>((mouse.x - origin.x) / cell);
      const int row = static_cast<int>((mouse.y - origin.y) / cell);
      if (mouse.x >= origin.x && mouse.y >= origin.y && col < op.cols && row < op.rows) {
        hovered_cell = &op.cells[static_cast<std::size_t>(row * op.cols + col)];
        hovered_lane = hovered_cell->lane;
        hovered_operand = &op;
      }
    }
    x += cell * static_cast<float>(op.cols) + gap;
  }

  const bool labels = cell >= ImGui::GetFontSize() * 1.6f;
  for (std::size_t o = 0; o < all.size(); ++o) {
    const Operand& op = all[o];
    const ImVec2 origin = origins[o];
    draw->AddText({origin.x, origin.y - label}, ImGui::GetColorU32(palette().muted), op.title);
    for (const lessons::FragmentCell& c : op.cells) {
      const ImVec2 a{origin.x + cell * static_cast<float>(c.col),
                     origin.y + cell * static_cast<float>(c.row)};
      const ImVec2 b{a.x + cell, a.y + cell};
      const bool lit = hovered_lane < 0 || c.lane == hovered_lane;
      draw->AddRectFilled(
          a, b,
          to_imgui(categorical_color(static_cast<std::uint32_t>(c.lane)), lit ? 1.0f : 0.25f));
      draw->AddRect(a, b, IM_COL32(20, 20, 24, 255));
      if (labels) {
        const std::string text = std::to_string(c.lane);
        draw->AddText({a.x + 2, a.y + 1}, IM_COL32(10, 10, 10, lit ? 255 : 120), text.c_str());
      }
    }
    // The 8×8 quarters that one ldmatrix row group fills, outlined.
    for (int r = 0; r < op.rows; r += 8) {
      for (int col = 0; col < op.cols; col += 8) {
        const ImVec2 a{origin.x + cell * static_cast<float>(col),
                       origin.y + cell * static_cast<float>(r)};
        draw->AddRect(a, {a.x + cell * 8, a.y + cell * 8}, IM_COL32(230, 230, 235, 255), 0, 0,
                      2.0f);
      }
    }
  }
  ImGui::Dummy({avail.x, label + cell * 16 + 4});

  if (hovered_cell != nullptr) {
    const char letter = kernels::mma_operand_letter(hovered_operand->operand);
    const bool is_b = hovered_operand->operand == lessons::MmaOperand::kB;
    wrapped_tooltip(
        "%c(%s %d, %s %d): lane %d (groupID %d, threadID_in_group %d)\n%s",
        static_cast<char>(letter - 'a' + 'A'), is_b ? "k" : "row", hovered_cell->row,
        is_b ? "n" : "col", hovered_cell->col, hovered_cell->lane, hovered_cell->group(),
        hovered_cell->thread_in_group(),
        lessons::describe_fragment_element(hovered_operand->operand, hovered_cell->index).c_str());
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(palette().muted,
                     "White squares: the 8×8 tiles ldmatrix fills, one 16-byte row per lane "
                     "address. The mma rung (lessons/04_matmul/kernels/matmul_mma.cuh) loads A "
                     "with ldmatrix.x4 and "
                     "B with ldmatrix.x4.trans, and writes c0..c3 straight to C. A GPU test reads "
                     "the registers of a real ldmatrix and mma back and compares them with this "
                     "picture.");
  ImGui::PopTextWrapPos();
}

}  // namespace tl::ui::matmul_views
