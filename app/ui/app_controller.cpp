#include "app_controller.hpp"

#include <algorithm>
#include <chrono>

#include "class_session.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/lessons/device_placeholders.hpp"
#include "interop/class_map_sink.hpp"
#include "lab/exercise_registry.hpp"
#include "lesson_texts.hpp"

namespace tl::ui {

Result<std::unique_ptr<AppController>> AppController::create(const ControllerOptions& options) {
  std::unique_ptr<AppController> controller(new AppController());
  TL_RETURN_IF_ERROR(controller->initialize(options));
  return controller;
}

AppController::~AppController() {
  class_.reset();  // its threads end before the window they post to
  live_.reset();   // its background work holds the session's device
}

Status AppController::host_class(net::ClassServerOptions options) {
  class_.reset();
  auto session = ClassSession::host(std::move(options));
  if (!session) return session.status();
  class_ = std::move(*session);
  post(Severity::kInfo, class_->status_line());
  return {};
}

void AppController::join_class(net::ClassClientOptions options) {
  class_.reset();
  class_ = ClassSession::join(std::move(options));
  post(Severity::kInfo, class_->status_line());
}

void AppController::leave_class() {
  if (!class_) return;
  class_.reset();
  post(Severity::kInfo, "Left the class.");
}

void AppController::open_lesson_live() {
  live_.reset();
  if (const auto make = views().make_live; make != nullptr) live_ = make(*this);
}

std::unique_ptr<compute::FloatSink> AppController::make_class_map_sink(
    render::ClassMap& map, std::optional<BackendKind> kind) const {
  return interop::make_class_map_sink(kind.value_or(state_.backend), map);
}

Status AppController::initialize(const ControllerOptions& options) {
  // The lesson the class was on last time; the first one where that is gone or unknown.
  auto launches = LaunchCoordinator::open(options.backend, trace_buffer_, options.ceilings_cache,
                                          options.settings.last_lesson.empty()
                                              ? compute::first_lesson_id()
                                              : std::string_view(options.settings.last_lesson),
                                          state_, *this);
  if (!launches) return launches.error();
  launches_ = std::move(*launches);
  results_ = std::make_unique<ResultsModel>(state_, *launches_);
  state_.gl_renderer = options.gl_renderer;
  auto mapping = MappingViewController::create(state_.view.camera);
  if (!mapping) return mapping.error();
  mapping_ = std::move(*mapping);
  state_.classroom.presenter_scale = options.settings.presenter_scale;
  state_.classroom.theme = options.settings.theme;
  load_lesson_text();
  refresh_controls();
  auto lab = LabController::create(options.lab);
  if (!lab) return lab.error();
  lab_ = std::move(*lab);
  memory_ = std::make_unique<LessonMemoryController>(options.memory);
  lab_->set_lesson(state_.controls.lesson_id, is_gpu(state_.backend));
  open_lesson_live();
  // No start-up message naming the backend: the status bar shows it, with its reason, for good.
  launch();
  return Status::ok();
}

void AppController::load_lesson_text() {
  state_.lesson = {};
  const lessons::LessonInfo& info = lesson().info();
  const std::string path = "lessons/" + std::string(info.folder) + "/lesson.md";
  const auto text = lesson_texts::find_text(path);
  if (!text) {
    state_.lesson.error = "the lesson text " + path + " is missing from this build";
    return;
  }
  auto document = markdown::parse(*text);
  if (!document) {
    state_.lesson.error = path + ": " + document.message();
    return;
  }
  // Figures such as {{device.sm_count}} come from the device the lesson runs on.
  for (const std::string& problem : lessons::fill_document_placeholders(*document, device().info()))
    post(Severity::kError, path + ", " + problem);
  state_.lesson.document = std::move(*document);
  state_.lesson.title = state_.lesson.document.title();
  load_steps();
}

std::optional<std::string> AppController::embedded_source(const std::string& path) const {
  auto text = lesson_texts::find_text(path);
  if (!text) return std::nullopt;
  return std::string(*text);
}

void AppController::refresh_controls() {
  LaunchControls& c = state_.controls;
  c.lesson_id = std::string(lesson().info().id);
  const auto specs = lesson().params();
  c.specs.assign(specs.begin(), specs.end());
  c.values = lesson().values();
  c.presets = lesson().presets();
  c.unavailable = lesson().unavailable_params(device());
  c.resolved = lesson().launch_config();
  c.shape = lesson().data_shape();
  c.elements_per_thread = lesson().elements_per_thread();
  c.grid_diagram =
      make_grid_diagram(c.resolved, lesson().thread_coverage(), state_.device.limits.warp_size);
  state_.launch_problems = validate(c.resolved, state_.device.limits);
  results_->refresh_occupancy();
}

namespace {

std::span<const lessons::EmulatorNote> emulator_notes_of(const AppState& state) {
  if (is_gpu(state.backend)) return {};
  const compute::LessonModule* module = compute::find_lesson_module(state.controls.lesson_id);
  return module == nullptr ? std::span<const lessons::EmulatorNote>{} : module->emulator_notes;
}

}  // namespace

const lessons::EmulatorNote* AppController::lesson_emulator_note() const {
  return lessons::lesson_emulator_note(emulator_notes_of(state_));
}

const lessons::EmulatorNote* AppController::step_emulator_note() const {
  const ClassroomState& classroom = state_.classroom;
  const auto current = classroom.cursor.current();
  if (!current || *current >= classroom.steps.size()) return nullptr;
  return lessons::emulator_note_for(emulator_notes_of(state_), classroom.steps[*current].section);
}

void AppController::select_lesson(const std::string& id) {
  following_link_.clear();
  if (switch_lesson(id)) launch();
}

std::string AppController::running_work() const {
  if (launches_->runner_work() == RunnerWork::kSweep) return "a sweep";
  if (state_.tracing.running)
    return "the traced launch of " + describe_launch(state_.tracing.launched);
  if (state_.timed.pending) return "the timed run of " + describe_launch(state_.timed.launched);
  return "measurements";
}

void AppController::offer_switch(const std::string& id) {
  const compute::LessonModule* module = compute::find_lesson_module(id);
  if (module == nullptr) {
    post(Severity::kError, "unknown lesson '" + id + "'");
    return;
  }
  // A second request while one is offered replaces it; one being accepted keeps its run stopping.
  const bool cancelling = state_.switch_offer && state_.switch_offer->cancelling;
  state_.switch_offer = LessonSwitchOffer{id, std::string(module->info.title), following_link_,
                                          running_work(), cancelling};
}

void AppController::accept_switch_offer() {
  if (!state_.switch_offer) return;
  state_.switch_offer->cancelling = true;
  // Not stop_and_wait: the window keeps drawing while the run stops (update() switches then).
  launches_->cancel();
  switch_when_stopped();
}

void AppController::switch_when_stopped() {
  if (!state_.switch_offer || !state_.switch_offer->cancelling || launches_->runner_running())
    return;
  const LessonSwitchOffer offer = std::move(*state_.switch_offer);
  state_.switch_offer.reset();
  // The cancelled run's results first (its "Cancelled" line), then the new lesson.
  collect_runner(false);
  if (offer.link.empty()) {
    select_lesson(offer.lesson_id);
  } else {
    apply_lesson_action(offer.link);
  }
}

bool AppController::switch_lesson(const std::string& id) {
  if (id == state_.controls.lesson_id) return false;
  if (launches_->runner_running()) {
    offer_switch(id);
    return false;
  }
  state_.switch_offer.reset();
  live_.reset();  // the old lesson's background work ends with it
  if (const Status opened = launches_->open_lesson(id); !opened) {
    post(Severity::kError, opened.message());
    open_lesson_live();
    return false;
  }
  load_lesson_text();
  refresh_controls();
  state_.timing = {};
  state_.timed = {};
  // The switch stays, the counts go.
  const bool counters_enabled = state_.counters.enabled;
  state_.counters = HardwareCounterReading{};
  state_.counters.enabled = counters_enabled;
  state_.lesson_picture.reset();
  state_.lesson_pick.reset();
  lab_->set_lesson(state_.controls.lesson_id, is_gpu(state_.backend));
  open_lesson_live();
  // A lesson may open on a tab of its own (the dense layer on its picture: the weights and outputs
  // are what that lesson is about).
  if (const std::string_view tab = views().opens_on; !tab.empty()) show_lesson_tab(tab);
  return true;
}

bool AppController::set_params(const lessons::ParamValues& values) {
  const Status configured = lesson().configure(values);
  if (!configured) {
    post(Severity::kWarning, configured.message());
    return false;
  }
  refresh_controls();
  return true;
}

void AppController::fit_link_values(lessons::ParamValues& values) {
  const auto scaled = launches_->session().fit_link_values(values);
  if (scaled.empty()) return;
  std::string what;
  for (const auto& value : scaled) {
    what += (what.empty() ? "" : ", ") + value.name + "=" + value.asked + " runs as " + value.name +
            "=" + value.runs;
  }
  post(Severity::kInfo, "On the CPU emulator this link's " + what +
                            ": the GPU's size would take minutes here (a GPU runs the link as "
                            "written; set the size yourself to choose)");
}

void AppController::apply_preset(std::size_t index) {
  if (index < state_.controls.presets.size()) set_params(state_.controls.presets[index].values);
}

void AppController::wait_until_idle(std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  // Collecting may start more work (a sweep link's sweep after its background trace): wait for
  // that too.
  do {
    launches_->wait_for_runner(deadline);
    update();
  } while (busy() && std::chrono::steady_clock::now() < deadline);
  // A Lab check a link started (a screenshot of its verdict) is waited for too.
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  if (lab_->checking()) lab_->wait_for_check(std::max(left, std::chrono::milliseconds(0)));
  // So is the Memory tab's recording (a screenshot of the tab).
  if (memory_->recording()) {
    memory_->wait(std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                               deadline - std::chrono::steady_clock::now()),
                           std::chrono::milliseconds(0)));
  }
  update();
}

