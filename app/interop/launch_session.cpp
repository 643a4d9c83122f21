#include "launch_session.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>

#include "compute/lessons/lesson_registry.hpp"
#include "core/backend_fallback.hpp"
#include "core/format.hpp"
#include "core/parse.hpp"
#include "core/trace.hpp"
#include "gl_trace_sink.hpp"

namespace tl::interop {

std::string describe_counts(std::uint64_t elements, const TraceCounts& counts) {
  std::string text =
      format_count(elements) + " elements, " + format_count(counts.unwritten) + " never written";
  if (counts.written_more > 0)
    text += ", " + format_count(counts.written_more) + " written twice or more";
  if (counts.idle_threads) {
    text += ", " + format_count(*counts.idle_threads) + " idle threads";
  } else {
    text += ", idle threads not counted (a thread may compute several elements)";
  }
  return text;
}

Result<std::unique_ptr<LaunchSession>> LaunchSession::open(BackendPreference preference,
                                                           render::TraceBuffer* buffer) {
  auto choice = choose_backend(preference, buffer != nullptr);
  if (!choice) return choice.error();
  std::unique_ptr<LaunchSession> session(new LaunchSession());
  session->device_ = std::move(choice->device);
  session->backend_ = choice->kind;
  session->backend_reason_ = std::move(choice->reason);
  session->buffer_ = buffer;
  session->make_sink();
  return session;
}

LaunchSession::~LaunchSession() {
  // The lesson's kept inputs and the sink's registration belong to the device: release them first.
  if (lesson_) lesson_->release_device_data();
  sink_.reset();
}

void LaunchSession::make_sink() {
  sink_.reset();  // unregisters an interop buffer before another sink writes into it
  host_sink_ = nullptr;
  if (buffer_ != nullptr) {
    sink_ = make_gl_trace_sink(backend_, *buffer_);
  } else {
    auto host = std::make_unique<compute::HostTraceSink>();
    host_sink_ = host.get();
    sink_ = std::move(host);
  }
}

Result<lessons::ParamValues> LaunchSession::select_lesson(std::string_view id) {
  auto lesson = compute::make_lesson(id);
  if (!lesson) return lesson.error();
  return adopt_lesson(std::move(*lesson), {});
}

Result<lessons::ParamValues> LaunchSession::adopt_lesson(std::unique_ptr<compute::Lesson> lesson,
                                                         const lessons::ParamValues& chosen) {
  if (!lesson) return invalid_argument("no lesson to open");
  // The one place where a backend changes a lesson's defaults: the emulator runs every thread on
  // the CPU, so the GPU's sizes would take minutes there. What the caller chose stays.
  lessons::ParamValues adapted;
  if (backend_ == BackendKind::kEmulator) {
    auto named = lessons::with_canonical_names(lesson->params(), chosen);
    if (!named) return named.error();
    for (const auto& [name, value] : lesson->emulator_defaults()) {
      if (named->count(name) == 0) adapted.emplace(name, value);
    }
    if (!adapted.empty()) {
      const Status smaller = lesson->configure(adapted);
      if (!smaller) {
        return Error{smaller.error().kind,
                     "the emulator's smaller defaults were refused: " + smaller.message()};
      }
    }
  }
  if (lesson_) lesson_->release_device_data();
  lesson_ = std::move(lesson);
  lesson_->use_device(*device_);
  return adapted;
}

std::vector<LaunchSession::ScaledValue> LaunchSession::fit_link_values(
    lessons::ParamValues& values) const {
  std::vector<ScaledValue> scaled;
  if (backend_ != BackendKind::kEmulator || !lesson_) return scaled;
  auto named = lessons::with_canonical_names(lesson_->params(), values);
  if (!named) return scaled;  // the lesson's configure names the problem
  for (const auto& [name, emulator_value] : lesson_->emulator_defaults()) {
    const auto asked = named->find(name);
    if (asked == named->end()) continue;
    const auto asked_count = parse_count(asked->second);
    const auto emulator_count = parse_count(emulator_value);
    if (!asked_count || !emulator_count) continue;  // not a size: left to configure
    if (*asked_count <= *emulator_count * kEmulatorLinkScale) continue;
    scaled.push_back({name, asked->second, emulator_value});
    asked->second = emulator_value;
  }
  if (!scaled.empty()) values = std::move(*named);
  return scaled;
}

Result<std::unique_ptr<compute::Lesson>> LaunchSession::copy_lesson() const {
  if (!lesson_) return invalid_argument("no lesson selected");
  auto copy = compute::make_lesson(lesson_->info().id);
  if (!copy) return copy.error();
  TL_RETURN_IF_ERROR((*copy)->configure(lesson_->values()));
  (*copy)->set_repeats(lesson_->repeats());
  (*copy)->set_time_cpu(lesson_->time_cpu());
  return copy;
}

std::vector<LaunchProblem> LaunchSession::problems() const {
  if (!lesson_) return {};
  return validate(lesson_->launch_config(), device_->info().limits);
}

std::string LaunchSession::explain(const std::string& message) const {
  const auto found = problems();
  if (found.empty() || message.find(found.front().message) != std::string::npos) return message;
  return message + " (why: " + found.front().message + ")";
}

Status LaunchSession::check_watchdog() const {
  if (!lesson_) return invalid_argument("no lesson selected");
  return lesson_->check_watchdog(*device_);
}

LaunchSession::Admission LaunchSession::admit() const {
  Admission admission;
  admission.refused = check_watchdog();
  if (!lesson_) return admission;
  const std::uint64_t elements = lesson_->data_shape().elements();
  if (elements > kMaxTracedElements) {
    admission.timed_only = "The picture shows up to " + format_power_of_two(kMaxTracedElements) +
                           " elements; " + format_count(elements) + " are timed but not drawn.";
  }
  return admission;
}

Status LaunchSession::check_traceable() const {
  const Admission admission = admit();
  TL_RETURN_IF_ERROR(admission.refused);
  if (!admission.timed_only.empty()) return invalid_argument(admission.timed_only);
  return Status::ok();
}

Result<TracedOutcome> LaunchSession::trace() {
  TL_RETURN_IF_ERROR(check_traceable());
  TracedOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  auto traced = lesson_->run_traced(*device_, *sink_);
  if (!traced) {
    // The trace path failed where the next one down the chain works (interop → copy): switch and
    // launch once more.
    if (const auto fallback = fallback_after_trace_error(backend_, traced.error())) {
      outcome.fallback = describe_trace_fallback(*fallback, traced.error());
      backend_ = *fallback;
      backend_reason_ = outcome.fallback;
      make_sink();
      traced = lesson_->run_traced(*device_, *sink_);
    }
  }
  outcome.launch_milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!traced) return Error{traced.error().kind, explain(traced.message())};
  outcome.launch = std::move(*traced);
  auto counts = count(outcome.launch);
  if (!counts) return counts.error();
  outcome.counts = *counts;
  return outcome;
}

