#include "frame_benchmark.hpp"

// glad first: the ImGui OpenGL backend must not pull in another GL header before it.
#include <glad/gl.h>

#include <chrono>

#include "app_controller.hpp"
#include "core/format.hpp"
#include "headless_ui.hpp"

namespace tl::ui {
namespace {

// Frames drawn before timing starts: the font atlas upload, shader compilation, first allocations.
constexpr int kWarmupFrames = 5;

}  // namespace

Result<UiFrameTimes> measure_ui_frames(const UiFrameRequest& request) {
  if (request.frames < 1) return invalid_argument("at least one frame to measure");
  auto backend = interop::parse_backend_preference(request.backend);
  if (!backend) return backend.error();
  auto ui = HeadlessUi::create(request.width, request.height, 1.0f);
  if (!ui) return ui.error();

  ControllerOptions controller_options{
      .backend = *backend, .gl_renderer = (*ui)->renderer(), .ceilings_cache = std::nullopt};
  // A scripted run never touches the learner's Lab sources or progress: the Lab stays in memory.
  controller_options.lab.folder = std::nullopt;
  auto controller = AppController::create(controller_options);
  if (!controller) return controller.error();
  AppController& app = **controller;
  const auto report = [&request](const std::string& what) {
    if (request.progress) request.progress(what);
  };
  report("UI frame: " + std::string(to_string(app.state().backend)) +
         "; waiting for the first timed run and the ceilings");
  app.wait_until_idle(std::chrono::minutes(5));  // the first timed run and the ceilings
  // The lesson the app opens on (the first registered) at the requested size, 256 threads to a
  // block.
  lessons::ParamValues sized = app.current_lesson().values_for_size(request.elements);
  sized["block"] = "256";
  if (!app.set_params(sized)) {
    return invalid_argument("the lesson " + std::string(app.current_lesson().info().id) +
                            " refused " + std::to_string(request.elements) + " elements");
  }
  app.wait_until_idle(std::chrono::minutes(5));  // a timed run the new size may have started
  report("UI frame: " + std::to_string(request.elements) + " elements set; drawing " +
         std::to_string(kWarmupFrames + request.frames) + " frames");
  UiFrameTimes times;
  times.backend = to_string(app.state().backend);
  times.renderer = (*ui)->renderer();
  for (int frame = 0; frame < kWarmupFrames + request.frames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    app.launch(/*timed=*/false);  // the traced kernel, its records delivered to OpenGL
    // A trace the emulator runs in the background is part of this frame all the same.
    if (app.busy()) app.wait_until_idle(std::chrono::minutes(5));
    if (!app.state().trace.valid) return Error{ErrorKind::kCudaError, app.state().trace.error};
    (*ui)->draw_frame(app);
    glFinish();  // the frame is done when the GPU has drawn it, as a swap would wait
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (frame < 3 || (frame + 1) % 20 == 0) {
      report("UI frame " + std::to_string(frame + 1) + ": " + format_milliseconds(ms) +
             " (traced launch " + format_milliseconds(app.state().trace.traced_milliseconds) + ")");
    }
    if (frame >= kWarmupFrames) {
      times.milliseconds.push_back(ms);
      times.traced_milliseconds.push_back(app.state().trace.traced_milliseconds);
    }
  }
  return times;
}

}  // namespace tl::ui
