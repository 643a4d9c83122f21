#pragma once
// The window's launches of the current lesson: the traced launch now (the picture), or in the
// background where the emulator takes seconds over it; then the untraced kernels timed in the
// background (with the device's ceilings the first time, and hardware counters when asked);
// Cancel; and the recovery after a sticky CUDA error. Owns the launch session (the device, the
// lesson, the trace sink) and the one background runner that launches and sweeps share: one job
// at a time, so that measurements do not disturb each other. What may be done with a launch
// (refused, timed only, traced) is the session's to decide (LaunchSession::admit), asked once per
// launch; this shows the answer. Writes what it does into the AppState the panels read. UI
// thread only, with the OpenGL context current (the session writes into the window's buffer).

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "app_state.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/result.hpp"
#include "core/sweep/sweep_runner.hpp"
#include "core/work_watch.hpp"
#include "interop/backend_selection.hpp"
#include "interop/launch_session.hpp"
#include "render/trace_buffer.hpp"

namespace tl::ui {

// What the background runner was last given: the launches' jobs (their results are collected
// here) or a sweep's (its points go to the plot).
enum class RunnerWork { kLaunch, kSweep };

class LaunchCoordinator {
 public:
  // What the window around the launches does when they change what it shows.
  class Host {
   public:
    // Before the device is reset or replaced: the other holders of its memory (the lesson's live
    // work) let go of it.
    virtual void release_device() = 0;
    // After the reset (or the move to the emulator): they may come back.
    virtual void device_back() = 0;
    // The emulator took over: what the window shows of the device follows (its limits, the
    // lesson text's figures, the kernels' resources, the Lab's backend).
    virtual void device_replaced() = 0;
    // A new picture was traced: the mapping view fits it to its panel.
    virtual void picture_replaced() = 0;
    // The device's ceilings arrived (the plot draws them as guides).
    virtual void ceilings_changed() = 0;

   protected:
    ~Host() = default;
  };

  // The session on `backend`, its traced launches writing into `buffer` (which must outlive it),
  // opened on `lesson_id` (the first lesson where that one cannot be opened).
  static Result<std::unique_ptr<LaunchCoordinator>> open(
      interop::BackendPreference backend, render::TraceBuffer& buffer,
      std::optional<std::filesystem::path> ceilings_cache, std::string_view lesson_id,
      AppState& state, Host& host);
  // Stops the background work (its jobs hold the session's device).
  ~LaunchCoordinator();
  LaunchCoordinator(const LaunchCoordinator&) = delete;
  LaunchCoordinator& operator=(const LaunchCoordinator&) = delete;

  [[nodiscard]] interop::LaunchSession& session() { return *session_; }
  [[nodiscard]] compute::Lesson& lesson() { return *session_->lesson(); }
  [[nodiscard]] const compute::Lesson& lesson() const { return *session_->lesson(); }
  [[nodiscard]] compute::Device& device() { return session_->device(); }

  // Makes `id` the current lesson, at its defaults for the backend; the runner must be idle.
  Status open_lesson(std::string_view id);

  // Background work runs (a traced launch, a timed run, a sweep) or a sweep waits for its picture.
  [[nodiscard]] bool busy() const { return runner_.is_running() || sweep_after_trace_.has_value(); }
  [[nodiscard]] bool runner_running() const { return runner_.is_running(); }
  [[nodiscard]] RunnerWork runner_work() const { return runner_work_; }

  // Traced launch of the current controls now (the picture), then, if `timed`, the untraced
  // kernels timed in the background. The caller has made sure nothing else holds the device.
  void launch(bool timed);
  // Stops the background work, a launch's or a sweep's, and a sweep waiting for its picture.
  void cancel();
  // The same, and waits for the runner to stop; false when nothing was running.
  bool stop_and_wait();
  // Waits (sleeping, never spinning) while the runner runs, at most until `deadline`.
  void wait_for_runner(std::chrono::steady_clock::time_point deadline) const;

  // A sweep link's sweep: it starts (take_due_sweep) once the picture its link asked for has been
  // traced in the background, or at once where none is being traced.
  void sweep_after_picture(SweepKind kind) { sweep_after_trace_ = kind; }
  [[nodiscard]] bool tracing_in_background() const { return pending_trace_ != nullptr; }
  // The waiting sweep, once its picture is drawn and the runner is free (then it waits no more).
  std::optional<SweepKind> take_due_sweep();
  // Runs a sweep's jobs on the runner (one failed size does not stop the others).
  Status start_sweep(std::vector<SweepJob> jobs);
  [[nodiscard]] SweepRunner& runner() { return runner_; }

  // Once per frame while the runner does the launches' work: the background trace's progress and
  // picture, the timed run's table, the ceilings and the counters. `running`: the runner's state
  // when the frame began.
  void collect(bool running);

  // A sticky CUDA error: stops the background work, resets the device and the trace path, or,
  // where CUDA cannot recover within the process, carries on on the emulator; says which. Other
  // errors need nothing.
  void recover(const Error& error);

 private:
  LaunchCoordinator(AppState& state, Host& host, render::TraceBuffer& buffer)
      : state_(state), host_(host), buffer_(buffer) {}
  // A new, empty picture state for `launched`.
  TraceView& begin_trace_view(const LaunchedWith& launched);
  // A traced launch's outcome into the picture state begun for it.
  void show_traced(Result<interop::TracedOutcome> traced);
  void start_background_trace(std::unique_ptr<interop::BackgroundTrace> prepared, bool timed);
  // Takes a background trace's outcome once it ran (or the runner stopped before it ran).
  void collect_background_trace(bool running);
  void start_timed_run();
  // The timed run's job for the current controls, its state written into `timed`; none (and
  // `timed` says why) where it cannot be prepared.
  std::optional<SweepJob> make_timed_job(TimedRun& timed);
  void post(Severity severity, std::string text) {
    post_message(state_, severity, std::move(text));
  }

  AppState& state_;
  Host& host_;
  render::TraceBuffer& buffer_;
  std::unique_ptr<interop::LaunchSession> session_;
  std::optional<std::filesystem::path> ceilings_cache_;
  bool ceilings_requested_ = false;  // measured (or tried) once per device
  // The result slot of a single timed launch, filled by the background job.
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
  RunnerWork runner_work_ = RunnerWork::kSweep;
  // Last member: stopped first, while what its jobs use is still alive.
  SweepRunner runner_;
};

}  // namespace tl::ui