namespace {

// Idle threads, where they mean something: each thread owns at most one element and the kernel ran
// with the configuration asked for.
void count_idle_threads(const compute::Lesson& lesson, const compute::TracedLaunch& launch,
                        TraceCounts& counts) {
  if (lesson.elements_per_thread() != 1 || launch.config != lesson.launch_config()) return;
  const std::uint64_t threads = launch.config.total_threads();
  const std::uint64_t written = launch.shape.elements() - counts.unwritten;
  counts.idle_threads = threads > written ? threads - written : 0;
}

TraceCounts count_host_records(const compute::Lesson& lesson, const compute::TracedLaunch& launch,
                               std::span<const TraceRecord> records) {
  TraceCounts counts;
  const TraceSummary summary = summarize(records, launch.config);
  counts.unwritten = summary.unwritten;
  counts.written_more = summary.written_more;
  count_idle_threads(lesson, launch, counts);
  return counts;
}

}  // namespace

Result<TraceCounts> LaunchSession::count(const compute::TracedLaunch& launch) {
  if (host_sink_ != nullptr) return count_host_records(*lesson_, launch, host_sink_->records());
  TraceCounts counts;
  auto summary = buffer_->summarize(static_cast<std::uint32_t>(launch.config.block.volume()));
  if (!summary) return summary.error();
  counts.unwritten = summary->unwritten;
  counts.written_more = summary->written_more;
  count_idle_threads(*lesson_, launch, counts);
  return counts;
}

BackgroundTrace::~BackgroundTrace() {
  if (lesson_) lesson_->release_device_data();
}

