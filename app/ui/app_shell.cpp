#include "app_shell.hpp"

// glad first: the ImGui OpenGL backend must not pull in another GL header before it.
#include <glad/gl.h>
// clang-format off
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
// clang-format on

#include <chrono>
#include <iostream>
#include <thread>

#include "compute/lessons/lesson.hpp"
#include "core/image_crop.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/lessons/vector_add.hpp"
#include "frame_capture.hpp"
#include "platform/egl_context.hpp"
#include "platform/glfw_window.hpp"
#include "render/offscreen_target.hpp"
#include "render/png_writer.hpp"
#include "ui_root.hpp"

namespace tl::ui {
namespace {

constexpr const char* kGlslVersion = "#version 430";
// A screenshot should show finished measurements, so the last frame waits for them, up to this
// long.
constexpr auto kMaxWaitForMeasurements = std::chrono::seconds(120);

// Start-up actions are checked before anything opens, so a typo is a one-line error, not a
// message inside the window.
Status check_actions(const cli::GuiOptions& options) {
  std::string lesson_id(lessons::kVectorAddId);
  for (const std::string& action : options.actions) {
    auto parsed = lessons::parse_lesson_action(action);
    if (!parsed) return Status(parsed.error());
    if (parsed->lesson) lesson_id = *parsed->lesson;
    auto lesson = compute::make_lesson(lesson_id);
    if (!lesson) return lesson.status();
    TL_RETURN_IF_ERROR((*lesson)->configure(parsed->values));
    if (parsed->color_by) {
      auto mode = parse_color_by(*parsed->color_by);
      if (!mode) return mode.status();
    }
  }
  return Status::ok();
}

void apply_actions(AppController& controller, const cli::GuiOptions& options) {
  for (const std::string& action : options.actions) {
    controller.update();
    // Each action waits for the previous one's measurements, as a person clicking would.
    while (controller.busy()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    controller.update();
    controller.apply_lesson_action(action);
  }
}

int fail(const std::string& message) {
  std::cerr << "threadlab: " << message << '\n';
  return 1;
}

// ImGui's context for the lifetime of a run; destroyed before the GL context goes away.
struct ImGuiContextGuard {
  ImGuiContextGuard() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is code, not a file left in the cwd
  }
  ~ImGuiContextGuard() { ImGui::DestroyContext(); }
  ImGuiContextGuard(const ImGuiContextGuard&) = delete;
  ImGuiContextGuard& operator=(const ImGuiContextGuard&) = delete;
};

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

void save_capture(AppController& controller, const CaptureRequest& request, RgbaImage frame,
                  float scale_x, float scale_y) {
  controller.capture_done(request.path, save_frame_part(request, frame, scale_x, scale_y));
}

void wait_for_measurements(AppController& controller) {
  const auto deadline = std::chrono::steady_clock::now() + kMaxWaitForMeasurements;
  while (controller.busy() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  controller.update();
}

int run_window(const cli::GuiOptions& options, interop::BackendPreference backend) {
  platform::WindowOptions window_options;
  window_options.width = options.width;
  window_options.height = options.height;
  window_options.fullscreen = options.fullscreen;
  auto window = platform::GlfwWindow::create(window_options);
  if (!window) return fail(window.message());
  ImGuiContextGuard imgui;
  const float scale =
      options.scale > 0 ? options.scale : std::max(1.0f, (*window)->content_scale().x);
  const Fonts fonts = setup_theme(scale);
  ImGui_ImplGlfw_InitForOpenGL((*window)->native(), true);
  ImGui_ImplOpenGL3_Init(kGlslVersion);
  int status = 0;
  {
    auto controller = AppController::create({backend, (*window)->renderer()});
    if (!controller) {
      status = fail(controller.message());
    } else {
      apply_actions(**controller, options);
      for (int frame = 0; !(*window)->should_close(); ++frame) {
        const bool last = options.frames > 0 && frame == options.frames - 1;
        (*window)->poll_events();
        if (last) wait_for_measurements(**controller);
        (*controller)->update();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        draw_ui(**controller, fonts);
        ImGui::Render();
        const auto size = (*window)->framebuffer_size();
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, size.width, size.height);
        glClearColor(0.06f, 0.06f, 0.08f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (auto capture = (*controller)->take_capture()) {
          glReadBuffer(GL_BACK);
          const ImVec2 framebuffer_scale = ImGui::GetIO().DisplayFramebufferScale;
          save_capture(**controller, *capture,
                       {size.width, size.height, read_framebuffer(size.width, size.height)},
                       framebuffer_scale.x, framebuffer_scale.y);
        }
        if (last) {
          if (!options.screenshot.empty()) {
            glReadBuffer(GL_BACK);
            const Status saved = render::write_png(options.screenshot, size.width, size.height,
                                                   read_framebuffer(size.width, size.height));
            if (!saved) status = fail(saved.message());
          }
          (*window)->request_close();
        }
        (*window)->swap_buffers();
      }
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  return status;
}

int run_headless(const cli::GuiOptions& options, interop::BackendPreference backend) {
  auto gl = platform::EglContext::create({});
  if (!gl) return fail(gl.message());
  auto target = render::OffscreenTarget::create(options.width, options.height);
  if (!target) return fail(target.message());
  ImGuiContextGuard imgui;
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = {static_cast<float>(options.width), static_cast<float>(options.height)};
  io.DeltaTime = 1.0f / 60.0f;
  const Fonts fonts = setup_theme(options.scale > 0 ? options.scale : 1.0f);
  ImGui_ImplOpenGL3_Init(kGlslVersion);
  int status = 0;
  {
    auto controller = AppController::create({backend, (*gl)->renderer()});
    if (!controller) {
      status = fail(controller.message());
    } else {
      apply_actions(**controller, options);
      const int frames = options.frames > 0 ? options.frames : 3;
      for (int frame = 0; frame < frames; ++frame) {
        if (frame == frames - 1) wait_for_measurements(**controller);
        (*controller)->update();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        draw_ui(**controller, fonts);
        ImGui::Render();
        (*target)->bind();
        glClearColor(0.06f, 0.06f, 0.08f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (auto capture = (*controller)->take_capture()) {
          auto pixels = (*target)->read_pixels();
          if (pixels) {
            save_capture(**controller, *capture,
                         {options.width, options.height, std::move(*pixels)}, 1.0f, 1.0f);
          } else {
            (*controller)->capture_done(capture->path, pixels.status());
          }
        }
      }
      if (!options.screenshot.empty()) {
        auto pixels = (*target)->read_pixels();
        const Status saved =
            pixels ? render::write_png(options.screenshot, options.width, options.height, *pixels)
                   : pixels.status();
        if (!saved) status = fail(saved.message());
      }
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  return status;
}

}  // namespace

int run_app(const cli::GuiOptions& options) {
  auto backend = interop::parse_backend_preference(options.backend);
  if (!backend) return fail("--backend: " + backend.message());
  const Status actions = check_actions(options);
  if (!actions) return fail("--action: " + actions.message());
  return options.headless ? run_headless(options, *backend) : run_window(options, *backend);
}

}  // namespace tl::ui
