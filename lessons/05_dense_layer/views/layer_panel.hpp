#pragma once
// The dense layer drawn small: inputs, the weight heatmap and outputs of the last timed run.

#include "app_controller.hpp"
#include "lessons/05_dense_layer/dense_layer_lesson.hpp"
#include "theme.hpp"

namespace tl::ui::dense_layer_views {

void draw_layer_panel(AppController& controller, const Fonts& fonts);

}  // namespace tl::ui::dense_layer_views
