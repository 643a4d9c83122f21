#pragma once
// The UI without a window: an EGL context, an offscreen target, ImGui with its OpenGL backend and
// the fonts. `threadlab gui --headless`, `threadlab demo --headless`, the frame benchmark and the
// soak run all draw through it. Create it before the AppController (which owns GL objects) and
// destroy it after.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app_controller.hpp"
#include "platform/egl_context.hpp"
#include "render/offscreen_target.hpp"
#include "theme_keeper.hpp"

namespace tl::ui {

class HeadlessUi {
 public:
  static Result<std::unique_ptr<HeadlessUi>> create(int width, int height, float scale);
  ~HeadlessUi();
  HeadlessUi(const HeadlessUi&) = delete;
  HeadlessUi& operator=(const HeadlessUi&) = delete;

  [[nodiscard]] const std::string& renderer() const { return gl_->renderer(); }
  // One frame: the controller's news collected, the fonts following presenter mode, the whole UI
  // drawn into the target, and any capture a panel asked for saved.
  void draw_frame(AppController& controller);
  // One frame of `body` alone, in the fonts and style the UI has, with no controller behind it:
  // `threadlab render --memory-line` draws one panel's picture this way.
  void draw_frame(const std::function<void(const Fonts& fonts)>& body);
  Status save_png(const std::string& path);
  // Another size or UI scale for the next frames: the layout tests draw many in one process.
  Status resize(int width, int height);
  void set_scale(float scale);
  // The scale the fonts are drawn at (the one asked for, at most what the window size allows).
  [[nodiscard]] float drawn_scale() const;

 private:
  HeadlessUi() = default;
  std::unique_ptr<platform::EglContext> gl_;
  std::unique_ptr<render::OffscreenTarget> target_;
  std::unique_ptr<ThemeKeeper> theme_;
  int width_ = 0;
  int height_ = 0;
  bool imgui_ready_ = false;
};

}  // namespace tl::ui
