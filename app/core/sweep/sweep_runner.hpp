#pragma once
// Runs a benchmark sweep on one background thread so the UI keeps drawing while the GPU and CPU
// are measured, and hands finished points to the UI as they come.
//
// One thread, jobs in order, on purpose: timings taken concurrently would disturb each other (the
// CPU reference competes for cores and memory bandwidth, two GPU jobs share the device).

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.hpp"
#include "core/sweep/sweep_point.hpp"
#include "core/work_watch.hpp"

namespace tl {

struct SweepJob {
  std::string label;  // shown while it runs: "N = 2^20"
  // Measures one point. Long jobs should poll `cancel` between repeats and return an error of kind
  // kCancelled when it is set, so Cancel answers quickly.
  std::function<Result<SweepPoint>(const std::atomic<bool>& cancel)> run;
};

enum class OnJobError {
  kContinue,  // record the error and go on: one size out of memory should not lose the others
  kStop,      // record the error and end the sweep: e.g. a sticky CUDA error ruins every later job
};

struct SweepOptions {
  OnJobError on_error = OnJobError::kContinue;
  // Each job runs under a WorkWatch (core/work_watch.hpp) holding the cancel flag: the emulator's
  // grids it launches count their blocks (SweepProgress::job_*) and stop at the next block on
  // cancel(), so Cancel answers within a block, not at the end of a grid of minutes. Only for jobs
  // whose half-run grid is thrown away (measurements); a job that keeps state between grids (a
  // training step) polls its flag itself.
  bool watch_grids = false;
};

enum class SweepState {
  kIdle,  // nothing started yet
  kRunning,
  kFinished,  // every job ran (some may have failed: see SweepProgress::failed)
  kStopped,   // a job failed and SweepOptions asked to stop
  kCancelled,
};

struct SweepProgress {
  std::size_t done = 0;    // jobs finished, failed ones included
  std::size_t failed = 0;  // jobs that returned an error (a job cancelled by cancel() is neither)
  std::size_t total = 0;
  std::string current_label;  // the running job's label, empty when none is running
  SweepState state = SweepState::kIdle;
  // The running job, with SweepOptions::watch_grids: the emulated grids it launched so far, the
  // share of the last one done, and how long it has run (seconds; 0 when none is running).
  std::uint64_t job_grids = 0;
  float job_grid_fraction = 0;
  double job_seconds = 0;
};

struct SweepFailure {
  std::size_t job_index = 0;
  std::string label;
  Error error;
};

class SweepRunner {
 public:
  SweepRunner() = default;
  // Cancels a running sweep and waits for its current job to return.
  ~SweepRunner();
  SweepRunner(const SweepRunner&) = delete;
  SweepRunner& operator=(const SweepRunner&) = delete;

  // Starts running `jobs` in order on the background thread. Fails with kInvalidArgument while a
  // sweep is running. Points and failures not yet taken from a previous sweep are dropped.
  [[nodiscard]] Status start(std::vector<SweepJob> jobs, SweepOptions options = {});

  // Asks the sweep to stop: no further job starts, and the running one sees its cancel flag set.
  // Returns at once; is_running() turns false when the running job has returned.
  void cancel();

  // Blocks until the background thread is done. Call from the thread that calls start().
  void wait();

  [[nodiscard]] bool is_running() const { return running_.load(std::memory_order_acquire); }
  [[nodiscard]] SweepProgress progress() const;

  // Points finished since the last call, in job order. Only a brief lock is taken (never held
  // while a job runs), so the UI thread can call these every frame.
  [[nodiscard]] std::vector<SweepPoint> take_new_points();
  [[nodiscard]] std::vector<SweepFailure> take_new_failures();

 private:
  void run_jobs(std::vector<SweepJob> jobs, SweepOptions options);

  std::atomic<bool> cancel_requested_{false};
  std::atomic<bool> running_{false};

  // The running job's grids (SweepOptions::watch_grids), read by progress() without the lock.
  WorkWatch watch_;
  bool watching_ = false;

  mutable std::mutex mutex_;  // guards everything below it except worker_
  SweepProgress progress_;
  std::chrono::steady_clock::time_point job_started_{};
  std::vector<SweepPoint> new_points_;
  std::vector<SweepFailure> new_failures_;

  // Last member: destroyed (joined) first, while the state the thread uses is still alive.
  std::jthread worker_;
};

}  // namespace tl
