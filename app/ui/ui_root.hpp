#pragma once
// Lays the panels out over the whole window. The same function draws in the GLFW window and in the
// headless EGL target.

#include "app_controller.hpp"
#include "theme.hpp"

namespace tl::ui {

void draw_ui(AppController& controller, const Fonts& fonts);

}  // namespace tl::ui
