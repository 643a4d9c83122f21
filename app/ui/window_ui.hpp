#pragma once
// The UI in a GLFW window: the window, ImGui with its GLFW and OpenGL backends, the fonts that
// follow presenter mode, and the callbacks that queue every key and character typed
// (widgets/typed_input.hpp). `threadlab gui` and `threadlab demo` in a window draw through it, and
// so do the tests that need a real window (under Xvfb). Create it before the AppController (which
// owns GL objects) and destroy it after; one at a time per process (there is one ImGui context).

#include <memory>
#include <string>

#include "app_controller.hpp"
#include "core/result.hpp"
#include "platform/glfw_window.hpp"
#include "redraw_policy.hpp"
#include "theme_keeper.hpp"

namespace tl::ui {

struct WindowUiOptions {
  platform::WindowOptions window;
  float scale = 0;  // the UI scale; 0: the monitor's (at least 1)
  classroom::Theme theme = classroom::Theme::kDark;
};

class WindowUi {
 public:
  static Result<std::unique_ptr<WindowUi>> create(const WindowUiOptions& options);
  ~WindowUi();
  WindowUi(const WindowUi&) = delete;
  WindowUi& operator=(const WindowUi&) = delete;

  [[nodiscard]] platform::GlfwWindow& window() { return *window_; }
  [[nodiscard]] const std::string& renderer() const { return window_->renderer(); }
  // The events since the last frame, without waiting for one.
  void poll_events();
  // Waits for what the next frame should show (redraw_policy.hpp): not at all while the app has
  // work to draw (AppController::wants_frames), input just came or `now` (scripted runs); a text
  // field's blink; else until input arrives, at most RedrawPolicy::kIdleSeconds. Then takes the
  // events as poll_events does.
  void wait_for_next_frame(const AppController& app, bool now = false);
  // One frame drawn into the back buffer, not yet shown: the controller's news collected, full
  // screen and the fonts following classroom mode, the keys applied, the whole UI, and any part
  // of it a panel asked to save saved.
  void draw_frame(AppController& controller);
  // The frame just drawn, as PNG.
  Status save_png(const std::string& path);
  // Shows the frame drawn (swaps the buffers).
  void show_frame();
  // The scale the fonts are drawn at, and the one asked for (the window may bound it).
  [[nodiscard]] float drawn_scale() const { return theme_->drawn_scale(); }
  [[nodiscard]] float asked_scale() const { return theme_->asked_scale(); }

 private:
  WindowUi() = default;
  std::unique_ptr<platform::GlfwWindow> window_;  // first: destroyed last
  bool imgui_context_ = false;
  std::unique_ptr<ThemeKeeper> theme_;
  bool backends_ = false;
  RedrawPolicy redraw_;
  bool events_ = true;  // input came before the last frame (the first frame settles)
};

}  // namespace tl::ui
