#pragma once
// The capstone's tabs: Training (the controls, the state, the loss and accuracy curves), Boundary
// (the decision boundary the network draws, with the training points over it) and Weights (the
// first layer's weights as a heat map on a signed colour scale). They draw TrainingLive and call
// its commands; the training runs in the background.

#include "lesson_view_context.hpp"
#include "theme.hpp"

namespace tl::ui::training_views {

void draw_training_panel(LessonViewContext& context, const Fonts& fonts);
void draw_boundary_panel(LessonViewContext& context, const Fonts& fonts);
void draw_weights_panel(LessonViewContext& context, const Fonts& fonts);

}  // namespace tl::ui::training_views
