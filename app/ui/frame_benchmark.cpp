#include "frame_benchmark.hpp"

// glad first: the ImGui OpenGL backend must not pull in another GL header before it.
#include <glad/gl.h>

#include <chrono>

#include "app_controller.hpp"
#include "headless_ui.hpp"

namespace tl::ui {
namespace {

// Frames drawn before timing starts: the font atlas upload, shader compilation, first allocations.
constexpr int kWarmupFrames = 5;

}  // namespace

Result<cli::UiFrameTimes> measure_ui_frames(const cli::UiFrameRequest& request) {
  if (request.frames < 1) return invalid_argument("at least one frame to measure");
  auto backend = interop::parse_backend_preference(request.backend);
  if (!backend) return backend.error();
  auto ui = HeadlessUi::create(request.width, request.height, 1.0f);
  if (!ui) return ui.error();

  auto controller = AppController::create({*backend, (*ui)->renderer(), std::nullopt});
  if (!controller) return controller.error();
  AppController& app = **controller;
  app.wait_until_idle(std::chrono::minutes(5));  // the first timed run and the ceilings
  if (!app.set_params(
          {{"n", std::to_string(request.elements)}, {"grid", "auto"}, {"block", "256"}})) {
    return invalid_argument("the vector-add lesson refused " + std::to_string(request.elements) +
                            " elements");
  }
  cli::UiFrameTimes times;
  times.backend = to_string(app.state().backend);
  times.renderer = (*ui)->renderer();
  for (int frame = 0; frame < kWarmupFrames + request.frames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    app.launch(/*timed=*/false);  // the traced kernel, its records delivered to OpenGL
    if (!app.state().trace.valid) return Error{ErrorKind::kCudaError, app.state().trace.error};
    (*ui)->draw_frame(app);
    glFinish();  // the frame is done when the GPU has drawn it, as a swap would wait
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (frame >= kWarmupFrames) {
      times.milliseconds.push_back(ms);
      times.traced_milliseconds.push_back(app.state().trace.traced_milliseconds);
    }
  }
  return times;
}

}  // namespace tl::ui
