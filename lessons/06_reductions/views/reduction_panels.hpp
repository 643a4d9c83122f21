#pragma once
// The reductions lesson's tabs, drawn from the last timed run's report (ReductionsAttachment):
// block 0's tree level by level, the shared-memory banks of the three trees, atomic contention and
// the numerics of every sum. They draw what the runner measured and computed; nothing here
// computes.

#include "lesson_view_context.hpp"
#include "lessons/06_reductions/reductions_lesson.hpp"
#include "theme.hpp"

namespace tl::ui::reductions_views {

void draw_tree_panel(LessonViewContext& context, const Fonts& fonts);
void draw_banks_panel(LessonViewContext& context, const Fonts& fonts);
void draw_contention_panel(LessonViewContext& context, const Fonts& fonts);
void draw_numerics_panel(LessonViewContext& context, const Fonts& fonts);

}  // namespace tl::ui::reductions_views
