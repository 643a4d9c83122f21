#include "core/sweep/sweep_runner.hpp"

#include <exception>
#include <new>
#include <utility>

namespace tl {
namespace {

// A job that throws must not take the app down with std::terminate on the worker thread: the
// exception becomes that point's error, like any other failure.
Result<SweepPoint> run_job_safely(const SweepJob& job, const std::atomic<bool>& cancel) {
  if (!job.run) return invalid_argument("Sweep job \"" + job.label + "\" has nothing to run");
  try {
    return job.run(cancel);
  } catch (const std::bad_alloc&) {
    return Error{ErrorKind::kOutOfMemory, "Out of host memory while measuring " + job.label};
  } catch (const std::exception& e) {
    return invalid_argument("Measuring " + job.label + " failed: " + e.what());
  } catch (...) {
    return invalid_argument("Measuring " + job.label + " failed with an unknown exception");
  }
}

}  // namespace

SweepRunner::~SweepRunner() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

Status SweepRunner::start(std::vector<SweepJob> jobs, SweepOptions options) {
  if (is_running()) return invalid_argument("A sweep is already running; cancel it first");
  if (worker_.joinable()) worker_.join();  // the previous sweep's thread, already finished

  cancel_requested_.store(false);
  watch_.reset();
  watch_.cancel = &cancel_requested_;
  watching_ = options.watch_grids;
  {
    std::lock_guard lock(mutex_);
    progress_ = SweepProgress{};
    progress_.total = jobs.size();
    progress_.state = SweepState::kRunning;
    new_points_.clear();
    new_failures_.clear();
  }
  running_.store(true, std::memory_order_release);
  worker_ = std::jthread(
      [this, jobs = std::move(jobs), options]() mutable { run_jobs(std::move(jobs), options); });
  return Status::ok();
}

void SweepRunner::cancel() {
  cancel_requested_.store(true);
  // Jobs may block in cancel.wait(false) instead of polling.
  cancel_requested_.notify_all();
}

void SweepRunner::wait() {
  if (worker_.joinable()) worker_.join();
}

SweepProgress SweepRunner::progress() const {
  std::lock_guard lock(mutex_);
  SweepProgress progress = progress_;
  if (!progress.current_label.empty()) {
    progress.job_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - job_started_).count();
    if (watching_) {
      progress.job_grids = watch_.grids.load(std::memory_order_relaxed);
      progress.job_grid_fraction = watch_.grid_fraction();
    }
  }
  return progress;
}

std::vector<SweepPoint> SweepRunner::take_new_points() {
  std::lock_guard lock(mutex_);
  return std::exchange(new_points_, {});
}

std::vector<SweepFailure> SweepRunner::take_new_failures() {
  std::lock_guard lock(mutex_);
  return std::exchange(new_failures_, {});
}

void SweepRunner::run_jobs(std::vector<SweepJob> jobs, SweepOptions options) {
  SweepState final_state = SweepState::kFinished;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (cancel_requested_.load()) {
      final_state = SweepState::kCancelled;
      break;
    }
    {
      std::lock_guard lock(mutex_);
      progress_.current_label = jobs[i].label;
      job_started_ = std::chrono::steady_clock::now();
      watch_.reset();
    }
    Result<SweepPoint> result = [&] {
      if (!options.watch_grids) return run_job_safely(jobs[i], cancel_requested_);
      const ScopedWorkWatch watching(watch_);
      return run_job_safely(jobs[i], cancel_requested_);
    }();

    std::lock_guard lock(mutex_);
    if (result.is_ok()) {
      // A point completed after cancel() is still a valid measurement: keep it.
      new_points_.push_back(std::move(result.value()));
      ++progress_.done;
      continue;
    }
    if (result.error().kind == ErrorKind::kCancelled && cancel_requested_.load()) {
      final_state = SweepState::kCancelled;
      break;
    }
    new_failures_.push_back({i, jobs[i].label, result.error()});
    ++progress_.done;
    ++progress_.failed;
    if (options.on_error == OnJobError::kStop) {
      final_state = SweepState::kStopped;
      break;
    }
  }
  {
    std::lock_guard lock(mutex_);
    progress_.current_label.clear();
    progress_.state = final_state;
  }
  running_.store(false, std::memory_order_release);
}

}  // namespace tl
