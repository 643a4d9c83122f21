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
#include <csignal>
#include <deque>
#include <filesystem>
#include <iostream>
#include <thread>

#include "action_check.hpp"
#include "core/classroom/demo_script.hpp"
#include "core/classroom/settings.hpp"
#include "core/format.hpp"
#include "core/image_crop.hpp"
#include "frame_capture.hpp"
#include "headless_ui.hpp"
#include "keyboard_shortcuts.hpp"
#include "platform/glfw_window.hpp"
#include "render/png_writer.hpp"
#include "theme_keeper.hpp"
#include "ui_root.hpp"
#include "widgets/typed_input.hpp"

namespace tl::ui {
namespace {

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
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  TypedEvent press;
  press.key = key;
  press.repeat = action == GLFW_REPEAT;
  typed_input().push(with_modifiers(press, mods));
}
void queue_character(GLFWwindow* window, unsigned int code_point) {
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

PlatformKeys glfw_keys() {
  return {GLFW_KEY_F1,    GLFW_KEY_F5,    GLFW_KEY_F11,    GLFW_KEY_F12,
          GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_KP_ADD, GLFW_KEY_KP_SUBTRACT};
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

int run_window(const GuiOptions& options, interop::BackendPreference backend,
               std::optional<classroom::DemoScript> demo) {
  const classroom::LoadedSettings loaded = read_settings();
  platform::WindowOptions window_options;
  window_options.width = options.width > 0 ? options.width : loaded.settings.window_width;
  window_options.height = options.height > 0 ? options.height : loaded.settings.window_height;
  window_options.fullscreen = options.fullscreen;
  // A size asked for on the command line is kept (screenshots); a remembered one fits this screen.
  window_options.fit_to_monitor = options.width <= 0 || options.height <= 0;
  auto window = platform::GlfwWindow::create(window_options);
  if (!window) return fail(window.message());
  ImGuiContextGuard imgui;
  const float scale =
      options.scale > 0 ? options.scale : std::max(1.0f, (*window)->content_scale().x);
  ThemeKeeper theme(scale, loaded.settings.theme);
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  glfwSetKeyCallback((*window)->native(), &queue_key);
  glfwSetCharCallback((*window)->native(), &queue_character);
  typed_input().set_connected(true);
  ImGui_ImplGlfw_InitForOpenGL((*window)->native(), true);
  ImGui_ImplOpenGL3_Init(kGlslVersion);
  const PlatformKeys keys = glfw_keys();
  int status = 0;
  {
    ControllerOptions controller_options{.backend = backend, .gl_renderer = (*window)->renderer()};
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
      for (int frame = 0; !(*window)->should_close(); ++frame) {
        const bool last = options.frames > 0 && frame == options.frames - 1;
        (*window)->poll_events();
        typed_input().begin_frame();
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
        app.update();
        (*window)->set_fullscreen(app.state().classroom.fullscreen);
        // The window's size from the last frame bounds the scale (none before the first frame).
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        theme.follow(app.state().classroom, display.x, display.y);
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        handle_shortcuts(app, keys);
        draw_ui(app, theme.fonts());
        ImGui::Render();
        const auto size = (*window)->framebuffer_size();
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, size.width, size.height);
        glClearColor(0.06f, 0.06f, 0.08f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (auto capture = app.take_capture()) {
          glReadBuffer(GL_BACK);
          const ImVec2 framebuffer_scale = ImGui::GetIO().DisplayFramebufferScale;
          save_capture(app, *capture,
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
        if (app.state().quit_requested || stop_requested != 0) (*window)->request_close();
        (*window)->swap_buffers();
      }
      if (app.state().backend != started_on) {
        std::cerr << "threadlab: moved to " << to_string(app.state().backend)
                  << " while running: " << app.state().backend_reason << '\n';
      }
      // Scripted and timed runs (tests, screenshots) leave the user's settings alone.
      if (options.frames == 0) {
        const auto windowed = (*window)->windowed_size();
        write_settings(app.settings_to_save(windowed.width, windowed.height));
      }
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  typed_input().set_connected(false);
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
