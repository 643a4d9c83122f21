#pragma once
// Runs the UI: in a GLFW window, or headless on an EGL context rendering into an offscreen target
// (same UI code, the polyscope pattern). Returns the process exit status.

#include "core/gui_launcher.hpp"

namespace tl::ui {

int run_app(const GuiOptions& options);

}  // namespace tl::ui