bool AppController::live_work_holds_device() {
  if (!live_ || !live_->busy()) return false;
  post(Severity::kWarning, "Training runs in the background on this device; pause it first.");
  return true;
}

bool AppController::wants_frames() const {
  if (busy() || lab_->checking() || memory_->recording() || (live_ && live_->busy())) return true;
  if (state_.switch_offer && state_.switch_offer->cancelling) return true;
  // A presenter's change held back (a slider dragged) is published a moment later, with or
  // without input then.
  if (class_ && class_->publish_pending()) return true;
  const ClassroomState& c = state_.classroom;
  return c.demo && c.demo->index && !c.demo->paused && c.demo->timed_advance &&
         c.demo->script.steps[*c.demo->index].wait_seconds.has_value();
}

bool AppController::can_launch() const {
  return !busy() && !(live_ && live_->busy());
}

void AppController::device_replaced() {
  state_.device = device().info();
  // The lesson text's device figures now describe the new device (links are filled when applied).
  const std::string path = "lessons/" + std::string(lesson().info().folder) + "/lesson.md";
  if (auto text = lesson_texts::find_text(path)) {
    if (auto document = markdown::parse(*text)) {
      lessons::fill_document_placeholders(*document, device().info());
      state_.lesson.document = std::move(*document);
    }
  }
  results_->forget_kernel_resources();
  refresh_controls();
  lab_->set_gpu_backend(is_gpu(state_.backend));
}

