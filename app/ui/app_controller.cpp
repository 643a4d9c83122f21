#include "app_controller.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include "compute/ceilings.hpp"
#include "compute/hardware_counters.hpp"
#include "compute/lessons/lesson_series.hpp"
#include "compute/lessons/roofline_inputs.hpp"
#include "core/backend_fallback.hpp"
#include "core/format.hpp"
#include "core/lessons/device_placeholders.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/plot/ceiling_notes.hpp"
#include "core/plot/tick_format.hpp"
#include "core/timing/row_label.hpp"
#include "core/work_watch.hpp"
#include "interop/class_map_sink.hpp"
#include "interop/gl_trace_sink.hpp"
#include "lab/exercise_registry.hpp"
#include "lesson_texts.hpp"
#include "series_style.hpp"

namespace tl::ui {

constexpr std::size_t kMaxMessages = 50;
constexpr std::size_t kMaxEarlierSeries = 16;

// The result slot of a single timed launch, filled by the background job.
struct AppController::PendingRun {
  std::mutex mutex;
  std::optional<Result<compute::LessonReport>> result;
  std::optional<Result<DeviceCeilings>> ceilings;
  std::string ceilings_warning;
  std::optional<Result<std::vector<CountedKernel>>> counters;
};

Result<std::unique_ptr<AppController>> AppController::create(const ControllerOptions& options) {
  std::unique_ptr<AppController> controller(new AppController());
  TL_RETURN_IF_ERROR(controller->initialize(options));
  return controller;
}

AppController::~AppController() {
  live_.reset();  // its background work holds the session's device
  runner_.cancel();
  runner_.wait();
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
  auto session = interop::LaunchSession::open(options.backend, &trace_buffer_);
  if (!session) return session.error();
  session_ = std::move(*session);
  ceilings_cache_ = options.ceilings_cache;
  state_.backend = session_->backend();
  state_.backend_reason = session_->backend_reason();
  state_.device = device().info();
  state_.gl_renderer = options.gl_renderer;
  auto renderer = render::MappingRenderer::create();
  if (!renderer) return renderer.error();
  renderer_ = std::move(*renderer);
  state_.classroom.presenter_scale = options.settings.presenter_scale;
  state_.classroom.theme = options.settings.theme;
  // The lesson the class was on last time; the first one where that is gone or unknown.
  auto opened = session_->select_lesson(options.settings.last_lesson.empty()
                                            ? compute::first_lesson_id()
                                            : std::string_view(options.settings.last_lesson));
  if (!opened) opened = session_->select_lesson(compute::first_lesson_id());
  if (!opened) return opened.error();
  lesson().set_keep_traced_inputs(true);  // released before the device is reset or replaced
  load_lesson_text();
  refresh_controls();
  auto lab = LabController::create(options.lab);
  if (!lab) return lab.error();
  lab_ = std::move(*lab);
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

void AppController::post(Severity severity, std::string text) {
  state_.messages.push_back({severity, std::move(text)});
  while (state_.messages.size() > kMaxMessages) state_.messages.pop_front();
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
  refresh_occupancy();
}

void AppController::refresh_occupancy() {
  OccupancyView& view = state_.controls.occupancy;
  view = {};
  const auto kernel = lesson().occupancy_kernel();
  if (!kernel) {
    view.unavailable = "This path runs cuBLAS's own kernels, which ThreadLab cannot inspect.";
    return;
  }
  view.kernel = *kernel;
  KernelResources resources;
  if (can_compute_occupancy(device().info())) {
    auto cached = kernel_resources_.find(*kernel);
    if (cached == kernel_resources_.end()) {
      auto read = device().kernel_resources(*kernel);
      if (!read) {
        view.unavailable = read.message();
        return;
      }
      cached = kernel_resources_.emplace(*kernel, *read).first;
    }
    resources = cached->second;
    view.device = device().info();
  } else {
    // No SMs to fill and no compiler output to read: the chosen reference GPU's published limits,
    // with the kernel's registers and shared memory as the user assumes them.
    const OccupancyModelChoice& choice = state_.controls.occupancy_model;
    const ReferenceGpu gpu = find_reference_gpu(choice.gpu).value_or(reference_gpus().front());
    view.device = reference_device_info(gpu);
    view.model_label = occupancy_model_label(gpu);
    resources.registers_per_thread = choice.registers_per_thread;
    resources.static_shared_bytes = choice.shared_bytes_per_block;
  }
  view.resources = resources;
  const std::uint64_t threads = state_.controls.resolved.block.volume();
  view.current =
      compute_occupancy(view.device, resources,
                        static_cast<std::uint32_t>(std::min<std::uint64_t>(threads, 1u << 20)));
  view.limit_reason = describe_limit(view.current, view.device);
  view.by_block_size = occupancy_by_block_size(view.device, resources);
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

void AppController::set_occupancy_model(const OccupancyModelChoice& choice) {
  if (!find_reference_gpu(choice.gpu)) {
    post(Severity::kError, "No reference GPU named '" + choice.gpu + "'");
    return;
  }
  if (choice.registers_per_thread < 1 || choice.registers_per_thread > kMaxRegistersPerThread) {
    post(Severity::kError, "Registers per thread must be 1 to " +
                               std::to_string(kMaxRegistersPerThread) + ", not " +
                               std::to_string(choice.registers_per_thread));
    return;
  }
  state_.controls.occupancy_model = choice;
  refresh_occupancy();
}

void AppController::select_lesson(const std::string& id) {
  if (switch_lesson(id)) launch();
}

bool AppController::switch_lesson(const std::string& id) {
  if (id == state_.controls.lesson_id) return false;
  if (runner_.is_running()) {
    post(Severity::kWarning,
         "Measurements are running in the background; wait or cancel them first.");
    return false;
  }
  live_.reset();  // the old lesson's background work ends with it
  auto opened = session_->select_lesson(id);
  if (!opened) {
    post(Severity::kError, opened.message());
    open_lesson_live();
    return false;
  }
  lesson().set_keep_traced_inputs(true);
  load_lesson_text();
  refresh_controls();
  state_.timing = {};
  state_.timed = {};
  state_.counters = {.enabled = state_.counters.enabled};  // the switch stays, the counts go
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

void AppController::set_param(const std::string& name, const std::string& value) {
  set_params({{name, value}});
}

void AppController::apply_preset(std::size_t index) {
  if (index < state_.controls.presets.size()) set_params(state_.controls.presets[index].values);
}

void AppController::wait_until_idle(std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  // Collecting may start more work (a sweep link's sweep after its background trace): wait for
  // that too.
  do {
    while (runner_.is_running() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    update();
  } while (busy() && std::chrono::steady_clock::now() < deadline);
  // A Lab check a link started (a screenshot of its verdict) is waited for too.
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  if (lab_->checking()) lab_->wait_for_check(std::max(left, std::chrono::milliseconds(0)));
  update();
}

bool AppController::can_launch() const {
  return !busy() && !(live_ && live_->busy());
}

void AppController::handle_device_error(const Error& error) {
  if (error.kind != ErrorKind::kCudaStickyError) return;
  // Background jobs hold the device: stop them before touching it. What they reported since is the
  // same fault seen again by every job after it: one fault, one reset, one message.
  runner_.cancel();
  runner_.wait();
  (void)runner_.take_new_points();
  (void)runner_.take_new_failures();
  state_.timing.sweeping = false;
  state_.timed.pending = false;
  live_.reset();  // its memory lives on the device about to be reset or replaced
  pending_trace_.reset();
  sweep_after_trace_.reset();
  state_.tracing = {};
  const auto recovery = session_->recover_from_device_error(error);
  open_lesson_live();
  state_.backend = session_->backend();
  state_.backend_reason = session_->backend_reason();
  if (recovery.moved_to_emulator) {
    // The emulator took over: its device, limits and ceilings replace the GPU's.
    on_device_replaced();
    post(Severity::kError, recovery.message);
    return;
  }
  post(Severity::kWarning, recovery.message);
}

void AppController::on_device_replaced() {
  state_.device = device().info();
  // The lesson text's device figures now describe the new device (links are filled when applied).
  const std::string path = "lessons/" + std::string(lesson().info().folder) + "/lesson.md";
  if (auto text = lesson_texts::find_text(path)) {
    if (auto document = markdown::parse(*text)) {
      lessons::fill_document_placeholders(*document, device().info());
      state_.lesson.document = std::move(*document);
    }
  }
  state_.ceilings.reset();
  ceilings_requested_ = false;
  kernel_resources_.clear();
  refresh_controls();
  lab_->set_gpu_backend(is_gpu(state_.backend));
}

void AppController::launch(bool timed) {
  if (live_ && live_->busy()) {
    post(Severity::kWarning, "Training runs in the background on this device; pause it first.");
    return;
  }
  if (!can_launch()) {
    post(Severity::kWarning,
         "Measurements are running in the background; wait or cancel them first.");
    return;
  }
  const LaunchControls& c = state_.controls;
  // The timing table describes one configuration: a launch of another one without timing (a
  // sweep link's picture) leaves it empty rather than showing the old numbers beside the new
  // picture.
  for (const auto& problem : state_.launch_problems) {
    post(Severity::kWarning, "Launching " + c.config().to_string() + " anyway: " + problem.message);
  }
  // A trace the emulator takes seconds over runs in the background, with a progress bar and
  // Cancel, so the window keeps drawing; the picture before it stays until it is done. One it
  // refuses (the watchdog, the size limit) goes the way below, which says why.
  if (session_->traces_in_background()) {
    auto prepared = session_->prepare_background_trace();
    if (prepared) {
      start_background_trace(std::move(*prepared), timed);
      return;
    }
  }
  if (!timed && (state_.timed.n != c.elements() || state_.timed.config != c.config())) {
    state_.timed = {};
  }
  TraceView& trace = begin_trace_view(LaunchedWith::from(c));

  // A kernel that could outlast a display's watchdog is refused: it would take the GPU context
  // (and for seconds the desktop) with it.
  if (const Status safe = session_->check_watchdog(); !safe) {
    trace.error = safe.message();
    post(Severity::kError, safe.message());
    return;
  }
  if (trace.n > interop::kMaxTracedElements) {
    lesson().release_device_data();  // a size that is only timed needs the memory
    trace.error = "The picture shows up to 2^24 elements; " + format_count(trace.n) +
                  " are timed but not drawn.";
  } else {
    const auto traced_start = std::chrono::steady_clock::now();
    auto traced = session_->trace();
    // The launch alone, as before the session counted the records in the same call: the frame
    // benchmark reads it (a failed launch has no count, so its whole call is the launch).
    trace.traced_milliseconds = traced ? traced->launch_milliseconds
                                       : std::chrono::duration<double, std::milli>(
                                             std::chrono::steady_clock::now() - traced_start)
                                             .count();
    show_traced(std::move(traced));
  }
  if (timed) start_timed_run();
}

TraceView& AppController::begin_trace_view(const LaunchedWith& launched) {
  TraceView& trace = state_.trace;
  const std::uint64_t launch_number = trace.launch_number + 1;
  trace = {};
  trace.launch_number = launch_number;
  trace.n = launched.shape.elements();
  trace.shape = launched.shape;
  trace.config = launched.config;
  trace.launched = launched;
  state_.view.hover.reset();
  state_.lesson_pick.reset();  // it named an element of the previous launch's data
  return trace;
}

void AppController::show_traced(Result<interop::TracedOutcome> traced) {
  TraceView& trace = state_.trace;
  // The trace path may have fallen back (interop → copy) on the way: say why.
  if (session_->backend() != state_.backend) {
    state_.backend = session_->backend();
    state_.backend_reason = session_->backend_reason();
    post(Severity::kWarning, state_.backend_reason);
  }
  if (!traced) {
    trace.error = traced.message();
    post(Severity::kError, traced.message());
    handle_device_error(traced.error());
    // A launch that CUDA (or the emulator, as CUDA would) refused wrote nothing: show the
    // elements as they are, all unwritten. A request refused before launching (too slow for the
    // emulator, out of memory) has no picture, only its message.
    const ErrorKind kind = traced.error().kind;
    if (kind == ErrorKind::kCudaError || kind == ErrorKind::kCudaStickyError) {
      trace.valid = trace_buffer_.clear(trace.n).is_ok();
      trace.unwritten = trace.n;
    }
  } else {
    trace.valid = true;
    // Draw and decode by what ran: the records' blockIdx and threadIdx unfold by the launch's
    // grid and block, and the dense layer's fast kernels launch with their own.
    trace.config = traced->launch.config;
    trace.check = traced->launch.check;
    trace.blocks = std::move(traced->launch.blocks);
    if (!trace.blocks.empty()) trace.timeline = lessons::build_block_timeline(trace.blocks);
    trace.unwritten = traced->counts.unwritten;
    trace.written_more = traced->counts.written_more;
    trace.idle_threads = traced->counts.idle_threads;
  }
  if (trace.valid) {
    // 1D data wraps into rows with the idle threads after it; 2D data is drawn as its matrix.
    auto layout = trace.shape.rows > 1 ? layout_2d(trace.shape.rows, trace.shape.cols)
                                       : layout_1d(trace.n, trace.config.total_threads());
    if (layout) {
      trace.layout = *layout;
      state_.view.fit_pending = true;
      state_.view.follow_fit = true;
    } else {
      trace.valid = false;
      trace.error = layout.message();
    }
  }
}

void AppController::start_background_trace(std::unique_ptr<interop::BackgroundTrace> prepared,
                                           bool timed) {
  auto pending = std::make_shared<PendingTrace>();
  pending->trace = std::move(prepared);
  pending->launched = LaunchedWith::from(state_.controls);
  std::vector<SweepJob> jobs;
  jobs.push_back({"tracing " + pending->launched.config.to_string(),
                  [pending](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
                    pending->watch.cancel = &cancel;
                    pending->trace->run(pending->watch);
                    pending->ran.store(true, std::memory_order_release);
                    return SweepPoint{};  // the outcome waits in `pending` for the UI thread
                  }});
  // The timed run follows on the same thread (jobs run in order); its table replaces the old one
  // only once the picture does, so a Cancel leaves both as they were.
  if (timed) {
    const bool ceilings_were_requested = ceilings_requested_;
    TimedRun next;
    if (auto job = make_timed_job(next)) {
      jobs.push_back(std::move(*job));
      pending->asked_for_ceilings = !ceilings_were_requested;
    }
    pending->timed = std::move(next);
  }
  runner_is_single_launch_ = true;
  const Status started = runner_.start(std::move(jobs));
  if (!started) {
    post(Severity::kError, started.message());
    return;
  }
  pending_trace_ = std::move(pending);
  state_.tracing = {};
  state_.tracing.running = true;
  state_.tracing.launched = pending_trace_->launched;
}

void AppController::cancel_launch() {
  sweep_after_trace_.reset();
  runner_.cancel();
}

void AppController::collect_background_trace(bool running) {
  if (!pending_trace_) return;
  state_.tracing.fraction = pending_trace_->watch.fraction();
  const bool ran = pending_trace_->ran.load(std::memory_order_acquire);
  if (!ran && running) return;
  const std::shared_ptr<PendingTrace> pending = std::move(pending_trace_);
  pending_trace_.reset();
  state_.tracing = {};
  auto outcome = ran ? session_->finish_background_trace(*pending->trace)
                     : Result<interop::TracedOutcome>(Error{ErrorKind::kCancelled, "cancelled"});
  if (!outcome && outcome.error().kind == ErrorKind::kCancelled) {
    // Nothing changed: the picture and the table are the earlier launch's, and say so once the
    // fields differ from it.
    if (pending->asked_for_ceilings && !state_.ceilings) ceilings_requested_ = false;
    sweep_after_trace_.reset();  // a Cancel stops the link's sweep too
    post(Severity::kInfo,
         "Cancelled " + describe_launch(pending->launched) +
             (state_.trace.valid ? ": the picture is still the earlier launch's" : ""));
    return;
  }
  TraceView& trace = begin_trace_view(pending->launched);
  trace.traced_milliseconds = outcome ? outcome->launch_milliseconds : 0.0;
  if (pending->timed) {
    state_.timed = std::move(*pending->timed);
  } else if (state_.timed.n != pending->launched.shape.elements() ||
             state_.timed.config != pending->launched.config) {
    state_.timed = {};  // as launch() does for an untimed launch of another configuration
  }
  show_traced(std::move(outcome));
}

void AppController::start_timed_run() {
  TimedRun next;
  auto job = make_timed_job(next);
  state_.timed = std::move(next);
  if (!job) return;
  runner_is_single_launch_ = true;
  const Status started = runner_.start({std::move(*job)});
  if (!started) {
    state_.timed.pending = false;
    state_.timed.error = started.message();
  }
}

std::optional<SweepJob> AppController::make_timed_job(TimedRun& timed) {
  timed = {};
  timed.pending = true;
  timed.n = state_.controls.elements();
  timed.config = state_.controls.config();
  timed.launched = LaunchedWith::from(state_.controls);
  pending_run_ = std::make_shared<PendingRun>();
  auto slot = pending_run_;
  compute::Device* device = &session_->device();
  // The job owns a lesson of its own, configured like the current one, so the UI may change the
  // controls while it runs.
  auto copy = session_->copy_lesson();
  if (!copy) {
    timed.pending = false;
    timed.error = "could not prepare the timed run: " + copy.message();
    return std::nullopt;
  }
  std::shared_ptr<compute::Lesson> job_lesson(std::move(*copy));
  // The first timed run also measures the device's ceilings (about a second on a GPU, once per
  // device thanks to the cache), before the lesson's own timings so they do not share the GPU.
  const bool measure_ceilings = !ceilings_requested_;
  ceilings_requested_ = true;
  const auto cache = ceilings_cache_;
  // Counters after the timings, never among them: reading them replays each kernel.
  const bool read_counters =
      state_.counters.enabled && compute::counting_lesson(*job_lesson) != nullptr;
  if (read_counters) {
    state_.counters.pending = true;
    state_.counters.launched = timed.launched;
  }
  return SweepJob{"timing " + timed.config.to_string(),
                  [slot, device, job_lesson, measure_ceilings, cache,
                   read_counters](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
                    if (measure_ceilings) {
                      std::string warning;
                      auto ceilings = compute::cached_ceilings(*device, cache, warning, &cancel);
                      std::lock_guard lock(slot->mutex);
                      slot->ceilings = std::move(ceilings);
                      slot->ceilings_warning = std::move(warning);
                    }
                    auto report = job_lesson->run_timed(*device, &cancel);
                    std::optional<Result<std::vector<CountedKernel>>> counters;
                    if (read_counters && report && !cancel) {
                      counters = compute::counting_lesson(*job_lesson)->run_counted(*device);
                    }
                    std::lock_guard lock(slot->mutex);
                    slot->result = report;
                    slot->counters = std::move(counters);
                    return SweepPoint{};
                  }};
}

void AppController::set_read_counters(bool on) {
  state_.counters.enabled = on;
  if (!on) state_.counters = {};
}

void AppController::start_sweep(SweepKind kind) {
  if (live_ && live_->busy()) {
    post(Severity::kWarning, "Training runs in the background on this device; pause it first.");
    return;
  }
  if (runner_.is_running()) {
    post(Severity::kWarning, "Measurements are already running.");
    return;
  }
  lesson().release_device_data();  // the sweep's largest sizes need the memory
  TimingPlot& plot = state_.timing;
  // Keep the previous sweep, faded, to compare with the new one: only a sweep of the same kind,
  // whose x means the same thing.
  if (plot.kind != kind) plot.earlier.clear();
  for (auto& s : plot.series) {
    if (s.points.empty() || plot.kind != kind) continue;
    s.faint = true;
    s.name += " (earlier)";
    plot.earlier.push_back(s);
  }
  while (plot.earlier.size() > kMaxEarlierSeries) plot.earlier.erase(plot.earlier.begin());
  plot.series.clear();
  plot.markers.clear();
  plot.kind = kind;

  // Each point: its x, its label, and the parameters the lesson runs with there.
  struct SweepStep {
    double x;
    std::string label;
    lessons::ParamValues values;
  };
  std::vector<SweepStep> steps;
  if (kind == SweepKind::kSize) {
    plot.x_title = lesson().size_label();
    for (std::uint64_t size : lesson().sweep_sizes(device())) {
      steps.push_back({static_cast<double>(size),
                       lesson().size_label() + " = " + format_power_of_two(size),
                       lesson().values_for_size(size)});
    }
  } else {
    plot.x_title = "threads per block, at " + lesson().size_label() + " = " +
                   format_count(state_.controls.elements());
    for (const compute::BlockStep& step : lesson().block_sweep()) {
      steps.push_back({static_cast<double>(step.block.volume()), "block " + to_string(step.block),
                       step.values});
    }
  }
  refresh_plot();

  std::vector<SweepJob> jobs;
  compute::Device* device = &session_->device();
  for (SweepStep& step : steps) {
    auto copy = session_->copy_lesson();
    if (!copy) break;
    std::shared_ptr<compute::Lesson> job_lesson(std::move(*copy));
    const Status configured = job_lesson->configure(step.values);
    if (!configured) continue;
    // The CPU does not care about the GPU's block size: over blocks only the kernels are timed.
    if (kind == SweepKind::kBlock) job_lesson->set_time_cpu(false);
    const double x = step.x;
    jobs.push_back({std::move(step.label),
                    [device, x, job_lesson](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
                      if (const Status safe = job_lesson->check_watchdog(*device); !safe) {
                        return safe.error();
                      }
                      auto report = job_lesson->run_timed(*device, &cancel);
                      if (!report) return report.error();
                      if (report->check && !report->check->passed) {
                        return Error{ErrorKind::kCudaError, report->check->description};
                      }
                      return compute::to_sweep_point(x, *report);
                    }});
  }
  runner_is_single_launch_ = false;
  const Status started = runner_.start(std::move(jobs), {OnJobError::kContinue});
  if (!started) post(Severity::kError, started.message());
  plot.sweeping = started.is_ok();
}

void AppController::cancel_sweep() {
  sweep_after_trace_.reset();
  runner_.cancel();
}

void AppController::clear_plot() {
  if (runner_.is_running() && !runner_is_single_launch_) return;
  state_.timing.series.clear();
  state_.timing.earlier.clear();
  state_.timing.markers.clear();
  refresh_plot();
}

void AppController::capture_done(const std::string& path, const Status& saved) {
  post(saved ? Severity::kInfo : Severity::kError, saved ? "Saved " + path : saved.message());
}

void AppController::set_plot_quantity(plot::PlotQuantity quantity) {
  state_.timing.quantity = quantity;
  refresh_plot();
}

void AppController::refresh_plot() {
  TimingPlot& plot = state_.timing;
  std::vector<plot::PlotSeries> all;
  all.reserve(plot.earlier.size() + plot.series.size());
  all.insert(all.end(), plot.earlier.begin(), plot.earlier.end());
  all.insert(all.end(), plot.series.begin(), plot.series.end());
  plot.quantities.clear();
  for (plot::PlotQuantity quantity : plot::all_plot_quantities()) {
    if (quantity == plot::PlotQuantity::kTime || plot::has_quantity(all, quantity)) {
      plot.quantities.push_back(quantity);
    }
  }
  const bool available = std::find(plot.quantities.begin(), plot.quantities.end(), plot.quantity) !=
                         plot.quantities.end();
  plot.shown_quantity = available ? plot.quantity : plot::PlotQuantity::kTime;
  plot.shown = plot::as_quantity(all, plot.shown_quantity);
  // On the emulator every device series would read "Emulated ... (CPU)": the plot's title says it
  // once and the legend names what each series measures, as the timing table does (the exports
  // keep the full names).
  if (!is_gpu(state_.backend)) {
    for (plot::PlotSeries& s : plot.shown) s.name = row_label_without_backend(s.name);
  }
  // On a rate axis, the device's measured ceiling for that rate, as a line to read the curves
  // against.
  plot.guides.clear();
  if (state_.ceilings && !plot.shown.empty()) {
    const DeviceCeilings& c = *state_.ceilings;
    if (plot.shown_quantity == plot::PlotQuantity::kBandwidth && c.copy_bytes_per_second > 0) {
      const std::string name = is_gpu(state_.backend) ? "device-to-device copy" : "host memcpy";
      // Measured over a buffer larger than the caches: a sweep's smaller sizes fit in them (the
      // CPU's, or the GPU's L2) and can run faster than this line.
      plot.guides.push_back(
          {.y = c.copy_bytes_per_second,
           .label = name + "\nmeasured: " +
                    plot::format_value(c.copy_bytes_per_second, plot::TickFormat::kByteRate, 3),
           .name = name,
           .above_reason =
               "It was measured copying " +
               (c.copy_buffer_bytes > 0 ? format_bytes(static_cast<double>(c.copy_buffer_bytes))
                                        : std::string("a large buffer")) +
               ", more than the caches hold: smaller data can stay in the " +
               (is_gpu(state_.backend) ? "GPU's L2 cache." : "CPU's caches.")});
    }
    if (plot.shown_quantity == plot::PlotQuantity::kFlopRate && c.sgemm_flops_per_second > 0) {
      plot.guides.push_back(
          {.y = c.sgemm_flops_per_second,
           .label = "cuBLAS SGEMM " + std::to_string(c.sgemm_size) + "³\nmeasured: " +
                    plot::format_value(c.sgemm_flops_per_second, plot::TickFormat::kFlopRate, 3),
           .name = "cuBLAS SGEMM",
           .above_reason = "It is cuBLAS at " + std::to_string(c.sgemm_size) +
                           "³ only: other sizes, or lower precision, can run faster."});
    }
  }
  plot.ceiling_notes = plot::notes_above_guides(plot.shown, plot.guides, plot::TickFormat::kCount);
}

void AppController::record_sweep_point(const SweepPoint& point) {
  compute::add_sweep_point(state_.timing.series, point);
  style_timing_series(state_.timing.series);
  state_.timing.markers.clear();
  // Where the GPU overtakes the CPU is a matter of size; over block sizes nothing crosses.
  if (const auto pair = lesson().crossover(); pair && state_.timing.kind == SweepKind::kSize) {
    if (auto crossover = compute::find_series_crossover(state_.timing.series, *pair)) {
      const auto name_of = [this](const TimingKey& key) {
        for (const plot::PlotSeries& s : state_.timing.series) {
          if (!s.faint && s.key == key) return s.name;
        }
        return to_string(key);
      };
      state_.timing.markers.push_back(
          plot::PlotMarker{*crossover, name_of(pair->second) + " beats " + name_of(pair->first)});
    }
  }
  refresh_plot();
}

void AppController::update() {
  const bool running = runner_.is_running();
  if (runner_is_single_launch_) {
    (void)runner_.take_new_points();
    // The picture first: the timed run's table, which may have finished in the same frame,
    // belongs to it.
    collect_background_trace(running);
    std::optional<Result<compute::LessonReport>> result;
    std::optional<Result<DeviceCeilings>> ceilings;
    std::string ceilings_warning;
    std::optional<Result<std::vector<CountedKernel>>> counters;
    if (pending_run_) {
      std::lock_guard lock(pending_run_->mutex);
      result = std::move(pending_run_->result);
      pending_run_->result.reset();
      counters = std::move(pending_run_->counters);
      pending_run_->counters.reset();
      ceilings = std::move(pending_run_->ceilings);
      pending_run_->ceilings.reset();
      ceilings_warning = std::move(pending_run_->ceilings_warning);
    }
    if (ceilings) {
      if (*ceilings) {
        state_.ceilings = ceilings->value();
        refresh_plot();
      } else if (ceilings->error().kind != ErrorKind::kCancelled) {
        post(Severity::kWarning, "Could not measure the device's ceilings: " + ceilings->message());
      } else {
        ceilings_requested_ = false;  // cancelled: try again with the next run
      }
      if (!ceilings_warning.empty()) post(Severity::kWarning, ceilings_warning);
    }
    if (result) {
      state_.timed.pending = false;
      if (*result) {
        state_.timed.report = std::move(result->value());
        if (state_.timed.report->attachment) {
          state_.lesson_picture = state_.timed.report->attachment;
        }
      } else {
        state_.timed.error = result->message();
        if (result->error().kind != ErrorKind::kCancelled)
          post(Severity::kError, result->message());
        handle_device_error(result->error());
      }
    }
    if (counters) {
      state_.counters.pending = false;
      if (*counters) {
        state_.counters.kernels = std::move(counters->value());
        state_.counters.unavailable.clear();
      } else {
        // Not an error of the run: the device or the user may not allow counters.
        state_.counters.kernels.clear();
        state_.counters.unavailable = counters->message();
        handle_device_error(counters->error());
      }
    }
    for (const auto& failure : runner_.take_new_failures()) {
      state_.timed.pending = false;
      state_.timed.error = failure.error.message;
    }
    if (!running) {
      state_.timed.pending = false;
      state_.counters.pending = false;
    }
  } else {
    for (const SweepPoint& point : runner_.take_new_points()) record_sweep_point(point);
    for (const auto& failure : runner_.take_new_failures()) {
      post(Severity::kError, failure.label + ": " + failure.error.message);
      if (failure.error.kind == ErrorKind::kCudaStickyError) {
        handle_device_error(failure.error);
        break;  // the sweep's later failures are this fault again
      }
    }
    state_.timing.progress = runner_.progress();
    state_.timing.sweeping = running;
  }
  if (live_) live_->update(*this);
  // A sweep link's sweep, once its picture is drawn and the runner is free.
  if (sweep_after_trace_ && !pending_trace_ && !runner_.is_running()) {
    const SweepKind kind = *sweep_after_trace_;
    sweep_after_trace_.reset();
    start_sweep(kind);
  }
  lab_->update();
  refresh_roofline();
  advance_demo_when_due();
}

void AppController::refresh_roofline() {
  // What the roofline depends on, in a few characters: the run's times and work, the ceilings.
  std::string source = std::string(lesson().info().id) + (is_gpu(state_.backend) ? "/gpu" : "/emu");
  const std::optional<compute::LessonReport>& report = state_.timed.report;
  if (report) {
    for (const compute::TimingRow& row : report->rows) {
      source += "/" + std::to_string(row.stats.median_ms) + ":" + std::to_string(row.bytes) + ":" +
                std::to_string(row.flops);
    }
  }
  if (state_.ceilings) {
    source += "/c" + std::to_string(state_.ceilings->copy_bytes_per_second) + ":" +
              std::to_string(state_.ceilings->sgemm_flops_per_second);
  }
  const bool refused =
      !state_.launch_problems.empty() || !state_.trace.error.empty() || !state_.timed.error.empty();
  source += refused ? "/refused" : "/ok";
  if (source == state_.roofline.source) return;
  state_.roofline.source = std::move(source);
  state_.roofline.emulator = report ? !report->on_gpu : !is_gpu(state_.backend);
  const plot::RooflineInputs inputs =
      report ? compute::roofline_inputs(lesson(), *report,
                                        state_.ceilings ? &*state_.ceilings : nullptr)
             : plot::RooflineInputs{};
  state_.roofline.roofline = plot::build_roofline(inputs);
  if (!report && refused) {
    state_.roofline.roofline.empty_reason =
        "Nothing timed: the launch was refused or failed (the launch controls say why).";
  }
}

void AppController::apply_lesson_action(const std::string& link) {
  auto parsed = lessons::parse_lesson_action(link);
  if (!parsed) {
    post(Severity::kError, parsed.message());
    return;
  }
  apply_action(*parsed);
  // A click on a step's link is a move to that step: the clicker goes on from there.
  const auto& steps = state_.classroom.steps;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].action == link) {
      state_.classroom.cursor.go_to(i);
      break;
    }
  }
}

void AppController::apply_action(const lessons::LessonAction& parsed) {
  // Values such as grid={{device.sm_count*2}} are computed for the device in use.
  auto filled = lessons::fill_action_placeholders(parsed, device().info());
  if (!filled) {
    post(Severity::kError, filled.message());
    return;
  }
  const lessons::LessonAction* action = &*filled;
  // A link to another lesson switches first and launches once, with the link's values: launching
  // the new lesson's defaults first would keep the runner busy and refuse the link's own launch.
  bool switched = false;
  if (action->lesson) {
    switched = switch_lesson(*action->lesson);
    if (state_.controls.lesson_id != *action->lesson) return;
  }
  if (!action->values.empty() && !set_params(action->values)) {
    // The new lesson still gets its first picture, with its defaults, rather than the old one's.
    if (switched) launch();
    return;
  }
  if (action->color_by) {
    auto mode = parse_color_by(*action->color_by);
    if (mode) {
      state_.view.color_by = *mode;
    } else {
      post(Severity::kWarning, mode.message());
    }
  }
  if (action->plot) {
    auto quantity = plot::parse_plot_quantity(*action->plot);
    if (quantity) {
      set_plot_quantity(*quantity);
      show_results(ResultsTab::kTiming);
    } else {
      post(Severity::kWarning, quantity.message());
    }
  }
  if (action->view) {
    if (const Status shown = show_view(*action->view); !shown) {
      post(Severity::kWarning, shown.message());
    }
  }
  // A sweep times every size itself, so a launch before it only draws the picture: its timed run
  // would keep the background runner busy and refuse the sweep.
  // A sweep link that changes the controls also redraws the picture, so that what is drawn
  // matches the controls the sweep runs with.
  const bool redraw = action->sweep && !action->values.empty();
  if (action->launch || switched || redraw) launch(/*timed=*/!action->sweep);
  if (action->pick) {
    auto cell = parse_dim3(*action->pick);  // "row,col"
    if (cell) {
      pick_element(cell->x, cell->y);
    } else {
      post(Severity::kWarning, "pick=" + *action->pick + ": expected row,col");
    }
  }
  // The Kernel Lab: open an exercise (the Lab comes to the front), check it.
  if (action->exercise) {
    if (lab::find_exercise(*action->exercise) == nullptr) {
      post(Severity::kWarning, "exercise=" + *action->exercise + ": no such exercise");
    } else {
      lab_->select_exercise(*action->exercise);
      show_workspace(Workspace::kLab);
    }
  }
  if (action->submission) {
    show_workspace(Workspace::kLab);
    if (const Status loaded = lab_->load_known_wrong(*action->submission); !loaded) {
      post(Severity::kWarning, loaded.message());
    }
  }
  if (action->lab_grid) {
    show_workspace(Workspace::kLab);
    lab_->set_grid(*action->lab_grid == "auto" ? std::string() : *action->lab_grid);
    if (!lab_->state().grid_problem.empty()) {
      post(Severity::kWarning, "lab_grid=" + *action->lab_grid + ": " + lab_->state().grid_problem);
    }
  }
  if (action->run) {
    show_workspace(Workspace::kLab);
    if (!lab_->run()) post(Severity::kWarning, "The Lab is busy with a run or a check.");
  }
  if (action->check) {
    show_workspace(Workspace::kLab);
    if (!lab_->check()) post(Severity::kWarning, "The Lab is checking already.");
  }
  if (action->sweep) {
    // The sweep's curves are the point of such a link, unless it names a view of its own.
    if (!action->view && !action->plot) show_results(ResultsTab::kTiming);
    const SweepKind kind = action->sweep_blocks ? SweepKind::kBlock : SweepKind::kSize;
    // The link's picture may be tracing in the background: the sweep follows it.
    if (pending_trace_) {
      sweep_after_trace_ = kind;
    } else {
      start_sweep(kind);
    }
  }
}

void AppController::set_color_by(ColorBy mode) {
  state_.view.color_by = mode;
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

Status AppController::show_view(const std::string& name) {
  if (name == kLabView) {
    show_workspace(Workspace::kLab);
    return Status::ok();
  }
  if (name == kLessonView) {
    show_workspace(Workspace::kLesson);
    return Status::ok();
  }
  for (const LessonTab& tab : views().tabs) {
    if (tab.id == name) {
      show_lesson_tab(tab.id);
      return Status::ok();
    }
  }
  auto tab = parse_results_tab(name);
  if (!tab) return tab.error();
  show_results(*tab);
  return Status::ok();
}

void AppController::show_results(ResultsTab tab) {
  state_.view.results_tab = tab;
  ++state_.view.results_tab_requests;
}

Result<ResultsTab> parse_results_tab(const std::string& name) {
  if (name == "plot") return ResultsTab::kTiming;
  if (name == "grid") return ResultsTab::kGrid;
  if (name == "timeline") return ResultsTab::kTimeline;
  if (name == "occupancy") return ResultsTab::kOccupancy;
  if (name == "roofline") return ResultsTab::kRoofline;
  return invalid_argument("unknown view '" + name +
                          "': expected plot, roofline, grid, timeline, occupancy, lab, lesson or "
                          "one of the lesson's own");
}

void AppController::hover(std::optional<PixelPoint> pixel, Viewport viewport) {
  if (!pixel || !state_.trace.valid) {
    state_.view.hover.reset();
    return;
  }
  const CellHit hit = element_at(state_.trace.layout, state_.view.transform,
                                 static_cast<int>(pixel->x), static_cast<int>(pixel->y), viewport);
  if (hit.kind == CellKind::kNone) {
    state_.view.hover.reset();
    return;
  }
  // Reading a record back from the GPU stalls the pipeline: only when the mouse reaches a new cell.
  if (state_.view.hover && state_.view.hover->hit.cell == hit.cell &&
      state_.view.hover->hit.kind == hit.kind) {
    return;
  }
  HoverInfo info;
  info.hit = hit;
  if (hit.is_element()) {
    auto record = trace_buffer_.read(hit.cell);
    if (record) {
      info.record = decode(*record, hit.cell, state_.trace.shape, state_.trace.config,
                           state_.device.limits.warp_size);
    }
  }
  state_.view.hover = info;
}

void AppController::zoom(double factor, double pixel_x, double pixel_y) {
  state_.view.transform = zoom_about(state_.view.transform, factor, pixel_x, pixel_y);
  state_.view.follow_fit = false;
}

void AppController::pan(double dx, double dy) {
  state_.view.transform = pan_by_pixels(state_.view.transform, dx, dy);
  state_.view.follow_fit = false;
}

void AppController::fit_view() {
  state_.view.fit_pending = true;
  state_.view.follow_fit = true;
}

Result<std::uint32_t> AppController::render_mapping(Viewport viewport) {
  if (viewport.width <= 0 || viewport.height <= 0) return invalid_argument("empty view");
  if (!state_.trace.valid) {
    return invalid_argument(state_.trace.error.empty() ? "nothing launched yet"
                                                       : state_.trace.error);
  }
  const bool resized = viewport.width != state_.view.fitted_viewport.width ||
                       viewport.height != state_.view.fitted_viewport.height;
  if (state_.view.fit_pending || (state_.view.follow_fit && resized)) {
    state_.view.transform = fit_to_view(state_.trace.layout, viewport, 4.0);
    state_.view.fit_pending = false;
    state_.view.fitted_viewport = viewport;
  }
  render::MappingView view;
  view.layout = state_.trace.layout;
  view.launch = state_.trace.config;
  view.warp_size = state_.device.limits.warp_size;
  view.color_by = state_.view.color_by;
  view.transform = state_.view.transform;
  if (state_.view.hover) view.highlighted_cell = state_.view.hover->hit.cell;
  TL_RETURN_IF_ERROR(renderer_->render(trace_buffer_, view, viewport));
  return renderer_->color_texture();
}

}  // namespace tl::ui
