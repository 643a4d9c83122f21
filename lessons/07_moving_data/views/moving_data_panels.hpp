#pragma once
// The moving-data lesson's tabs, drawn from the last timed run's report (MovingDataAttachment):
// the pipeline's timeline, the copy curves, the mini-batches and unified memory. They draw what
// the runner measured and what the lesson's model and plots computed; nothing here computes.

#include "lesson_view_context.hpp"
#include "lessons/07_moving_data/moving_data_lesson.hpp"
#include "theme.hpp"

namespace tl::ui::moving_data_views {

void draw_timeline_panel(LessonViewContext& context, const Fonts& fonts);
void draw_copies_panel(LessonViewContext& context, const Fonts& fonts);
void draw_batches_panel(LessonViewContext& context, const Fonts& fonts);
void draw_unified_panel(LessonViewContext& context, const Fonts& fonts);

}  // namespace tl::ui::moving_data_views