void AppController::launch(bool timed) {
  if (live_work_holds_device()) return;
  if (!can_launch()) {
    post(Severity::kWarning,
         "Measurements are running in the background; wait, or Cancel them beside their "
         "progress bar.");
    return;
  }
  launches_->launch(timed);
}

void AppController::start_sweep(SweepKind kind) {
  if (live_work_holds_device()) return;
  results_->start_sweep(kind);
}

void AppController::sweep_after_picture(SweepKind kind) {
  if (launches_->tracing_in_background()) {
    launches_->sweep_after_picture(kind);
  } else {
    start_sweep(kind);
  }
}

void AppController::update() {
  const bool running = launches_->runner_running();
  collect_runner(running);
  // An offer to switch lesson that was accepted: once the run has stopped. One whose run ended by
  // itself meanwhile needs no question any more.
  if (state_.switch_offer && !running) {
    if (!state_.switch_offer->cancelling) state_.switch_offer->cancelling = true;
    switch_when_stopped();
  }
  if (live_) live_->update(*this);
  // A sweep link's sweep, once its picture is drawn and the runner is free.
  if (const auto kind = launches_->take_due_sweep()) start_sweep(*kind);
  lab_->update();
  memory_->update();
  results_->refresh_roofline();
  advance_demo_when_due();
  if (class_) class_->update(*this);
}

