#pragma once
// The precision lesson's tabs: the bit layouts of a typed value, and the error table.

#include "lesson_view_context.hpp"
#include "lessons/08_precision/precision_lesson.hpp"
#include "theme.hpp"

namespace tl::ui::precision_views {

void draw_bits_panel(LessonViewContext& context, const Fonts& fonts);
void draw_errors_panel(LessonViewContext& context, const Fonts& fonts);

}  // namespace tl::ui::precision_views
