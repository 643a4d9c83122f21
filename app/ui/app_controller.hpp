#pragma once
// The hub where user commands turn into work. Panels call these commands and read state(); they
// never compute. The work itself is done by the parts it owns, each in its own file:
//   - LaunchCoordinator: launches (traced now or in the background, then timed), Cancel, the
//     recovery after a sticky CUDA error; it owns the launch session and the background runner;
//   - ResultsModel: the sweeps, their plot and the roofline;
//   - ActionRouter: where lesson links and demo steps go (this is its ActionTarget);
//   - MappingViewController: the mapping view's fit, zoom, pan and drawing (the Lab has its own);
//   - LabController: the Kernel Lab.
// Lesson views see it only as a LessonViewContext. This file keeps the lesson and its controls,
// the views and tabs, the occupancy model and what ties the parts together. Needs the OpenGL
// context current on the calling thread (the UI thread) for its lifetime.

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "action_router.hpp"
#include "app_state.hpp"
#include "compiled_view_controller.hpp"
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
#include "launch_coordinator.hpp"
#include "lesson_memory_controller.hpp"
#include "lesson_view_context.hpp"
#include "lesson_views.hpp"
#include "mapping_view_controller.hpp"
#include "render/class_map.hpp"
#include "render/trace_buffer.hpp"
#include "results_model.hpp"

namespace tl::net {
struct ClassServerOptions;
struct ClassClientOptions;
}  // namespace tl::net

