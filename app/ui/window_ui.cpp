#include "window_ui.hpp"

// glad first: the ImGui OpenGL backend must not pull in another GL header before it.
#include <glad/gl.h>
// clang-format off
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
// clang-format on

#include <algorithm>
#include <cstdint>
#include <vector>

#include "frame_capture.hpp"
#include "keyboard_shortcuts.hpp"
#include "render/png_writer.hpp"
#include "ui_root.hpp"
#include "widgets/typed_input.hpp"

namespace tl::ui {
namespace {

// Input and window changes GLFW reported, counted by the callbacks below: the window waits for
// them when idle (redraw_policy.hpp). The callbacks run on the UI thread, in glfw*Events.
std::uint64_t g_window_events = 0;

void count_cursor(GLFWwindow* /*window*/, double /*x*/, double /*y*/) {
  ++g_window_events;
}
void count_button(GLFWwindow* /*window*/, int /*button*/, int /*action*/, int /*mods*/) {
  ++g_window_events;
}
void count_scroll(GLFWwindow* /*window*/, double /*x*/, double /*y*/) {
  ++g_window_events;
}
void count_flag(GLFWwindow* /*window*/, int /*flag*/) {
  ++g_window_events;
}
void count_size(GLFWwindow* /*window*/, int /*width*/, int /*height*/) {
  ++g_window_events;
}
void count_refresh(GLFWwindow* /*window*/) {
  ++g_window_events;
}
void count_content_scale(GLFWwindow* /*window*/, float /*x*/, float /*y*/) {
  ++g_window_events;
}

// Every key press, repeat and typed character, queued as GLFW reports it (widgets/typed_input.hpp):
// ImGui 1.86 sees keys only as a state per frame, so at a few frames a second presses shorter than
// a frame were lost. Installed before ImGui's own callbacks, which call these first and then update
// ImGui's state as before.
TypedEvent with_modifiers(TypedEvent event, int mods) {
  event.shift = (mods & GLFW_MOD_SHIFT) != 0;
  event.ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  event.alt = (mods & GLFW_MOD_ALT) != 0;
  return event;
}
void queue_key(GLFWwindow* /*window*/, int key, int /*scancode*/, int action, int mods) {
  ++g_window_events;
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  TypedEvent press;
  press.key = key;
  press.repeat = action == GLFW_REPEAT;
  typed_input().push(with_modifiers(press, mods));
}
void queue_character(GLFWwindow* window, unsigned int code_point) {
  ++g_window_events;
  TypedEvent typed;
  typed.kind = TypedEvent::Kind::kCharacter;
  typed.character = code_point;
  // The char callback carries no modifiers: read them as they are now.
  int mods = 0;
  if (glfwGetKey(window, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS ||
      glfwGetKey(window, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS) {
    mods |= GLFW_MOD_CONTROL;
  }
  if (glfwGetKey(window, GLFW_KEY_LEFT_ALT) == GLFW_PRESS ||
      glfwGetKey(window, GLFW_KEY_RIGHT_ALT) == GLFW_PRESS) {
    mods |= GLFW_MOD_ALT;
  }
  typed_input().push(with_modifiers(typed, mods));
}

constexpr const char* kGlslVersion = "#version 430";

PlatformKeys glfw_keys() {
  return {GLFW_KEY_F1,    GLFW_KEY_F5,    GLFW_KEY_F11,    GLFW_KEY_F12,
          GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_KP_ADD, GLFW_KEY_KP_SUBTRACT};
}

// RGBA rows of the bound framebuffer, top row first.
std::vector<std::uint8_t> read_framebuffer(int width, int height) {
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) *
                                   static_cast<std::size_t>(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  std::vector<std::uint8_t> flipped(pixels.size());
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  for (int y = 0; y < height; ++y) {
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(y)),
                row,
                flipped.begin() +
                    static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(height - 1 - y)));
  }
  return flipped;
}

}  // namespace

