#include "platform/glfw_window.hpp"

#include <algorithm>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "core/classroom/settings.hpp"

#include <cstdlib>
#include <mutex>

namespace tl::platform {
namespace {

// GLFW reports errors through a callback; the last one is kept so that a failed call can say why.
// Recursive: a failed create() destroys its half-made window while still holding the lock.
std::recursive_mutex glfw_mutex;
std::string last_glfw_error;
int live_windows = 0;

void remember_glfw_error(int code, const char* description) {
  last_glfw_error = std::string(description != nullptr ? description : "unknown error") +
                    " (GLFW error " + std::to_string(code) + ")";
}

std::string take_glfw_error() {
  std::string error = last_glfw_error.empty() ? "no reason given" : last_glfw_error;
  last_glfw_error.clear();
  return error;
}

bool has_display_variable() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 != nullptr && *x11 != '\0') || (wayland != nullptr && *wayland != '\0');
}

// GLFW is initialized with the first window and terminated with the last.
void release_glfw_locked() {
  if (live_windows == 0) glfwTerminate();
}

}  // namespace

std::string no_display_message(const std::string& glfw_error) {
  return "no display is available for a window (" + glfw_error +
         "). On a server or over SSH without X forwarding, use the headless mode: "
         "`threadlab render ...` writes PNG images, and "
         "`threadlab gui --headless --screenshot out.png` draws the whole window into one; "
         "for a virtual display, run it under `xvfb-run`.";
}

Result<std::unique_ptr<GlfwWindow>> GlfwWindow::create(const WindowOptions& options) {
  const std::lock_guard lock(glfw_mutex);
  glfwSetErrorCallback(remember_glfw_error);
  if (live_windows == 0 && glfwInit() != GLFW_TRUE) {
    const std::string error = take_glfw_error();
    if (!has_display_variable()) {
      return Error{ErrorKind::kGraphicsError, no_display_message("DISPLAY is not set: " + error)};
    }
    return Error{ErrorKind::kGraphicsError, no_display_message(error)};
  }
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  GLFWmonitor* monitor = options.fullscreen ? glfwGetPrimaryMonitor() : nullptr;
  int width = options.width;
  int height = options.height;
  if (options.fit_to_monitor) {
    if (GLFWmonitor* primary = glfwGetPrimaryMonitor(); primary != nullptr) {
      int x = 0, y = 0, area_width = 0, area_height = 0;
      glfwGetMonitorWorkarea(primary, &x, &y, &area_width, &area_height);
      const classroom::WindowSize fitted =
          classroom::fit_window_to_screen({width, height}, area_width, area_height);
      width = fitted.width;
      height = fitted.height;
    }
  }
  const int windowed_width = width;  // what leaving full screen returns to
  const int windowed_height = height;
  if (monitor != nullptr) {
    if (const GLFWvidmode* mode = glfwGetVideoMode(monitor); mode != nullptr) {
      width = mode->width;
      height = mode->height;
    }
  }
  auto window = std::unique_ptr<GlfwWindow>(new GlfwWindow());
  window->window_ = glfwCreateWindow(width, height, options.title.c_str(), monitor, nullptr);
  if (window->window_ == nullptr) {
    const std::string error = take_glfw_error();
    release_glfw_locked();
    return Error{ErrorKind::kGraphicsError,
                 "could not open a window with OpenGL 4.3 core (" + error +
                     "). The graphics driver may be too old; the headless mode "
                     "(`threadlab render ...` or `threadlab gui --headless --screenshot "
                     "out.png`) may still work."};
  }
  ++live_windows;
  glfwMakeContextCurrent(window->window_);
  glfwSwapInterval(1);  // vsync: the UI does not need more frames than the screen shows
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    return Error{ErrorKind::kGraphicsError, "the window's OpenGL functions could not be loaded"};
  }
  auto gl_string = [](GLenum name) {
    const auto* text = reinterpret_cast<const char*>(glGetString(name));
    return std::string(text != nullptr ? text : "unknown");
  };
  window->windowed_ = {0, 0, windowed_width, windowed_height};
  if (monitor == nullptr)
    glfwGetWindowPos(window->window_, &window->windowed_.x, &window->windowed_.y);
  window->renderer_ = gl_string(GL_RENDERER);
  window->vendor_ = gl_string(GL_VENDOR);
  window->software_ = is_software_renderer(window->renderer_);
  return window;
}

GlfwWindow::~GlfwWindow() {
  if (window_ == nullptr) return;
  const std::lock_guard lock(glfw_mutex);
  glfwDestroyWindow(window_);
  --live_windows;
  release_glfw_locked();
}

Status GlfwWindow::make_current() {
  glfwMakeContextCurrent(window_);
  if (glfwGetCurrentContext() != window_) {
    return Error{ErrorKind::kGraphicsError,
                 "the window's OpenGL context could not be made current"};
  }
  return Status::ok();
}

bool GlfwWindow::should_close() const {
  return glfwWindowShouldClose(window_) == GLFW_TRUE;
}
void GlfwWindow::request_close() {
  glfwSetWindowShouldClose(window_, GLFW_TRUE);
}
void GlfwWindow::poll_events() {
  glfwPollEvents();
}
void GlfwWindow::swap_buffers() {
  glfwSwapBuffers(window_);
}

FramebufferSize GlfwWindow::framebuffer_size() const {
  FramebufferSize size;
  glfwGetFramebufferSize(window_, &size.width, &size.height);
  return size;
}

ContentScale GlfwWindow::content_scale() const {
  ContentScale scale;
  glfwGetWindowContentScale(window_, &scale.x, &scale.y);
  return scale;
}

namespace {

// The monitor holding most of the window: a projector is often the second screen.
GLFWmonitor* monitor_under(GLFWwindow* window) {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
  glfwGetWindowPos(window, &x, &y);
  glfwGetWindowSize(window, &width, &height);
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  GLFWmonitor* best = glfwGetPrimaryMonitor();
  long best_area = -1;
  for (int i = 0; i < count; ++i) {
    const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
    if (mode == nullptr) continue;
    int mx = 0;
    int my = 0;
    glfwGetMonitorPos(monitors[i], &mx, &my);
    const long overlap_w = std::max(0, std::min(x + width, mx + mode->width) - std::max(x, mx));
    const long overlap_h = std::max(0, std::min(y + height, my + mode->height) - std::max(y, my));
    if (overlap_w * overlap_h > best_area) {
      best_area = overlap_w * overlap_h;
      best = monitors[i];
    }
  }
  return best;
}

}  // namespace

bool GlfwWindow::is_fullscreen() const {
  return glfwGetWindowMonitor(window_) != nullptr;
}

void GlfwWindow::set_fullscreen(bool on) {
  if (on == is_fullscreen()) return;
  if (on) {
    glfwGetWindowPos(window_, &windowed_.x, &windowed_.y);
    glfwGetWindowSize(window_, &windowed_.width, &windowed_.height);
    GLFWmonitor* monitor = monitor_under(window_);
    const GLFWvidmode* mode = monitor != nullptr ? glfwGetVideoMode(monitor) : nullptr;
    if (mode == nullptr) return;  // no monitor to fill (a virtual display): stay windowed
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowed_.x, windowed_.y, windowed_.width,
                         windowed_.height, GLFW_DONT_CARE);
  }
}

FramebufferSize GlfwWindow::windowed_size() const {
  if (is_fullscreen()) return {windowed_.width, windowed_.height};
  FramebufferSize size;
  glfwGetWindowSize(window_, &size.width, &size.height);
  return size;
}

}  // namespace tl::platform
