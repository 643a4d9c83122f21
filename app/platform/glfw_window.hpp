#pragma once
// The interactive window: GLFW with an OpenGL 4.3 core context, vsync on. Creating it on a machine
// without a display server fails with a message that points to the headless mode.

#include <memory>
#include <string>

#include "core/result.hpp"
#include "platform/gl_context.hpp"

struct GLFWwindow;

namespace tl::platform {

struct WindowOptions {
  int width = 1600;
  int height = 1000;
  std::string title = "ThreadLab";
  bool visible = true;
  bool fullscreen = false;  // on the primary monitor at its current mode (projector demos)
  // Shrink the size to the primary monitor's work area: for a remembered size, not an asked one.
  bool fit_to_monitor = false;
};

struct FramebufferSize {
  int width = 0;
  int height = 0;
};

struct ContentScale {
  float x = 1.0f;
  float y = 1.0f;
};

class GlfwWindow final : public GlContext {
 public:
  static Result<std::unique_ptr<GlfwWindow>> create(const WindowOptions& options = {});
  ~GlfwWindow() override;
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  Status make_current() override;
  [[nodiscard]] const std::string& renderer() const override { return renderer_; }
  [[nodiscard]] const std::string& vendor() const override { return vendor_; }
  [[nodiscard]] bool is_software() const override { return software_; }

  [[nodiscard]] bool should_close() const;
  void request_close();
  void poll_events();
  void swap_buffers();
  // Pixels, which differ from window coordinates on high-DPI screens.
  [[nodiscard]] FramebufferSize framebuffer_size() const;
  // The monitor's UI scale (1 on a standard screen), for font sizes.
  [[nodiscard]] ContentScale content_scale() const;
  [[nodiscard]] GLFWwindow* native() const { return window_; }
  // Full screen on the monitor the window is mostly on, or back to the window it was.
  void set_fullscreen(bool on);
  [[nodiscard]] bool is_fullscreen() const;
  // The window's size in screen coordinates when not full screen (what the settings remember).
  [[nodiscard]] FramebufferSize windowed_size() const;

 private:
  GlfwWindow() = default;

  struct WindowedPlacement {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
  };
  WindowedPlacement windowed_{};

  GLFWwindow* window_ = nullptr;
  std::string renderer_;
  std::string vendor_;
  bool software_ = false;
};

// The message for a machine with no display server, shared with the CLI.
std::string no_display_message(const std::string& glfw_error);

}  // namespace tl::platform
