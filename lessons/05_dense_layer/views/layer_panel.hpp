#pragma once
// The dense layer drawn small: inputs, the weight heatmap and outputs of the last timed run.

#include "lesson_view_context.hpp"
#include "lessons/05_dense_layer/dense_layer_lesson.hpp"
#include "theme.hpp"

namespace tl::ui::dense_layer_views {

void draw_layer_panel(LessonViewContext& context, const Fonts& fonts);

}  // namespace tl::ui::dense_layer_views
