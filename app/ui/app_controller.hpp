#pragma once
// The one place where user commands turn into work: launches (traced now, timed in the background),
// sweeps, lesson actions, view changes. Panels call these commands and read state(); they never
// compute. Needs the OpenGL context current on the calling thread (the UI thread) for its lifetime.

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "app_state.hpp"
#include "compute/device.hpp"
#include "compute/float_sink.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "compute/trace_sink.hpp"
#include "core/classroom/settings.hpp"
#include "core/device_ceilings.hpp"
#include "core/work_watch.hpp"
#include "interop/backend_selection.hpp"
#include "interop/launch_session.hpp"
#include "lab_controller.hpp"
#include "lesson_views.hpp"
#include "render/class_map.hpp"
#include "render/mapping_renderer.hpp"
#include "render/trace_buffer.hpp"

namespace tl::ui {

struct ControllerOptions {
  interop::BackendPreference backend = interop::BackendPreference::kAuto;
  std::string gl_renderer;  // GL_RENDERER, for the status bar
  // Where the device's measured ceilings are cached (none: measured each run, not stored).
  std::optional<std::filesystem::path> ceilings_cache = default_ceilings_cache_path();
  // What the settings file remembers: the lesson to open, the presenter scale and the theme.
  classroom::Settings settings{};
  // The Kernel Lab: where its progress is kept and how it checks (tests give a fake check).
  LabControllerOptions lab{};
};

class AppController {
 public:
  static Result<std::unique_ptr<AppController>> create(const ControllerOptions& options);
  ~AppController();
  AppController(const AppController&) = delete;
  AppController& operator=(const AppController&) = delete;

  [[nodiscard]] const AppState& state() const { return state_; }

  // Lessons and their controls. Invalid values are kept out with a message and the previous value
  // stays; invalid *configurations* are allowed, explained, and launched if the user insists, so
  // CUDA's own error can be seen.
  void select_lesson(const std::string& id);
  void set_param(const std::string& name, const std::string& value);
  // Several values at once, validated together (a lesson link, a preset).
  bool set_params(const lessons::ParamValues& values);
  // The lesson open now, to read (its parameters, its sizes); changes go through the commands.
  [[nodiscard]] const compute::Lesson& current_lesson() const { return lesson(); }
  void apply_preset(std::size_t index);

  // Traced launch now (the picture), then, if `timed`, the untraced kernels timed in the
  // background.
  void launch(bool timed = true);
  [[nodiscard]] bool can_launch() const;
  // Stops a launch's background work: a trace the emulator runs in the background (the picture
  // and the table stay the earlier launch's), or the timed run after it.
  void cancel_launch();
  // Background measurements are running (a traced launch, a timed launch or a sweep).
  [[nodiscard]] bool busy() const { return runner_.is_running() || sweep_after_trace_.has_value(); }
  // Blocks until the background measurements end (at most `limit`), then collects them; for the
  // scripted runs (screenshots, demos, benchmarks) that want finished results, never the UI.
  void wait_until_idle(std::chrono::milliseconds limit);

  // Read the compared kernels' hardware counters after each timed launch (the lessons that count
  // them; CUPTI replays each kernel, apart from the timed runs).
  void set_read_counters(bool on);
  void start_sweep(SweepKind kind = SweepKind::kSize);
  void cancel_sweep();
  void clear_plot();
  // What the plot's y axis shows: time, GB/s or GFLOP/s (kept when the points allow no rate yet,
  // so a link's plot=gflops before its sweep still applies when the points arrive).
  void set_plot_quantity(plot::PlotQuantity quantity);
  void set_plot_log_y(bool log_y) { state_.timing.log_y = log_y; }
  // The reference GPU and kernel resources the Occupancy tab models on the emulator; an unknown
  // GPU name or a register count outside 1 to 255 is refused with a message.
  void set_occupancy_model(const OccupancyModelChoice& choice);
  // Where the current lesson's results differ on the emulator, and why: the lesson's note (the
  // timing panel's) and the one for the current guided step's section (the step bar's). Null when
  // the backend in use is a GPU, when no step is current, or when the lesson has none.
  [[nodiscard]] const lessons::EmulatorNote* lesson_emulator_note() const;
  [[nodiscard]] const lessons::EmulatorNote* step_emulator_note() const;

