// Registers the reductions lesson's views (lesson_views.hpp): the tree, the banks, atomic
// contention and the numerics, all from the last timed run's report.

#include "lesson_views.hpp"
#include "reduction_panels.hpp"

namespace tl::lesson_modules {

namespace {
bool has_report(const ui::AppState& state) {
  return compute::reductions_report(state.lesson_picture) != nullptr;
}
}  // namespace

const ui::LessonViews& lesson_views_06_reductions() {
  static const ui::LessonViews kViews{
      .tabs = {{"tree", "Tree", "Block 0's adds level by level, idle threads greyed",
                &ui::reductions_views::draw_tree_panel, &has_report},
               {"banks", "Banks", "The shared-memory bank of each read of the three trees",
                &ui::reductions_views::draw_banks_panel, &has_report},
               {"contention", "Contention", "Time of the same atomics over more addresses",
                &ui::reductions_views::draw_contention_panel, &has_report},
               {"numerics", "Numerics", "Every sum against the float64 one, with its bound",
                &ui::reductions_views::draw_numerics_panel, &has_report}},
      .opens_on = "tree",
      .beside = "tree",
  };
  return kViews;
}

}  // namespace tl::lesson_modules
