#include "app_shell.hpp"

#include <chrono>
#include <csignal>
#include <deque>
#include <filesystem>
#include <iostream>

#include "action_check.hpp"
#include "class_session.hpp"
#include "core/classroom/demo_script.hpp"
#include "core/classroom/settings.hpp"
#include "core/format.hpp"
#include "headless_ui.hpp"
#include "platform/glfw_window.hpp"
#include "window_ui.hpp"

namespace tl::ui {
namespace {

constexpr int kHeadlessWidth = 1600;
constexpr int kHeadlessHeight = 1000;
// A screenshot should show finished measurements, so the last frame waits for them, up to this
// long.
constexpr auto kMaxWaitForMeasurements = std::chrono::seconds(120);
// A demo step may be a whole sweep (the matrix multiply's, every rung against cuBLAS): longer.
constexpr auto kMaxWaitForDemoStep = std::chrono::seconds(600);
// Frames drawn for each headless demo step before its picture: windows that size themselves to
// their contents (the caption) take a frame to measure.
constexpr int kFramesPerDemoStep = 3;

// Ctrl+C in the terminal, or a session manager's SIGTERM, closes the window as its close button
// does, so the settings are saved and the GPU work ends cleanly.
volatile std::sig_atomic_t stop_requested = 0;
extern "C" void request_stop(int /*signal*/) {
  stop_requested = 1;
}

void apply_actions(AppController& controller, const GuiOptions& options) {
  for (const std::string& action : options.actions) {
    // Each action waits for the previous one's measurements (a sweep too), as a person would.
    controller.wait_until_idle(kMaxWaitForDemoStep);
    controller.apply_lesson_action(action);
  }
}

int fail(const std::string& message) {
  // A reason may quote an action, a script's line or a file name: it stays one line.
  std::cerr << "threadlab: " << one_line(message) << '\n';
  return 1;
}

// What the settings file says, or the defaults with its warning on stderr and in the app.
classroom::LoadedSettings read_settings() {
  const auto path = classroom::default_settings_path();
  if (!path) return {};
  classroom::LoadedSettings loaded = classroom::load_settings(*path);
  if (loaded.warning) std::cerr << "threadlab: warning: " << one_line(*loaded.warning) << '\n';
  return loaded;
}

void write_settings(const classroom::Settings& settings) {
  const auto path = classroom::default_settings_path();
  if (!path) return;
  const Status saved = classroom::save_settings(*path, settings);
  if (!saved)
    std::cerr << "threadlab: warning: settings not saved: " << one_line(saved.message()) << '\n';
}

// The class the window joins or hosts (--join, --host-class), kept by the controller, which runs it
// each frame. A class that cannot be hosted (the port is taken) is said on the status bar; the
// window opens all the same.
void start_class(const GuiOptions& options, AppController& app) {
  if (!options.join.empty()) {
    auto address = net::parse_join_address(options.join);
    if (!address) {  // checked with the options already; kept so a bad one is never half-used
      app.post(Severity::kError, address.message());
      return;
    }
    app.join_class(class_client_options(*address, options.name));
    // One line per presenter's state the window applied, read back from the window: a student (or
    // a script) watching the terminal sees the window follow.
    app.class_session()->set_on_applied([](const net::FollowState& shown) {
      std::cout << "threadlab: class: following to " << describe_follow_state(shown) << std::endl;
    });
    app.class_session()->set_on_result([](const net::LabResult& result) {
      std::cout << "threadlab: class: your check of " << result.exercise << " ("
                << net::to_string(result.outcome) << ") goes to the teacher's board" << std::endl;
    });
    return;
  }
  if (!options.host_class) return;
  net::ClassServerOptions server = class_server_options(options.class_port, options.class_code);
  if (!options.class_bind.empty()) server.bind = options.class_bind;
  const Status hosted = app.host_class(std::move(server));
  if (!hosted) {
    app.post(Severity::kError, "No class: " + hosted.message());
    return;
  }
  // "Class 192.168.1.20:8737/K7QM2X: 0 following": what students give --join.
  std::cout << "threadlab: " << app.class_session()->status_line() << std::endl;
}

int run_window(const GuiOptions& options, interop::BackendPreference backend,
               std::optional<classroom::DemoScript> demo) {
  const classroom::LoadedSettings loaded = read_settings();
  WindowUiOptions window_options;
  window_options.window.width = options.width > 0 ? options.width : loaded.settings.window_width;
  window_options.window.height =
      options.height > 0 ? options.height : loaded.settings.window_height;
  window_options.window.fullscreen = options.fullscreen;
  // A size asked for on the command line is kept (screenshots); a remembered one fits this screen.
  window_options.window.fit_to_monitor = options.width <= 0 || options.height <= 0;
  window_options.scale = options.scale;
  window_options.theme = loaded.settings.theme;
  auto ui = WindowUi::create(window_options);
  if (!ui) return fail(ui.message());
  platform::GlfwWindow& window = (*ui)->window();
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  int status = 0;
  {
    ControllerOptions controller_options{.backend = backend, .gl_renderer = (*ui)->renderer()};
    controller_options.settings = loaded.settings;
    // A demo, a start-up link or a timed run plays someone else's code through the Lab: it keeps
    // the Lab in memory, so the learner's own sources and progress are never replaced (F1).
    if (demo || !options.actions.empty() || options.frames > 0) {
      controller_options.lab.folder = std::nullopt;
    }
    auto controller = AppController::create(controller_options);
    if (!controller) {
      status = fail(controller.message());
    } else {
      AppController& app = **controller;
      // The path the traces take, on the terminal too: on a hybrid laptop it is the first thing to
      // check, and a scripted run (tests, screenshots) can be read without looking at the window.
      const BackendKind started_on = app.state().backend;
      std::cout << "threadlab: " << to_string(started_on) << ": " << app.state().backend_reason
                << std::endl;
      if (loaded.warning) app.post(Severity::kWarning, *loaded.warning);
      app.set_fullscreen(options.fullscreen);
      // Start-up links are applied between frames, each once the work before it is done (as a
      // person would click them), so the window draws from its first frame on: a link to a
      // large launch shows its progress rather than a black window.
      std::deque<std::string> startup_actions(options.actions.begin(), options.actions.end());
      start_class(options, app);
      for (int frame = 0; !window.should_close(); ++frame) {
        const bool last = options.frames > 0 && frame == options.frames - 1;
        // Idle, the window waits for input instead of redrawing (redraw_policy.hpp); a scripted
        // run (a number of frames, start-up links, a demo to start) draws every frame.
        const bool scripted = options.frames > 0 || !startup_actions.empty() || demo.has_value();
        (*ui)->wait_for_next_frame(app, scripted);
        while (!startup_actions.empty() && (last || !app.busy())) {
          if (last) app.wait_until_idle(kMaxWaitForDemoStep);
          app.apply_lesson_action(startup_actions.front());
          startup_actions.pop_front();
        }
        if (demo && startup_actions.empty()) {
          app.start_demo(std::move(*demo));
          demo.reset();
        }
        if (last) app.wait_until_idle(kMaxWaitForMeasurements);
        (*ui)->draw_frame(app);
        if (last) {
          if (!options.screenshot.empty()) {
            const Status saved = (*ui)->save_png(options.screenshot);
            if (!saved) status = fail(saved.message());
          }
          window.request_close();
        }
        if (app.state().quit_requested || stop_requested != 0) window.request_close();
        (*ui)->show_frame();
      }
      if (app.state().backend != started_on) {
        std::cerr << "threadlab: moved to " << to_string(app.state().backend)
                  << " while running: " << app.state().backend_reason << '\n';
      }
      // Scripted and timed runs (tests, screenshots) leave the user's settings alone.
      if (options.frames == 0) {
        const auto windowed = window.windowed_size();
        write_settings(app.settings_to_save(windowed.width, windowed.height));
      }
    }
  }
  return status;
}

// Each step of the script played, measured and saved as DIR/<shot>.png: the same pictures every
// run, for slides and for the README.
int play_demo_headless(AppController& controller, classroom::DemoScript script,
                       const std::string& out_dir, HeadlessUi& ui) {
  std::error_code created;
  std::filesystem::create_directories(out_dir, created);
  if (created) return fail("cannot create " + out_dir + ": " + created.message());
  const std::size_t steps = script.steps.size();
  std::vector<std::string> shots;
  for (const auto& step : script.steps) shots.push_back(step.shot);
  // Waits are for people: here each step ends when it is measured and saved.
  controller.start_demo(std::move(script), /*timed_advance=*/false);
  for (std::size_t i = 0; i < steps; ++i) {
    if (i > 0) controller.play_demo_step(i);
    controller.wait_until_idle(kMaxWaitForDemoStep);
    for (int frame = 0; frame < kFramesPerDemoStep; ++frame) ui.draw_frame(controller);
    const std::string path = (std::filesystem::path(out_dir) / (shots[i] + ".png")).string();
    const Status saved = ui.save_png(path);
    if (!saved) return fail(saved.message());
    std::cout << path << '\n';
  }
  return 0;
}

int run_headless(const GuiOptions& options, interop::BackendPreference backend,
                 std::optional<classroom::DemoScript> demo) {
  const int width = options.width > 0 ? options.width : kHeadlessWidth;
  const int height = options.height > 0 ? options.height : kHeadlessHeight;
  // Headless runs are reproducible: they neither read nor write the user's settings.
  auto ui = HeadlessUi::create(width, height, options.scale > 0 ? options.scale : 1.0f);
  if (!ui) return fail(ui.message());
  // Nor the learner's Lab files: a headless demo or link checks code in memory only (F1).
  ControllerOptions controller_options{.backend = backend, .gl_renderer = (*ui)->renderer()};
  controller_options.lab.folder = std::nullopt;
  auto controller = AppController::create(controller_options);
  if (!controller) return fail(controller.message());
  if (demo) return play_demo_headless(**controller, std::move(*demo), options.out_dir, **ui);
  apply_actions(**controller, options);
  const int frames = options.frames > 0 ? options.frames : 3;
  for (int frame = 0; frame < frames; ++frame) {
    if (frame == frames - 1) (*controller)->wait_until_idle(kMaxWaitForMeasurements);
    (*ui)->draw_frame(**controller);
  }
  if (!options.screenshot.empty()) {
    const Status saved = (*ui)->save_png(options.screenshot);
    if (!saved) return fail(saved.message());
  }
  return 0;
}

}  // namespace

int run_app(const GuiOptions& options) {
  auto backend = interop::parse_backend_preference(options.backend);
  if (!backend) return fail("--backend: " + backend.message());
  ActionChecker checker;
  for (const std::string& action : options.actions) {
    const Status checked = checker.check_link(action);
    if (!checked) return fail("--action: " + checked.message());
  }
  std::optional<classroom::DemoScript> demo;
  if (!options.demo_script.empty()) {
    auto script = classroom::load_demo_script(options.demo_script);
    if (!script) return fail(script.message());
    const Status checked = check_demo_script(*script);
    if (!checked) return fail(checked.message());
    demo = std::move(*script);
  }
  return options.headless ? run_headless(options, *backend, std::move(demo))
                          : run_window(options, *backend, std::move(demo));
}

}  // namespace tl::ui