void AppController::collect_runner(bool running) {
  if (launches_->runner_work() == RunnerWork::kLaunch) {
    launches_->collect(running);
  } else {
    results_->collect_sweep(running);
  }
}

void AppController::apply_lesson_action(const std::string& link) {
  following_link_ = link;
  const bool followed = router_.follow_link(link);
  following_link_.clear();
  if (!followed) return;
  // A click on a step's link is a move to that step: the clicker goes on from there.
  const auto& steps = state_.classroom.steps;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].action == link) {
      state_.classroom.cursor.go_to(i);
      break;
    }
  }
}

bool AppController::has_lesson_tab(std::string_view id) const {
  const auto& tabs = views().tabs;
  return std::any_of(tabs.begin(), tabs.end(), [&](const LessonTab& tab) { return tab.id == id; });
}

bool AppController::open_exercise(const std::string& id) {
  if (lab::find_exercise(id) == nullptr) return false;
  lab_->select_exercise(id);
  return true;
}

void AppController::pick_hovered_element() {
  // Clicks in lessons without a use for a picked element pick nothing, silently.
  if (views().pick_element == nullptr || !state_.view.hover ||
      !state_.view.hover->hit.is_element()) {
    return;
  }
  pick_element(state_.view.hover->hit.row, state_.view.hover->hit.col);
}

void AppController::pick_element(std::uint64_t row, std::uint64_t col) {
  const auto pick = views().pick_element;
  if (pick == nullptr) {
    post(Severity::kWarning,
         "Picking an element means nothing in " + std::string(lesson().info().title) + ".");
    return;
  }
  if (row >= state_.controls.shape.rows || col >= state_.controls.shape.cols) {
    post(Severity::kWarning,
         "(" + std::to_string(row) + ", " + std::to_string(col) + ") is outside the data");
    return;
  }
  pick(*this, row, col);
}

const LessonViews& AppController::views() const {
  return lesson_views(lesson().info());
}

void AppController::show_lesson_tab(std::string_view id) {
  state_.view.lesson_tab = std::string(id);
  show_results(ResultsTab::kLesson);
}

void AppController::show_workspace(Workspace workspace) {
  state_.view.workspace = workspace;
  ++state_.view.workspace_requests;
}

void AppController::show_results(ResultsTab tab) {
  state_.view.results_tab = tab;
  ++state_.view.results_tab_requests;
}

void AppController::hover(std::optional<PixelPoint> pixel, Viewport viewport) {
  std::optional<HoverInfo>& hover = state_.view.hover;
  if (!state_.trace.valid) {
    hover.reset();
    return;
  }
  const HoverChange change =
      mapping_->hover_change(state_.trace.layout, pixel, viewport, hover ? &hover->hit : nullptr);
  if (change.kind == HoverChange::Kind::kNoCell) {
    hover.reset();
    return;
  }
  // Reading a record back from the GPU stalls the pipeline: only when the mouse reaches a new cell.
  if (change.kind == HoverChange::Kind::kSameCell) return;
  HoverInfo info;
  info.hit = change.hit;
  if (info.hit.is_element()) {
    auto record = trace_buffer_.read(info.hit.cell);
    if (record) {
      info.record = decode(*record, info.hit.cell, state_.trace.shape, state_.trace.config,
                           state_.device.limits.warp_size);
    }
  }
  hover = info;
}

Result<std::uint32_t> AppController::render_mapping(Viewport viewport) {
  if (viewport.width <= 0 || viewport.height <= 0) return invalid_argument("empty view");
  if (!state_.trace.valid) {
    return invalid_argument(state_.trace.error.empty() ? "nothing launched yet"
                                                       : state_.trace.error);
  }
  render::MappingView view;
  view.layout = state_.trace.layout;
  view.launch = state_.trace.config;
  view.warp_size = state_.device.limits.warp_size;
  view.color_by = state_.view.color_by;
  if (state_.view.hover) view.highlighted_cell = state_.view.hover->hit.cell;
  return mapping_->render(trace_buffer_, view, viewport);
}

}  // namespace tl::ui
