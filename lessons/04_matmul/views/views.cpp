// Registers the matrix-multiply lesson's views (lesson_views.hpp) and their commands.

#include <algorithm>

#include "element_reads.hpp"
#include "lesson_views.hpp"
#include "tensor_fragments.hpp"

namespace tl::ui::matmul_views {

const ElementReadsPick* current_pick(const AppState& state) {
  return dynamic_cast<const ElementReadsPick*>(state.lesson_pick.get());
}

void pick_element(LessonViewContext& context, std::uint64_t row, std::uint64_t col) {
  auto reads = lessons::matmul_element_reads(context.state().controls.values,
                                             static_cast<std::uint32_t>(row),
                                             static_cast<std::uint32_t>(col));
  if (!reads) {
    context.post(Severity::kWarning, reads.message());
    return;
  }
  auto pick = std::make_shared<ElementReadsPick>();
  pick->reads = std::move(*reads);
  context.set_lesson_pick(std::move(pick));
  context.show_lesson_tab("reads");
}

void show_phase(LessonViewContext& context, std::uint32_t phase) {
  auto* pick = dynamic_cast<ElementReadsPick*>(context.lesson_pick());
  if (pick == nullptr || pick->reads.phases.empty()) return;
  const auto last = static_cast<std::uint32_t>(pick->reads.phases.size() - 1);
  pick->phase = std::min(phase, last);
}

}  // namespace tl::ui::matmul_views

namespace tl::lesson_modules {

const ui::LessonViews& lesson_views_04_matmul() {
  static const ui::LessonViews kViews{
      .tabs = {{"reads", "Element reads",
                "What one element of C reads: a row of A, a column of B, tile by tile",
                &ui::matmul_views::draw_element_reads_panel},
               {"fragments", "Tensor fragments",
                "Which lane of a warp holds which element of A, B and C for one tensor-core "
                "instruction (mma.sync m16n8k16)",
                &ui::matmul_views::draw_tensor_fragments_panel}},
      .pick_element = &ui::matmul_views::pick_element,
  };
  return kViews;
}

}  // namespace tl::lesson_modules
