// Registers the capstone's views (lesson_views.hpp): its live training (training_live.hpp) and the
// tabs that watch it; the decision boundary sits beside the mapping view, so the class sees the
// network's first layer being traced and what the whole network has learnt side by side.

#include "lesson_views.hpp"
#include "training_live.hpp"
#include "training_panels.hpp"

namespace tl::lesson_modules {

const ui::LessonViews& lesson_views_09_training() {
  static const ui::LessonViews kViews{
      .tabs = {{"training", "Training",
                "Train the network in the background: start, pause, step, reset; the loss and "
                "accuracy as it learns",
                &ui::training_views::draw_training_panel},
               {"boundary", "Boundary",
                "The class the network picks at every point of the plane, with the training points",
                &ui::training_views::draw_boundary_panel},
               {"weights", "Weights",
                "The first layer's weights: one column per neuron, one row per input, and the "
                "biases",
                &ui::training_views::draw_weights_panel}},
      .opens_on = "training",
      .beside = "boundary",
      .make_live = &ui::training_views::make_training_live,
  };
  return kViews;
}

}  // namespace tl::lesson_modules
