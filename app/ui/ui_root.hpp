#pragma once
// Lays the panels out over the whole window. The same function draws in the GLFW window and in the
// headless EGL target.

#include "app_controller.hpp"
#include "lesson_views.hpp"
#include "theme.hpp"

namespace tl::ui {

void draw_ui(AppController& controller, const Fonts& fonts);

// The lesson's own small picture, drawn beside the mapping view (as well as in its results tab) so
// that the plot tab cannot hide it: the dense layer (inputs, weights, outputs) once a timed run has
// made one, the thread hierarchy's grid of blocks. Child windows "layer_beside" and "grid_beside".
struct BesidePicture {
  enum class Kind { kNone, kLessonTab, kGrid } kind = Kind::kNone;
  const LessonTab* tab = nullptr;  // kLessonTab: the lesson's tab drawn there
};
[[nodiscard]] BesidePicture beside_picture(const AppState& state, const LessonViews& views);
// The share of the mapping area's width the picture beside it takes.
inline constexpr float kBesidePictureShare = 0.4f;

}  // namespace tl::ui