void BackgroundTrace::run(WorkWatch& watch) {
  const ScopedWorkWatch watching(watch);
  const auto start = std::chrono::steady_clock::now();
  // Off the session's thread an exception must not end the app: it becomes the outcome.
  Result<compute::TracedLaunch> traced = invalid_argument("the traced launch did not run");
  try {
    traced = lesson_->run_traced(*device_, sink_);
  } catch (const std::bad_alloc&) {
    traced = Error{ErrorKind::kOutOfMemory, "out of host memory for the traced launch"};
  } catch (const std::exception& e) {
    traced = invalid_argument(std::string("the traced launch failed: ") + e.what());
  }
  TracedOutcome outcome;
  outcome.launch_milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!traced) {
    outcome_ = traced.error();
    return;
  }
  outcome.launch = std::move(*traced);
  outcome.counts = count_host_records(*lesson_, outcome.launch, sink_.records());
  outcome_ = std::move(outcome);
}

bool LaunchSession::traces_in_background() const {
  if (backend_ != BackendKind::kEmulator || buffer_ == nullptr || !lesson_) return false;
  const std::uint64_t work =
      std::max(lesson_->data_shape().elements(), lesson_->launch_config().total_threads());
  return work >= kBackgroundTraceWork;
}

Result<std::unique_ptr<BackgroundTrace>> LaunchSession::prepare_background_trace() {
  if (!lesson_) return invalid_argument("no lesson selected");
  TL_RETURN_IF_ERROR(check_traceable());
  auto copy = copy_lesson();
  if (!copy) return copy.error();
  // The inputs the current lesson keeps for relaunches belong to the last launch on this thread:
  // the copy makes its own, and both at once would hold the memory twice (3 × 64 MiB at 2^24).
  lesson_->release_device_data();
  std::unique_ptr<BackgroundTrace> trace(new BackgroundTrace());
  trace->device_ = device_.get();
  trace->lesson_ = std::move(*copy);
  trace->lesson_->use_device(*device_);
  trace->config_ = trace->lesson_->launch_config();
  return trace;
}

Result<TracedOutcome> LaunchSession::finish_background_trace(BackgroundTrace& trace) {
  if (!trace.outcome_) return Error{ErrorKind::kCancelled, "cancelled"};
  Result<TracedOutcome> outcome = std::move(*trace.outcome_);
  trace.outcome_.reset();
  if (!outcome) return Error{outcome.error().kind, explain(outcome.message())};
  const double upload_start_ms = outcome->launch_milliseconds;
  const auto start = std::chrono::steady_clock::now();
  if (buffer_ != nullptr) TL_RETURN_IF_ERROR(buffer_->upload(trace.sink_.records()));
  // The records' delivery is part of a traced launch, as the upload sink's publish() is.
  outcome->launch_milliseconds =
      upload_start_ms +
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

std::span<const TraceRecord> LaunchSession::host_records() const {
  if (host_sink_ == nullptr) return {};
  return host_sink_->records();
}

Result<compute::LessonReport> LaunchSession::time(compute::Lesson& lesson,
                                                  const std::atomic<bool>* cancel) {
  TL_RETURN_IF_ERROR(lesson.check_watchdog(*device_));
  auto report = lesson.run_timed(*device_, cancel);
  if (!report) return Error{report.error().kind, explain(report.message())};
  return report;
}

LaunchSession::Recovery LaunchSession::recover_from_device_error(const Error& error) {
  if (error.kind != ErrorKind::kCudaStickyError) return {};
  // The context is gone, with every allocation and interop registration in it: reset, start over.
  if (lesson_) lesson_->release_device_data();
  sink_.reset();
  host_sink_ = nullptr;
  // The trace buffer may have been mapped for CUDA when the kernel faulted, and a dead context
  // cannot unmap it: OpenGL would read zeros from it for good. A new buffer starts clean.
  if (buffer_ != nullptr) buffer_->release();
  if (device_->reset()) {
    make_sink();
    return {"The GPU was reset after a fatal kernel error; you can launch again.", false};
  }
  // CUDA documents that after some faults (an illegal address among them) the process must end
  // before the GPU can be used again. Keep the lesson going on the emulator rather than stop.
  const std::string why = "The GPU hit a fatal error (" + error.message +
                          ") and cannot be used again until ThreadLab restarts; the lesson goes "
                          "on on the CPU emulator.";
  switch_to_emulator(why);
  return {why, true};
}

void LaunchSession::switch_to_emulator(const std::string& why) {
  if (lesson_) lesson_->release_device_data();  // it belongs to the device about to go
  sink_.reset();
  device_ = compute::make_emulator_device();
  if (lesson_) lesson_->use_device(*device_);
  backend_ = BackendKind::kEmulator;
  backend_reason_ = why;
  make_sink();
}

}  // namespace tl::interop
