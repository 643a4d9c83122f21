#include "app_controller.hpp"

#include <algorithm>
#include <mutex>

#include "compute/lessons/vector_add_series.hpp"
#include "core/format.hpp"
#include "core/lessons/catalog.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/lessons/vector_add.hpp"
#include "core/plot/crossover.hpp"
#include "core/sweep/size_sweep.hpp"
#include "interop/gl_trace_sink.hpp"
#include "lesson_texts.hpp"

namespace tl::ui {

// The traced view is drawn from one GL buffer of 16-byte records: 2^24 of them are 256 MiB.
constexpr std::uint64_t kMaxTracedElements = std::uint64_t{1} << 24;
constexpr std::size_t kMaxMessages = 50;

// The result slot of a single timed launch, filled by the background job.
struct AppController::PendingRun {
  std::mutex mutex;
  std::optional<Result<compute::VectorAddReport>> result;
};

Result<std::unique_ptr<AppController>> AppController::create(const ControllerOptions& options) {
  std::unique_ptr<AppController> controller(new AppController());
  TL_RETURN_IF_ERROR(controller->initialize(options));
  return controller;
}

AppController::~AppController() {
  runner_.cancel();
  runner_.wait();
}

Status AppController::initialize(const ControllerOptions& options) {
  auto choice = interop::choose_backend(options.backend, true);
  if (!choice) return choice.error();
  device_ = std::move(choice->device);
  state_.backend = choice->kind;
  state_.backend_reason = choice->reason;
  state_.device = device_->info();
  state_.gl_renderer = options.gl_renderer;
  trace_sink_ = interop::make_gl_trace_sink(state_.backend, trace_buffer_);
  auto renderer = render::MappingRenderer::create();
  if (!renderer) return renderer.error();
  renderer_ = std::move(*renderer);
  if (auto memory = device_->memory_info()) {
    state_.max_n = std::min<std::uint64_t>(
        lessons::kVectorAddMaxN,
        static_cast<std::uint64_t>(static_cast<double>(memory->free_bytes) * 0.9 / 12.0));
  }
  load_lesson();
  refresh_launch_problems();
  post(Severity::kInfo,
       std::string("Backend: ") + to_string(state_.backend) + ". " + state_.backend_reason);
  launch();
  return Status::ok();
}

void AppController::load_lesson() {
  const auto lesson = lessons::find_lesson(lessons::kVectorAddId);
  const std::string path = "lessons/" + std::string(lesson->folder) + "/lesson.md";
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
  state_.lesson.document = std::move(*document);
  state_.lesson.title = state_.lesson.document.title();
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

void AppController::refresh_launch_problems() {
  LaunchControls& c = state_.controls;
  if (c.auto_grid) c.grid = {blocks_to_cover(c.n, c.block.x), 1, 1};
  state_.launch_problems = validate(c.config(), state_.device.limits);
}

void AppController::set_n(std::uint64_t n) {
  const Status valid = lessons::validate_vector_add_size(n, 0);
  if (!valid) {
    post(Severity::kWarning, valid.message());
    return;
  }
  state_.controls.n = n;
  refresh_launch_problems();
}

void AppController::set_block(Dim3 block) {
  state_.controls.block = block;
  refresh_launch_problems();
}

void AppController::set_grid(Dim3 grid) {
  state_.controls.grid = grid;
  state_.controls.auto_grid = false;
  refresh_launch_problems();
}

void AppController::set_auto_grid(bool automatic) {
  state_.controls.auto_grid = automatic;
  refresh_launch_problems();
}

void AppController::use_single_block() {
  const LaunchConfig config = lessons::single_block_config(state_.controls.n);
  state_.controls.auto_grid = false;
  state_.controls.grid = config.grid;
  state_.controls.block = config.block;
  refresh_launch_problems();
}

bool AppController::can_launch() const {
  return !runner_.is_running();
}

void AppController::handle_device_error(const Error& error) {
  if (error.kind != ErrorKind::kCudaStickyError) return;
  // The context is gone: every allocation and interop registration with it. Reset and start over.
  trace_sink_.reset();
  const Status reset = device_->reset();
  if (!reset) {
    post(Severity::kError, "Resetting the GPU failed: " + reset.message() + ". Restart ThreadLab.");
    return;
  }
  trace_sink_ = interop::make_gl_trace_sink(state_.backend, trace_buffer_);
  post(Severity::kWarning, "The GPU was reset after a fatal kernel error; you can launch again.");
}

void AppController::launch() {
  if (!can_launch()) {
    post(Severity::kWarning,
         "Measurements are running in the background; wait or cancel them first.");
    return;
  }
  const LaunchControls& c = state_.controls;
  TraceView& trace = state_.trace;
  trace.n = c.n;
  trace.config = c.config();
  trace.error.clear();
  trace.check.reset();
  state_.view.hover.reset();
  for (const auto& problem : state_.launch_problems) {
    post(Severity::kWarning,
         "Launching " + trace.config.to_string() + " anyway: " + problem.message);
  }

  if (c.n > kMaxTracedElements) {
    trace.valid = false;
    trace.error = "The picture shows up to 2^24 elements; N = " + format_count(c.n) +
                  " is timed but not drawn.";
  } else {
    auto check = compute::trace_vector_add(*device_, c.n, trace.config, *trace_sink_);
    if (!check) {
      trace.valid = false;
      trace.error = check.message();
      post(Severity::kError, check.message());
      handle_device_error(check.error());
      // A failed launch wrote nothing: show the elements as they are, all unwritten.
      if (trace_buffer_.clear(c.n)) {
        trace.valid = true;
      }
    } else {
      trace.valid = true;
      trace.check = *check;
    }
    if (trace.valid) {
      auto layout = layout_1d(c.n, trace.config.total_threads());
      if (layout) {
        trace.layout = *layout;
        state_.view.fit_pending = true;
      } else {
        trace.valid = false;
        trace.error = layout.message();
      }
      auto summary = trace_buffer_.summarize(trace.config.block.x);
      if (summary) {
        trace.unwritten = summary->unwritten;
        trace.written_more = summary->written_more;
      }
      const std::uint64_t threads = trace.config.total_threads();
      const std::uint64_t written = c.n - trace.unwritten;
      trace.idle_threads = threads > written ? threads - written : 0;
    }
  }
  start_timed_run();
}

void AppController::start_timed_run() {
  TimedRun& timed = state_.timed;
  timed.pending = true;
  timed.n = state_.controls.n;
  timed.config = state_.controls.config();
  timed.report.reset();
  timed.error.clear();
  pending_run_ = std::make_shared<PendingRun>();
  compute::VectorAddRequest request;
  request.n = timed.n;
  request.config = timed.config;
  auto slot = pending_run_;
  compute::Device* device = device_.get();
  SweepJob job{"timing " + request.config.to_string(),
               [slot, device, request](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
                 compute::VectorAddRequest r = request;
                 r.cancel = &cancel;
                 auto report = compute::run_vector_add(*device, r);
                 std::lock_guard lock(slot->mutex);
                 slot->result = report;
                 return SweepPoint{static_cast<double>(r.n), {}};
               }};
  runner_is_single_launch_ = true;
  const Status started = runner_.start({std::move(job)});
  if (!started) {
    timed.pending = false;
    timed.error = started.message();
  }
}

void AppController::start_sweep() {
  if (runner_.is_running()) {
    post(Severity::kWarning, "Measurements are already running.");
    return;
  }
  TimingPlot& plot = state_.timing;
  // Keep the previous sweep, faded, to compare with the new one.
  for (auto& s : plot.series) {
    if (s.points.empty()) continue;
    s.faint = true;
    s.name += " (earlier)";
    plot.earlier.push_back(s);
  }
  while (plot.earlier.size() > 12) plot.earlier.erase(plot.earlier.begin());
  plot.sweep_block = std::max(1u, state_.controls.block.x);
  plot.series = compute::make_timing_series(device_->is_gpu(), plot.sweep_block);
  plot.markers.clear();

  // The emulator is slow: it runs every thread on the CPU, so its sweep stops earlier.
  const std::uint64_t top = device_->is_gpu() ? (std::uint64_t{1} << 28) : (std::uint64_t{1} << 24);
  const std::uint64_t max_n = std::min(top, std::max<std::uint64_t>(state_.max_n, 1024));
  std::vector<SweepJob> jobs;
  compute::Device* device = device_.get();
  const std::uint32_t block = plot.sweep_block;
  for (std::uint64_t n : size_sweep(1 << 10, max_n, 1)) {
    jobs.push_back({"N = " + format_power_of_two(n),
                    [device, n, block](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
                      compute::VectorAddRequest request;
                      request.n = n;
                      request.config = lessons::covering_config(n, block);
                      request.cancel = &cancel;
                      auto report = compute::run_vector_add(*device, request);
                      if (!report) return report.error();
                      if (report->check && !report->check->passed) {
                        return Error{ErrorKind::kCudaError, report->check->describe()};
                      }
                      return compute::to_sweep_point(n, *report);
                    }});
  }
  runner_is_single_launch_ = false;
  const Status started = runner_.start(std::move(jobs), {OnJobError::kContinue});
  if (!started) post(Severity::kError, started.message());
  plot.sweeping = started.is_ok();
}

void AppController::cancel_sweep() {
  runner_.cancel();
}

void AppController::clear_plot() {
  if (runner_.is_running() && !runner_is_single_launch_) return;
  state_.timing.series.clear();
  state_.timing.earlier.clear();
  state_.timing.markers.clear();
}

void AppController::record_sweep_point(const SweepPoint& point) {
  compute::add_sweep_point(state_.timing.series, point);
  state_.timing.markers.clear();
  if (auto crossover = compute::find_gpu_crossover(state_.timing.series)) {
    state_.timing.markers.push_back(
        plot::PlotMarker{*crossover, "GPU end to end beats 1 CPU thread"});
  }
}

void AppController::update() {
  const bool running = runner_.is_running();
  if (runner_is_single_launch_) {
    (void)runner_.take_new_points();
    std::optional<Result<compute::VectorAddReport>> result;
    if (pending_run_) {
      std::lock_guard lock(pending_run_->mutex);
      result = std::move(pending_run_->result);
      pending_run_->result.reset();
    }
    if (result) {
      state_.timed.pending = false;
      if (*result) {
        state_.timed.report = std::move(result->value());
      } else {
        state_.timed.error = result->message();
        if (result->error().kind != ErrorKind::kCancelled)
          post(Severity::kError, result->message());
        handle_device_error(result->error());
      }
    }
    for (const auto& failure : runner_.take_new_failures()) {
      state_.timed.pending = false;
      state_.timed.error = failure.error.message;
    }
    if (!running) state_.timed.pending = false;
  } else {
    for (const SweepPoint& point : runner_.take_new_points()) record_sweep_point(point);
    for (const auto& failure : runner_.take_new_failures()) {
      post(Severity::kError, failure.label + ": " + failure.error.message);
      handle_device_error(failure.error);
    }
    state_.timing.progress = runner_.progress();
    state_.timing.sweeping = running;
  }
}

void AppController::apply_lesson_action(const std::string& link) {
  auto action = lessons::parse_lesson_action(link);
  if (!action) {
    post(Severity::kError, action.message());
    return;
  }
  if (action->n) set_n(*action->n);
  if (action->block) set_block(*action->block);
  if (action->grid) {
    set_grid(*action->grid);
  } else if (action->block || action->n) {
    set_auto_grid(true);
  }
  if (action->color_by) {
    auto mode = parse_color_by(*action->color_by);
    if (mode) state_.view.color_by = *mode;
  }
  if (action->launch) launch();
  if (action->sweep) start_sweep();
}

void AppController::set_color_by(ColorBy mode) {
  state_.view.color_by = mode;
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
      state_.view.hover->hit.kind == hit.kind)
    return;
  HoverInfo info;
  info.hit = hit;
  if (hit.is_element()) {
    auto record = trace_buffer_.read(hit.cell);
    if (record) {
      info.record = decode(*record, hit.cell, {1, state_.trace.n}, state_.trace.config,
                           state_.device.limits.warp_size);
    }
  }
  state_.view.hover = info;
}

void AppController::zoom(double factor, double pixel_x, double pixel_y) {
  state_.view.transform = zoom_about(state_.view.transform, factor, pixel_x, pixel_y);
}

void AppController::pan(double dx, double dy) {
  state_.view.transform = pan_by_pixels(state_.view.transform, dx, dy);
}

void AppController::fit_view() {
  state_.view.fit_pending = true;
}

Result<std::uint32_t> AppController::render_mapping(Viewport viewport) {
  if (viewport.width <= 0 || viewport.height <= 0) return invalid_argument("empty view");
  if (!state_.trace.valid)
    return invalid_argument(state_.trace.error.empty() ? "nothing launched yet"
                                                       : state_.trace.error);
  if (state_.view.fit_pending) {
    state_.view.transform = fit_to_view(state_.trace.layout, viewport, 4.0);
    state_.view.fit_pending = false;
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
