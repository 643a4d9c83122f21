#include "frame_benchmark.hpp"

// glad first: the ImGui OpenGL backend must not pull in another GL header before it.
#include <glad/gl.h>
// clang-format off
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
// clang-format on

#include <chrono>
#include <thread>

#include "app_controller.hpp"
#include "platform/egl_context.hpp"
#include "render/offscreen_target.hpp"
#include "ui_root.hpp"

namespace tl::ui {
namespace {

// Frames drawn before timing starts: the font atlas upload, shader compilation, first allocations.
constexpr int kWarmupFrames = 5;

struct ImGuiFrameContext {
  ImGuiFrameContext() {
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
  }
  ~ImGuiFrameContext() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
  }
  ImGuiFrameContext(const ImGuiFrameContext&) = delete;
  ImGuiFrameContext& operator=(const ImGuiFrameContext&) = delete;
};

void wait_until_idle(AppController& controller) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (controller.busy() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  controller.update();
}

}  // namespace

Result<cli::UiFrameTimes> measure_ui_frames(const cli::UiFrameRequest& request) {
  if (request.frames < 1) return invalid_argument("at least one frame to measure");
  auto backend = interop::parse_backend_preference(request.backend);
  if (!backend) return backend.error();
  auto gl = platform::EglContext::create({});
  if (!gl) return gl.error();
  auto target = render::OffscreenTarget::create(request.width, request.height);
  if (!target) return target.error();
  ImGuiFrameContext imgui;
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = {static_cast<float>(request.width), static_cast<float>(request.height)};
  io.DeltaTime = 1.0f / 60.0f;
  const Fonts fonts = setup_theme(1.0f);
  ImGui_ImplOpenGL3_Init("#version 430");

  auto controller = AppController::create({*backend, (*gl)->renderer(), std::nullopt});
  if (!controller) return controller.error();
  AppController& app = **controller;
  wait_until_idle(app);
  if (!app.set_params(
          {{"n", std::to_string(request.elements)}, {"grid", "auto"}, {"block", "256"}})) {
    return invalid_argument("the vector-add lesson refused " + std::to_string(request.elements) +
                            " elements");
  }
  cli::UiFrameTimes times;
  times.backend = to_string(app.state().backend);
  times.renderer = (*gl)->renderer();
  for (int frame = 0; frame < kWarmupFrames + request.frames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    app.launch(/*timed=*/false);  // the traced kernel, its records delivered to OpenGL
    if (!app.state().trace.valid) return Error{ErrorKind::kCudaError, app.state().trace.error};
    app.update();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    draw_ui(app, fonts);
    ImGui::Render();
    (*target)->bind();
    glClearColor(0.06f, 0.06f, 0.08f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glFinish();  // the frame is done when the GPU has drawn it, as a swap would wait
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (frame >= kWarmupFrames) times.milliseconds.push_back(ms);
  }
  return times;
}

}  // namespace tl::ui
