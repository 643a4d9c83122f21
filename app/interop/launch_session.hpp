#pragma once
// One launch path for the window and every command. A session owns the device (chosen along the
// fallback chain interop → copy → emulator), the current lesson and where its traced launches
// write. It decides, in one place:
//   - the lesson's defaults for the backend (the emulator opens on smaller sizes);
//   - what a launch checks first (the configuration against the device's limits, the display
//     watchdog, the picture's size limit);
//   - the traced launch and its fallback (an interop failure moves to the copy path and retries);
//   - the counts drawn and printed (never-written and written-twice elements, idle threads, counted
//     only where one thread owns at most one element);
//   - what a sticky CUDA error means (reset, else the emulator takes over).
// The window (AppController), `run`, `render`, `bench` and the sweeps present what it reports.

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backend_selection.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/trace_sink.hpp"
#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/work_watch.hpp"
#include "render/trace_buffer.hpp"

namespace tl::interop {

// The traced view's records live in one buffer of 16-byte records: 2^24 of them are 256 MiB.
inline constexpr std::uint64_t kMaxTracedElements = std::uint64_t{1} << 24;

struct TraceCounts {
  std::uint64_t unwritten = 0;     // elements no thread wrote
  std::uint64_t written_more = 0;  // elements written more than once
  // Threads that wrote nothing: only where each thread owns at most one element and the kernel ran
  // with the configuration asked for (a grid-stride loop, a register tile or the dense layer's
  // warp-per-element kernels would make "threads minus elements written" a wrong count).
  std::optional<std::uint64_t> idle_threads;
};

// "250 elements, 0 never written, 6 idle threads", as the CLI prints and the window shows: idle
// threads only where they are counted.
[[nodiscard]] std::string describe_counts(std::uint64_t elements, const TraceCounts& counts);

struct TracedOutcome {
  compute::TracedLaunch launch;  // the shape, the configuration that ran, the check, the blocks
  TraceCounts counts;
  std::string fallback;  // set when the trace path fell back (interop → copy): why
  // The traced launch itself (records delivered where they are drawn), without the counting.
  double launch_milliseconds = 0;
};

// A traced launch that runs away from the session's thread, so that a window keeps drawing while
// the emulator traces a large grid (seconds on a CPU). The session prepares it with trace()'s
// checks, any one thread runs it (on a copy of the lesson, its records kept in host memory and
// counted there), and the session finishes it on its own thread, delivering the records where
// trace() delivers them.
class BackgroundTrace {
 public:
  ~BackgroundTrace();
  BackgroundTrace(const BackgroundTrace&) = delete;
  BackgroundTrace& operator=(const BackgroundTrace&) = delete;
  // Runs the launch once; an emulated grid answers `watch`'s cancel at its next block (the
  // outcome is then an error of kind kCancelled) and counts its blocks there for a progress bar.
  void run(WorkWatch& watch);
  // The launch's configuration and data, as prepared.
  [[nodiscard]] LaunchConfig config() const { return config_; }

 private:
  friend class LaunchSession;
  BackgroundTrace() = default;
  compute::Device* device_ = nullptr;
  std::unique_ptr<compute::Lesson> lesson_;
  LaunchConfig config_;
  compute::HostTraceSink sink_;
  std::optional<Result<TracedOutcome>> outcome_;  // set by run()
};

class LaunchSession {
 public:
  // `buffer`: the OpenGL buffer traced launches write into (an OpenGL context is current on this
  // thread for the session's lifetime), or null for records kept in host memory (`run --trace`,
  // tests).
  static Result<std::unique_ptr<LaunchSession>> open(BackendPreference preference,
                                                     render::TraceBuffer* buffer);
  ~LaunchSession();
  LaunchSession(const LaunchSession&) = delete;
  LaunchSession& operator=(const LaunchSession&) = delete;

  [[nodiscard]] compute::Device& device() { return *device_; }
  [[nodiscard]] const compute::Device& device() const { return *device_; }
  [[nodiscard]] BackendKind backend() const { return backend_; }
  [[nodiscard]] const std::string& backend_reason() const { return backend_reason_; }
  // Null until a lesson is selected.
  [[nodiscard]] compute::Lesson* lesson() { return lesson_.get(); }
  [[nodiscard]] const compute::Lesson* lesson() const { return lesson_.get(); }

