#include "launch_coordinator.hpp"

#include <mutex>
#include <thread>

#include "compute/ceilings.hpp"
#include "compute/hardware_counters.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/format.hpp"

namespace tl::ui {
namespace {

// The runner's jobs are measurements: one failed size does not stop a sweep, and Cancel stops an
// emulated grid at its next block (what a cancelled job ran is thrown away), so a run of minutes
// answers at once and shows how far its grid got.
constexpr SweepOptions kMeasurements{.on_error = OnJobError::kContinue, .watch_grids = true};

}  // namespace

struct LaunchCoordinator::PendingRun {
  std::mutex mutex;
  std::optional<Result<compute::LessonReport>> result;
  std::optional<Result<DeviceCeilings>> ceilings;
  std::string ceilings_warning;
  std::optional<Result<std::vector<CountedKernel>>> counters;
};

Result<std::unique_ptr<LaunchCoordinator>> LaunchCoordinator::open(
    interop::BackendPreference backend, render::TraceBuffer& buffer,
    std::optional<std::filesystem::path> ceilings_cache, std::string_view lesson_id,
    AppState& state, Host& host) {
  std::unique_ptr<LaunchCoordinator> launches(new LaunchCoordinator(state, host, buffer));
  auto session = interop::LaunchSession::open(backend, &buffer);
  if (!session) return session.error();
  launches->session_ = std::move(*session);
  launches->ceilings_cache_ = std::move(ceilings_cache);
  state.backend = launches->session_->backend();
  state.backend_reason = launches->session_->backend_reason();
  state.device = launches->device().info();
  if (!launches->open_lesson(lesson_id)) {
    TL_RETURN_IF_ERROR(launches->open_lesson(compute::first_lesson_id()));
  }
  return launches;
}

Status LaunchCoordinator::open_lesson(std::string_view id) {
  auto opened = session_->select_lesson(id);
  if (!opened) return opened.error();
  lesson().set_keep_traced_inputs(true);  // released before the device is reset or replaced
  return Status::ok();
}

LaunchCoordinator::~LaunchCoordinator() {
  runner_.cancel();
  runner_.wait();
}

void LaunchCoordinator::launch(bool timed) {
  const LaunchControls& c = state_.controls;
  for (const auto& problem : state_.launch_problems) {
    post(Severity::kWarning, "Launching " + c.config().to_string() + " anyway: " + problem.message);
  }
  // What this launch may do, asked once: refused (the watchdog), timed only (too large to draw),
  // or traced.
  const interop::LaunchSession::Admission admission = session_->admit();
  // A trace the emulator takes seconds over runs in the background, with a progress bar and
  // Cancel, so the window keeps drawing; the picture before it stays until it is done. One that is
  // not traced at all goes the way below, which says why.
  if (admission.traceable() && session_->traces_in_background()) {
    auto prepared = session_->prepare_background_trace();
    if (prepared) {
      start_background_trace(std::move(*prepared), timed);
      return;
    }
  }
  // The timing table describes one configuration: a launch of another one without timing (a
  // sweep link's picture) leaves it empty rather than showing the old numbers beside the new
  // picture.
  if (!timed && (state_.timed.n != c.elements() || state_.timed.config != c.config())) {
    state_.timed = {};
  }
  TraceView& trace = begin_trace_view(LaunchedWith::from(c));
  // A kernel that could outlast a display's watchdog is refused: it would take the GPU context
  // (and for seconds the desktop) with it.
  if (!admission.refused) {
    trace.error = admission.refused.message();
    post(Severity::kError, admission.refused.message());
    return;
  }
  if (!admission.timed_only.empty()) {
    lesson().release_device_data();  // a size that is only timed needs the memory
    trace.error = admission.timed_only;
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

TraceView& LaunchCoordinator::begin_trace_view(const LaunchedWith& launched) {
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

void LaunchCoordinator::show_traced(Result<interop::TracedOutcome> traced) {
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
    recover(traced.error());
    // A launch that CUDA (or the emulator, as CUDA would) refused wrote nothing: show the
    // elements as they are, all unwritten. A request refused before launching (too slow for the
    // emulator, out of memory) has no picture, only its message.
    const ErrorKind kind = traced.error().kind;
    if (kind == ErrorKind::kCudaError || kind == ErrorKind::kCudaStickyError) {
      trace.valid = buffer_.clear(trace.n).is_ok();
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
      host_.picture_replaced();
    } else {
      trace.valid = false;
      trace.error = layout.message();
    }
  }
}

void LaunchCoordinator::start_background_trace(std::unique_ptr<interop::BackgroundTrace> prepared,
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
  runner_work_ = RunnerWork::kLaunch;
  const Status started = runner_.start(std::move(jobs), kMeasurements);
  if (!started) {
    post(Severity::kError, started.message());
    return;
  }
  pending_trace_ = std::move(pending);
  state_.tracing = {};
  state_.tracing.running = true;
  state_.tracing.launched = pending_trace_->launched;
}

void LaunchCoordinator::cancel() {
  sweep_after_trace_.reset();
  runner_.cancel();
}

bool LaunchCoordinator::stop_and_wait() {
  sweep_after_trace_.reset();
  if (!runner_.is_running()) return false;
  runner_.cancel();
  runner_.wait();
  return true;
}

void LaunchCoordinator::wait_for_runner(std::chrono::steady_clock::time_point deadline) const {
  while (runner_.is_running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::optional<SweepKind> LaunchCoordinator::take_due_sweep() {
  if (!sweep_after_trace_ || pending_trace_ || runner_.is_running()) return std::nullopt;
  return std::exchange(sweep_after_trace_, std::nullopt);
}

Status LaunchCoordinator::start_sweep(std::vector<SweepJob> jobs) {
  runner_work_ = RunnerWork::kSweep;
  return runner_.start(std::move(jobs), kMeasurements);
}

void LaunchCoordinator::collect_background_trace(bool running) {
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

void LaunchCoordinator::start_timed_run() {
  TimedRun next;
  auto job = make_timed_job(next);
  state_.timed = std::move(next);
  if (!job) return;
  runner_work_ = RunnerWork::kLaunch;
  const Status started = runner_.start({std::move(*job)}, kMeasurements);
  if (!started) {
    state_.timed.pending = false;
    state_.timed.error = started.message();
  }
}

std::optional<SweepJob> LaunchCoordinator::make_timed_job(TimedRun& timed) {
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
                    // Cancelled on the way: what was timed is dropped (a CPU reference cut short
                    // would read as a fact).
                    if (cancel && report) report = Error{ErrorKind::kCancelled, "cancelled"};
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

void LaunchCoordinator::collect(bool running) {
  (void)runner_.take_new_points();
  // How far the timed run got, for its progress bar (the trace before it has its own).
  state_.timed.progress = running && !pending_trace_ ? runner_.progress() : SweepProgress{};
  // The picture first: the timed run's table, which may have finished in the same frame, belongs
  // to it.
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
      host_.ceilings_changed();
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
      if (state_.timed.report->attachment) state_.lesson_picture = state_.timed.report->attachment;
    } else if (result->error().kind == ErrorKind::kCancelled) {
      state_.timed.error = "Cancelled: Launch times it again";
      state_.timed.cancelled = true;
      post(Severity::kInfo, "Cancelled the timed run of " + describe_launch(state_.timed.launched));
    } else {
      state_.timed.error = result->message();
      post(Severity::kError, result->message());
      recover(result->error());
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
      recover(counters->error());
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
}

void LaunchCoordinator::recover(const Error& error) {
  if (error.kind != ErrorKind::kCudaStickyError) return;
  // Background jobs hold the device: stop them before touching it. What they reported since is the
  // same fault seen again by every job after it: one fault, one reset, one message.
  runner_.cancel();
  runner_.wait();
  (void)runner_.take_new_points();
  (void)runner_.take_new_failures();
  state_.timing.sweeping = false;
  state_.timed.pending = false;
  host_.release_device();  // their memory lives on the device about to be reset or replaced
  pending_trace_.reset();
  sweep_after_trace_.reset();
  state_.tracing = {};
  const auto recovery = session_->recover_from_device_error(error);
  host_.device_back();
  state_.backend = session_->backend();
  state_.backend_reason = session_->backend_reason();
  if (recovery.moved_to_emulator) {
    // The emulator took over: its device, limits and ceilings replace the GPU's.
    state_.ceilings.reset();
    ceilings_requested_ = false;
    host_.device_replaced();
    post(Severity::kError, recovery.message);
    return;
  }
  post(Severity::kWarning, recovery.message);
}

}  // namespace tl::ui