Result<std::unique_ptr<WindowUi>> WindowUi::create(const WindowUiOptions& options) {
  std::unique_ptr<WindowUi> ui(new WindowUi());
  auto window = platform::GlfwWindow::create(options.window);
  if (!window) return window.error();
  ui->window_ = std::move(*window);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ui->imgui_context_ = true;
  ImGui::GetIO().IniFilename = nullptr;  // the layout is code, not a file left in the cwd
  const float scale =
      options.scale > 0 ? options.scale : std::max(1.0f, ui->window_->content_scale().x);
  ui->theme_ = std::make_unique<ThemeKeeper>(scale, options.theme);
  GLFWwindow* native = ui->window_->native();
  glfwSetKeyCallback(native, &queue_key);
  glfwSetCharCallback(native, &queue_character);
  // Counted only (ImGui's backend, installed next, calls these first where it has its own).
  glfwSetCursorPosCallback(native, &count_cursor);
  glfwSetMouseButtonCallback(native, &count_button);
  glfwSetScrollCallback(native, &count_scroll);
  glfwSetWindowFocusCallback(native, &count_flag);
  glfwSetCursorEnterCallback(native, &count_flag);
  glfwSetWindowIconifyCallback(native, &count_flag);
  glfwSetWindowMaximizeCallback(native, &count_flag);
  glfwSetWindowSizeCallback(native, &count_size);
  glfwSetFramebufferSizeCallback(native, &count_size);
  glfwSetWindowRefreshCallback(native, &count_refresh);
  glfwSetWindowContentScaleCallback(native, &count_content_scale);
  typed_input().set_connected(true);
  ImGui_ImplGlfw_InitForOpenGL(ui->window_->native(), true);
  ImGui_ImplOpenGL3_Init(kGlslVersion);
  ui->backends_ = true;
  return ui;
}

WindowUi::~WindowUi() {
  if (backends_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    typed_input().set_connected(false);
  }
  theme_.reset();
  if (imgui_context_) ImGui::DestroyContext();
}

void WindowUi::poll_events() {
  const std::uint64_t before = g_window_events;
  window_->poll_events();
  events_ = g_window_events != before;
  typed_input().begin_frame();
}

void WindowUi::wait_for_next_frame(const AppController& app, bool now) {
  const double wait = redraw_.next_wait({.events = events_ || now,
                                         .work_running = app.wants_frames(),
                                         .text_cursor = ImGui::GetIO().WantTextInput});
  const std::uint64_t before = g_window_events;
  if (wait > 0 && !now) {
    glfwWaitEventsTimeout(wait);
  } else {
    window_->poll_events();
  }
  events_ = g_window_events != before;
  typed_input().begin_frame();
}

void WindowUi::draw_frame(AppController& app) {
  app.update();
  window_->set_fullscreen(app.state().classroom.fullscreen);
  // The window's size from the last frame bounds the scale (none before the first frame).
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  theme_->follow(app.state().classroom, display.x, display.y);
  app.scale_drawn(theme_->asked_scale(), theme_->drawn_scale(), display.x, display.y);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  handle_shortcuts(app, glfw_keys());
  draw_ui(app, theme_->fonts());
  ImGui::Render();
  const auto size = window_->framebuffer_size();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, size.width, size.height);
  glClearColor(0.06f, 0.06f, 0.08f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (auto capture = app.take_capture()) {
    glReadBuffer(GL_BACK);
    const ImVec2 framebuffer_scale = ImGui::GetIO().DisplayFramebufferScale;
    app.capture_done(capture->path, save_frame_part(*capture,
                                                    {size.width, size.height,
                                                     read_framebuffer(size.width, size.height)},
                                                    framebuffer_scale.x, framebuffer_scale.y));
  }
}

Status WindowUi::save_png(const std::string& path) {
  const auto size = window_->framebuffer_size();
  glReadBuffer(GL_BACK);
  return render::write_png(path, size.width, size.height,
                           read_framebuffer(size.width, size.height));
}

void WindowUi::show_frame() {
  window_->swap_buffers();
}

}  // namespace tl::ui