  // Saving a part of the frame as PNG: a panel asks while drawing; the shell takes the request
  // after rendering that frame, saves it, and reports back.
  void request_capture(CaptureRequest request) { capture_ = std::move(request); }
  std::optional<CaptureRequest> take_capture() { return std::exchange(capture_, std::nullopt); }
  void capture_done(const std::string& path, const Status& saved);

  // "threadlab:set?..." links in the lesson text.
  void apply_lesson_action(const std::string& link);
  // The same, already parsed (a demo script's step).
  void apply_action(const lessons::LessonAction& action);

  // Classroom mode (app_controller_classroom.cpp). Right/Left (and a clicker's PageDown/PageUp)
  // walk the lesson's guided steps, or the demo's steps while one plays; past the last step of a
  // lesson comes the next lesson. A step stops the background work it would otherwise be refused
  // by: in front of a class the click must always do something.
  void next_step();
  void previous_step();
  void go_to_step(std::size_t index);
  void set_presenter(bool on);
  void set_presenter_scale(float scale);
  void set_theme(classroom::Theme theme);
  void set_fullscreen(bool on) { state_.classroom.fullscreen = on; }
  void set_show_shortcuts(bool on) { state_.classroom.show_shortcuts = on; }
  // Plays the script's first step; later ones follow with the keys or after their waits.
  void start_demo(classroom::DemoScript script, bool timed_advance = true);
  void play_demo_step(std::size_t index);
  void set_demo_paused(bool paused);
  void stop_demo();
  // A PNG of the whole window (width × height in UI units) in the pictures folder.
  void request_screenshot(float width, float height);
  // The device's memory now (the soak run watches it stay flat).
  Result<compute::MemoryInfo> device_memory() { return device().memory_info(); }

  // The File menu's Quit: the shell closes the window after this frame.
  void request_quit() { state_.quit_requested = true; }
  // What the settings file should remember now.
  [[nodiscard]] classroom::Settings settings_to_save(int window_width, int window_height) const;

  // Mapping view.
  void set_color_by(ColorBy mode);
  void show_results(ResultsTab tab);
  // A click on the mapping view: the hovered element becomes the picked one, for the lesson's views
  // to make of it what they do (the matrix product shows its reads); lessons without a use for a
  // picked element ignore it.
  void pick_hovered_element();
  void pick_element(std::uint64_t row, std::uint64_t col);
  // Where the lesson's views keep what they made of the pick, until the next launch.
  void set_lesson_pick(std::shared_ptr<compute::LessonAttachment> pick) {
    state_.lesson_pick = std::move(pick);
  }
  [[nodiscard]] compute::LessonAttachment* lesson_pick() { return state_.lesson_pick.get(); }
  // The Kernel Lab of the current lesson (lab_controller.hpp).
  [[nodiscard]] LabController& lab() { return *lab_; }
  [[nodiscard]] const LabController& lab() const { return *lab_; }
  // The whole window's tabs: the lesson, or its Kernel Lab. show_workspace brings one to the
  // front (a link's view=lab); the UI reports the one the user opened.
  void show_workspace(Workspace workspace);
  void workspace_shown(Workspace workspace) { state_.view.workspace = workspace; }
  void workspace_request_shown() {
    state_.view.workspace_requests_shown = state_.view.workspace_requests;
  }

  // Brings one of the current lesson's own tabs to the front.
  void show_lesson_tab(std::string_view id);
  // The current lesson's own views (tabs, the picture beside the mapping view, picking).
  [[nodiscard]] const LessonViews& views() const;
  // The current lesson's live work (LessonViews::make_live), or null.
  [[nodiscard]] LessonLiveWork* lesson_live() { return live_.get(); }
  // For a lesson's live work: the device the lessons run on (valid until it stops, see
  // LessonLiveWork), the backend's sink into a class map (interop, copy or upload), and whether
  // the device may be used now (no measurement runs).
  [[nodiscard]] compute::Device& lesson_device() { return device(); }
  [[nodiscard]] std::unique_ptr<compute::FloatSink> make_class_map_sink(
      render::ClassMap& map, std::optional<BackendKind> kind = std::nullopt) const;
  // A view by the name a lesson link or a demo uses: the window's tabs, or the lesson's own.
  Status show_view(const std::string& name);
  void hover(std::optional<PixelPoint> pixel, Viewport viewport);
  void zoom(double factor, double pixel_x, double pixel_y);
  void pan(double dx, double dy);
  void fit_view();
  // Draws the current trace into the renderer's texture at this size; returns the GL texture name.
  Result<std::uint32_t> render_mapping(Viewport viewport);
  // The records the mapping view draws (read back one by one: for tests and hover tooltips).
  [[nodiscard]] const render::TraceBuffer& trace_buffer() const { return trace_buffer_; }