namespace tl::ui {

class ClassSession;

struct ControllerOptions {
  interop::BackendPreference backend = interop::BackendPreference::kAuto;
  std::string gl_renderer;  // GL_RENDERER, for the status bar
  // Where the device's measured ceilings are cached (none: measured each run, not stored).
  std::optional<std::filesystem::path> ceilings_cache = default_ceilings_cache_path();
  // What the settings file remembers: the lesson to open, the presenter scale and the theme.
  classroom::Settings settings{};
  // The Kernel Lab: where its progress is kept and how it checks (tests give a fake check).
  LabControllerOptions lab{};
  // The Memory tab's recordings: where they are cached (tests give their own folder).
  LessonMemoryOptions memory{};
};

class AppController : public LessonViewContext,
                      private ActionTarget,
                      private LaunchCoordinator::Host {
 public:
  static Result<std::unique_ptr<AppController>> create(const ControllerOptions& options);
  ~AppController();
  AppController(const AppController&) = delete;
  AppController& operator=(const AppController&) = delete;

  [[nodiscard]] const AppState& state() const override { return state_; }

  // Lessons and their controls. Invalid values are kept out with a message and the previous value
  // stays; invalid *configurations* are allowed, explained, and launched if the user insists, so
  // CUDA's own error can be seen.
  // While measurements run, another lesson (here or by a lesson link) is not refused: the state's
  // switch_offer asks whether to cancel them; accepted, the run is cancelled without waiting for
  // it (the window draws on) and the lesson opens once it stopped; declined, nothing changes.
  void select_lesson(const std::string& id);
  void accept_switch_offer();
  void decline_switch_offer() { state_.switch_offer.reset(); }
  void set_param(const std::string& name, const std::string& value) { set_params({{name, value}}); }
  // Several values at once, validated together (a lesson link, a preset).
  bool set_params(const lessons::ParamValues& values) override;
  void fit_link_values(lessons::ParamValues& values) override;
  // The lesson open now, to read (its parameters, its sizes); changes go through the commands.
  [[nodiscard]] const compute::Lesson& current_lesson() const { return lesson(); }
  void apply_preset(std::size_t index);

  // Traced launch now (the picture), then, if `timed`, the untraced kernels timed in the
  // background.
  void launch(bool timed = true) override;
  [[nodiscard]] bool can_launch() const;
  // Stops a launch's background work: a trace the emulator runs in the background (the picture
  // and the table stay the earlier launch's), or the timed run after it.
  void cancel_launch() { launches_->cancel(); }
  // Background measurements are running (a traced launch, a timed launch or a sweep).
  [[nodiscard]] bool busy() const override { return launches_->busy(); }
  // Something the window shows moves without input: background work of any kind (measurements, a
  // Lab check, the Memory tab's recording, training), a switch waiting for its run to stop, a
  // demo counting down its wait. The window draws every frame while it does, else waits for
  // input (redraw_policy.hpp).
  [[nodiscard]] bool wants_frames() const;
  // Blocks until the background measurements end (at most `limit`), then collects them; for the
  // scripted runs (screenshots, demos, benchmarks) that want finished results, never the UI.
  void wait_until_idle(std::chrono::milliseconds limit);

  // Read the compared kernels' hardware counters after each timed launch (the lessons that count
  // them; CUPTI replays each kernel, apart from the timed runs).
  void set_read_counters(bool on) {
    state_.counters.enabled = on;
    if (!on) state_.counters = {};
  }
  void start_sweep(SweepKind kind = SweepKind::kSize);
  void cancel_sweep() { launches_->cancel(); }
  void clear_plot() { results_->clear_plot(); }
  // What the plot's y axis shows: time, GB/s or GFLOP/s (kept when the points allow no rate yet,
  // so a link's plot=gflops before its sweep still applies when the points arrive).
  void set_plot_quantity(plot::PlotQuantity quantity) override { results_->set_quantity(quantity); }
  void set_plot_log_y(bool log_y) { state_.timing.log_y = log_y; }
  // The reference GPU and kernel resources the Occupancy tab models on the emulator; an unknown
  // GPU name or a register count outside 1 to 255 is refused with a message.
  void set_occupancy_model(const OccupancyModelChoice& choice) {
    results_->set_occupancy_model(choice);
  }
  // Where the current lesson's results differ on the emulator, and why: the lesson's note (the
  // timing panel's) and the one for the current guided step's section (the step bar's). Null when
  // the backend in use is a GPU, when no step is current, or when the lesson has none.
  [[nodiscard]] const lessons::EmulatorNote* lesson_emulator_note() const;
  [[nodiscard]] const lessons::EmulatorNote* step_emulator_note() const;

  // Saving a part of the frame as PNG: a panel asks while drawing; the shell takes the request
  // after rendering that frame, saves it, and reports back.
  void request_capture(CaptureRequest request) { capture_ = std::move(request); }
  std::optional<CaptureRequest> take_capture() { return std::exchange(capture_, std::nullopt); }
  void capture_done(const std::string& path, const Status& saved) {
    post(saved ? Severity::kInfo : Severity::kError, saved ? "Saved " + path : saved.message());
  }

  // "threadlab:set?..." links in the lesson text.
  void apply_lesson_action(const std::string& link);
  // The same, already parsed (a demo script's step).
  void apply_action(const lessons::LessonAction& action) { router_.apply(action); }

  // Classroom mode (app_controller_classroom.cpp). Right/Left (and a clicker's PageDown/PageUp)
  // walk the lesson's guided steps, or the demo's steps while one plays; past the last step of a
  // lesson comes the next lesson. A step stops the background work it would otherwise be refused
  // by: in front of a class the click must always do something.
  void next_step();
  void previous_step();
  void go_to_step(std::size_t index);
  void set_presenter(bool on);
  void set_presenter_scale(float scale);
  // What the window drew this frame: the scale asked (monitor × presenter factor) and drawn, and
  // its size in UI units. Where it draws less than asked, the state's scale_note says why, and in
  // presenter mode the status bar too, once per change.
  void scale_drawn(float asked, float drawn, float width, float height);
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
  void set_color_by(ColorBy mode) override { state_.view.color_by = mode; }
  void show_results(ResultsTab tab) override;
  // A click on the mapping view: the hovered element becomes the picked one, for the lesson's views
  // to make of it what they do (the matrix product shows its reads); lessons without a use for a
  // picked element ignore it.
  void pick_hovered_element();
  void pick_element(std::uint64_t row, std::uint64_t col) override;
  // Where the lesson's views keep what they made of the pick, until the next launch.
  void set_lesson_pick(std::shared_ptr<compute::LessonAttachment> pick) override {
    state_.lesson_pick = std::move(pick);
  }
  [[nodiscard]] compute::LessonAttachment* lesson_pick() override {
    return state_.lesson_pick.get();
  }
  // The Kernel Lab of the current lesson (lab_controller.hpp).
  [[nodiscard]] LabController& lab() { return *lab_; }
  [[nodiscard]] const LabController& lab() const { return *lab_; }
  // The lesson workspace's Memory tab (lesson_memory_controller.hpp): the current lesson's kernels
  // recorded on the emulator in the background. The tab calls show_lesson_memory every frame it
  // is open; it records when the lesson or its settings changed.
  [[nodiscard]] LessonMemoryController& lesson_memory() { return *memory_; }
  [[nodiscard]] const LessonMemoryController& lesson_memory() const { return *memory_; }
  // Also puts the timed run's hardware counters beside each kernel's model: only while the tab is
  // drawn, where they are read.
  void show_lesson_memory() {
    memory_->shown(lesson());
    memory_->show_counters(state_.counters, is_gpu(state_.backend),
                           state_.counters.launched.matches(state_.controls), state_.device.name);
  }
  // The lesson workspace's Compiled tab (compiled_view_controller.hpp): the lesson's kernels as
  // nvcc compiled them, from the listings the build embedded.
  [[nodiscard]] CompiledViewController& compiled_view() { return compiled_; }
  [[nodiscard]] const CompiledViewController& compiled_view() const { return compiled_; }
  void show_compiled_view() {
    // The kernel the occupancy view names, as the listing names it (a template over a type is
    // registered under a name of its own).
    compiled_.shown(lesson().info().id, lesson().info().folder,
                    device().kernel_listing_name(state_.controls.occupancy.kernel));
  }
  void record_lesson_memory() { memory_->record(lesson()); }
  // The whole window's tabs: the lesson, or its Kernel Lab. show_workspace brings one to the
  // front (a link's view=lab); the UI reports the one the user opened.
  void show_workspace(Workspace workspace) override;
  void workspace_shown(Workspace workspace) { state_.view.workspace = workspace; }
  // The results tab the user brought forward by hand (a click, not a request): the state says
  // what the window shows, so a class's presenter publishes it (class_session) and the window's
  // followers switch to it. `lesson_tab` names the lesson's own tab when `tab` is kLesson.
  void results_tab_shown(ResultsTab tab, std::string lesson_tab) {
    state_.view.results_tab = tab;
    state_.view.lesson_tab = std::move(lesson_tab);
  }
  void workspace_request_shown() {
    state_.view.workspace_requests_shown = state_.view.workspace_requests;
  }

  // Brings one of the current lesson's own tabs to the front.
  void show_lesson_tab(std::string_view id) override;
  // The current lesson's own views (tabs, the picture beside the mapping view, picking).
  [[nodiscard]] const LessonViews& views() const;
  // The current lesson's live work (LessonViews::make_live), or null.
  [[nodiscard]] LessonLiveWork* lesson_live() override { return live_.get(); }
  // For a lesson's live work: the device the lessons run on (valid until it stops, see
  // LessonLiveWork), the backend's sink into a class map (interop, copy or upload), and whether
  // the device may be used now (no measurement runs).
  [[nodiscard]] compute::Device& lesson_device() override { return device(); }
  [[nodiscard]] std::unique_ptr<compute::FloatSink> make_class_map_sink(
      render::ClassMap& map, std::optional<BackendKind> kind = std::nullopt) const override;
  // A view by the name a lesson link or a demo uses: the window's tabs, or the lesson's own.
  Status show_view(const std::string& name) { return router_.show_view(name); }
  void hover(std::optional<PixelPoint> pixel, Viewport viewport);
  void zoom(double factor, double pixel_x, double pixel_y) {
    mapping_->zoom(factor, pixel_x, pixel_y);
  }
  void pan(double dx, double dy) { mapping_->pan(dx, dy); }
  void fit_view() { mapping_->fit(); }
  // Draws the current trace into the renderer's texture at this size; returns the GL texture name.
  Result<std::uint32_t> render_mapping(Viewport viewport);
  // The records the mapping view draws (read back one by one: for tests and hover tooltips).
  [[nodiscard]] const render::TraceBuffer& trace_buffer() const { return trace_buffer_; }

  // The embedded text of a kernel source for the lesson panel, e.g.
  // "lessons/01_vector_add/kernels/vector_add.cuh".
  [[nodiscard]] std::optional<std::string> embedded_source(const std::string& path) const;

  // Once per frame: collects background results and progress.
  void update();

  // The class on the network (class_session.hpp): host one from this window, join one, leave it.
  // update() runs it each frame. Hosting fails where the port is taken (the message says so);
  // joining never fails here: the session reconnects by itself and says why it cannot.
  Status host_class(net::ClassServerOptions options);
  void join_class(net::ClassClientOptions options);
  void leave_class();
  [[nodiscard]] ClassSession* class_session() { return class_.get(); }
  [[nodiscard]] const ClassSession* class_session() const { return class_.get(); }

  void post(Severity severity, std::string text) override {
    post_message(state_, severity, std::move(text));
  }

 private:
  AppController() = default;
  compute::Lesson& lesson() { return launches_->lesson(); }
  [[nodiscard]] const compute::Lesson& lesson() const { return launches_->lesson(); }
  compute::Device& device() { return launches_->device(); }
  Status initialize(const ControllerOptions& options);
  void load_lesson_text();
  // Makes `id` the current lesson without launching it; false when it already is or cannot be.
  bool switch_lesson(const std::string& id) override;
  void refresh_controls();
  // The lesson's live work (training) holds the device: a launch or a sweep waits, and says so.
  bool live_work_holds_device();
  // The current lesson's live work: made when it opens, dropped when it closes or the device goes.
  void open_lesson_live();
  // Classroom mode's helpers (app_controller_classroom.cpp).
  void load_steps();
  void apply_step(std::size_t index);
  void go_to_lesson_step(const std::string& lesson_id, bool at_last_step);
  void stop_background_work();
  void advance_demo_when_due();
  // The runner's work in words, for the switch offer: "the timed run of ...", "a sweep".
  [[nodiscard]] std::string running_work() const;
  // Offers to cancel the running measurements for lesson `id` (and the link being followed).
  void offer_switch(const std::string& id);
  // An accepted offer whose run has stopped: the lesson opens (or the link is followed).
  void switch_when_stopped();
  // The background runner's news: the launches' or the sweep's (`running`: as the frame began).
  void collect_runner(bool running);

  // What links and demo steps reach through the router (ActionTarget), beyond the public commands.
  [[nodiscard]] const DeviceInfo& action_device() const override { return state_.device; }
  [[nodiscard]] const std::string& current_lesson_id() const override {
    return state_.controls.lesson_id;
  }
  [[nodiscard]] bool has_lesson_tab(std::string_view id) const override;
  void sweep_after_picture(SweepKind kind) override;
  bool open_exercise(const std::string& id) override;
  Status load_submission(const std::string& name) override { return lab_->load_known_wrong(name); }
  std::string set_lab_grid(const std::string& text) override {
    lab_->set_grid(text);
    return lab_->state().grid_problem;
  }
  bool run_in_lab() override { return lab_->run(); }
  bool check_in_lab() override { return lab_->check(); }

  // What the launches tell the window (LaunchCoordinator::Host).
  void release_device() override { live_.reset(); }
  void device_back() override { open_lesson_live(); }
  void device_replaced() override;
  void picture_replaced() override { mapping_->fit(); }
  void ceilings_changed() override { results_->refresh_plot(); }

  AppState state_;
  render::TraceBuffer trace_buffer_;  // outlives the launches, whose session writes into it
  std::unique_ptr<MappingViewController> mapping_;  // moves state_.view.camera
  std::unique_ptr<LaunchCoordinator> launches_;
  std::unique_ptr<ResultsModel> results_;  // uses launches_, so it goes first
  ActionRouter router_{*this};
  std::unique_ptr<LabController> lab_;
  std::unique_ptr<LessonMemoryController> memory_;
  CompiledViewController compiled_;
  std::unique_ptr<LessonLiveWork> live_;  // the lesson's background work; reset before launches_
  std::optional<CaptureRequest> capture_;
  // The lesson link being followed (apply_lesson_action), for a switch offer to follow it again.
  std::string following_link_;
  std::unique_ptr<ClassSession> class_;  // none outside a class
};

}  // namespace tl::ui