  // Makes `id` the current lesson at its defaults for this backend. Returns the values that
  // replaced the lesson's own defaults (the emulator's smaller sizes; empty: none), so that a
  // command can say which it chose.
  Result<lessons::ParamValues> select_lesson(std::string_view id);
  // Makes `lesson`, already configured by its caller (the command line's values), the current
  // lesson, with this backend's defaults applied to every parameter not named in `chosen` (the
  // values the caller set, under any of their names). Returns the values the backend chose, as
  // select_lesson does. On error the session keeps its previous lesson.
  Result<lessons::ParamValues> adopt_lesson(std::unique_ptr<compute::Lesson> lesson,
                                            const lessons::ParamValues& chosen);
  // Values a lesson link asks for, fitted to this backend: on the emulator, a size more than
  // kEmulatorLinkScale times the lesson's emulator default (a link written for a GPU's 32M
  // elements) becomes that default, so that following a link never freezes the window for
  // minutes. Returns the values it replaced, each with what the link asked (empty: none); on a GPU
  // nothing changes.
  struct ScaledValue {
    std::string name;
    std::string asked;
    std::string runs;
  };
  std::vector<ScaledValue> fit_link_values(lessons::ParamValues& values) const;
  static constexpr std::uint64_t kEmulatorLinkScale = 4;
  // A fresh copy of the current lesson with its values, for a measurement in the background.
  Result<std::unique_ptr<compute::Lesson>> copy_lesson() const;

  // The current configuration's problems against the device's limits (CUDA will refuse it).
  [[nodiscard]] std::vector<LaunchProblem> problems() const;
  // A failed launch's message, with the reason the configuration is invalid where CUDA's own
  // words do not already give it.
  [[nodiscard]] std::string explain(const std::string& message) const;

  // Refuses a launch that could outlast a display's watchdog.
  [[nodiscard]] Status check_watchdog() const;
  // What a launch of the current lesson may do, decided here once so that no caller checks again:
  // be refused, be timed only, or be traced (and timed).
  struct Admission {
    // Refused where it could outlast a display's watchdog (ErrorKind::kTooSlow, with why):
    // neither traced nor timed.
    Status refused;
    // Why it is timed but not traced (more elements than a picture holds); empty: it can be
    // drawn. Set whether or not the launch is refused, for a caller that asks only about tracing.
    std::string timed_only;
    [[nodiscard]] bool traceable() const { return refused.is_ok() && timed_only.empty(); }
  };
  [[nodiscard]] Admission admit() const;
  // One traced launch of the current lesson, its records where the session keeps them.
  Result<TracedOutcome> trace();
  // Whether the current launch should be traced in the background (BackgroundTrace) by a caller
  // that draws frames: on the emulator, into a window's buffer, from kBackgroundTraceWork threads
  // or elements up (a rule of thumb: there a trace takes long enough to be seen as a frozen
  // window; on a GPU the whole traced launch takes milliseconds).
  [[nodiscard]] bool traces_in_background() const;
  static constexpr std::uint64_t kBackgroundTraceWork = std::uint64_t{1} << 20;
  // The current launch, checked as trace() checks it, ready to run on another thread.
  Result<std::unique_ptr<BackgroundTrace>> prepare_background_trace();
  // On the session's thread, after `trace` ran: its records delivered where trace() delivers
  // them (uploaded to the window's buffer), and its outcome. A cancelled or failed launch delivers
  // nothing: what was drawn before stays.
  Result<TracedOutcome> finish_background_trace(BackgroundTrace& trace);
  // The records of the last traced launch, when they are kept in host memory.
  [[nodiscard]] std::span<const TraceRecord> host_records() const;
  // The untraced kernels of `lesson` (the current one, or a copy) timed on this device.
  Result<compute::LessonReport> time(compute::Lesson& lesson,
                                     const std::atomic<bool>* cancel = nullptr);

  // A sticky CUDA error lost the context: reset the device (and the trace path), or, where CUDA
  // cannot recover within the process, carry on on the emulator. Anything that holds the device
  // (background jobs) must have stopped.
  struct Recovery {
    std::string message;             // the one sentence to show
    bool moved_to_emulator = false;  // the device was replaced: its limits and ceilings with it
  };
  Recovery recover_from_device_error(const Error& error);
  // Moves to the CPU emulator for good, with `why` as the backend's reason.
  void switch_to_emulator(const std::string& why);

 private:
  LaunchSession() = default;
  void make_sink();
  // What every traced launch checks first (admit()), as a status: the display watchdog, then the
  // picture's size limit.
  [[nodiscard]] Status check_traceable() const;
  Result<TraceCounts> count(const compute::TracedLaunch& launch);

  std::unique_ptr<compute::Device> device_;
  BackendKind backend_ = BackendKind::kEmulator;
  std::string backend_reason_;
  render::TraceBuffer* buffer_ = nullptr;
  std::unique_ptr<compute::TraceSink> sink_;
  compute::HostTraceSink* host_sink_ = nullptr;  // sink_, when records stay in host memory
  std::unique_ptr<compute::Lesson> lesson_;
};

}  // namespace tl::interop
