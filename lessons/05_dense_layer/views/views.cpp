// Registers the dense-layer lesson's views (lesson_views.hpp): the layer drawn small, beside the
// mapping view and in its own tab, from the last timed run's picture.

#include "layer_panel.hpp"
#include "lesson_views.hpp"

namespace tl::lesson_modules {

const ui::LessonViews& lesson_views_05_dense_layer() {
  static const ui::LessonViews kViews{
      .tabs = {{"layer", "Layer", "The dense layer small: inputs, weights and outputs",
                &ui::dense_layer_views::draw_layer_panel,
                [](const ui::AppState& state) {
                  return compute::layer_picture(state.lesson_picture) != nullptr;
                }}},
      // The weights and outputs are what this lesson is about: it opens on them.
      .opens_on = "layer",
      .beside = "layer",
  };
  return kViews;
}

}  // namespace tl::lesson_modules