  // The embedded text of a kernel source for the lesson panel, e.g.
  // "lessons/01_vector_add/kernels/vector_add.cuh".
  [[nodiscard]] std::optional<std::string> embedded_source(const std::string& path) const;

  // Once per frame: collects background results and progress.
  void update();

  void post(Severity severity, std::string text);

 private:
  AppController() = default;
  compute::Lesson& lesson() { return *session_->lesson(); }
  [[nodiscard]] const compute::Lesson& lesson() const { return *session_->lesson(); }
  compute::Device& device() { return session_->device(); }
  // Rebuilds state_.timing.shown and .quantities after the series or the quantity changed.
  void refresh_plot();
  // Rebuilds state().roofline where the timed run or the ceilings changed since the last time.
  void refresh_roofline();
  Status initialize(const ControllerOptions& options);
  void load_lesson_text();
  // Makes `id` the current lesson without launching it; false when it already is or cannot be.
  bool switch_lesson(const std::string& id);
  void refresh_controls();
  void refresh_occupancy();
  void start_timed_run();
  // The timed run's job for the current controls, its state written into `timed`; none (and
  // `timed` says why) where it cannot be prepared.
  std::optional<SweepJob> make_timed_job(TimedRun& timed);
  // A new, empty picture state for `launched`.
  TraceView& begin_trace_view(const LaunchedWith& launched);
  // A traced launch's outcome into the picture state begun for it.
  void show_traced(Result<interop::TracedOutcome> traced);
  void start_background_trace(std::unique_ptr<interop::BackgroundTrace> prepared, bool timed);
  // Takes a background trace's outcome once it ran (or the runner stopped before it ran).
  void collect_background_trace(bool running);
  // A sticky CUDA error: reset the device and re-create the interop sink, or, where CUDA cannot
  // recover within the process, carry on on the emulator.
  void handle_device_error(const Error& error);
  // The device changed under the lesson (the emulator took over): what the state shows of it.
  void on_device_replaced();
  void record_sweep_point(const SweepPoint& point);
  // Classroom mode's helpers.
  void load_steps();
  void apply_step(std::size_t index);
  void go_to_lesson_step(const std::string& lesson_id, bool at_last_step);
  void stop_background_work();
  void advance_demo_when_due();
  // The current lesson's live work: made when it opens, dropped when it closes or the device goes.
  void open_lesson_live();

  AppState state_;
  render::TraceBuffer trace_buffer_;  // outlives the session, whose trace sink writes into it
  std::unique_ptr<interop::LaunchSession> session_;
  std::unique_ptr<render::MappingRenderer> renderer_;
  SweepRunner runner_;
  std::unique_ptr<LabController> lab_;
  std::unique_ptr<LessonLiveWork> live_;  // the lesson's background work; reset before session_
  bool runner_is_single_launch_ = false;
  std::optional<std::filesystem::path> ceilings_cache_;
  bool ceilings_requested_ = false;
  std::optional<CaptureRequest> capture_;  // measured (or tried) once per device
  // What the compiler gave each kernel: asked once per kernel (it cannot change while running).
  std::map<std::string, KernelResources, std::less<>> kernel_resources_;
  struct PendingRun;
  std::shared_ptr<PendingRun> pending_run_;
  // A traced launch running in the background, shared with its job.
  struct PendingTrace {
    std::unique_ptr<interop::BackgroundTrace> trace;
    LaunchedWith launched;
    WorkWatch watch;
    std::atomic<bool> ran{false};
    std::optional<TimedRun> timed;  // the table's state once the picture arrives
    bool asked_for_ceilings = false;
  };
  std::shared_ptr<PendingTrace> pending_trace_;
  // A sweep link's sweep, started once the picture its link asked for has been traced in the
  // background (the runner does one thing at a time).
  std::optional<SweepKind> sweep_after_trace_;
};

}  // namespace tl::ui
