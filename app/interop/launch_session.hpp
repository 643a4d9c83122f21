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
  // A fresh copy of the current lesson with its values, for a measurement in the background.
  Result<std::unique_ptr<compute::Lesson>> copy_lesson() const;

  // The current configuration's problems against the device's limits (CUDA will refuse it).
  [[nodiscard]] std::vector<LaunchProblem> problems() const;
  // A failed launch's message, with the reason the configuration is invalid where CUDA's own
  // words do not already give it.
  [[nodiscard]] std::string explain(const std::string& message) const;

  // Refuses a launch that could outlast a display's watchdog.
  [[nodiscard]] Status check_watchdog() const;
  // One traced launch of the current lesson, its records where the session keeps them.
  Result<TracedOutcome> trace();
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
