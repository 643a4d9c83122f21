#include "core/sweep/sweep_runner.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <stdexcept>
#include <string>
#include <vector>

namespace tl {
namespace {

SweepPoint point_at(double x) {
  return SweepPoint{x, {{{TimingRole::kCpuOneThread, ""}, "CPU", TimingStats{x, x, x, 1}}}};
}

SweepJob job_returning(double x) {
  return {"N = " + std::to_string(static_cast<int>(x)),
          [x](const std::atomic<bool>&) -> Result<SweepPoint> { return point_at(x); }};
}

SweepJob job_failing(std::string message, ErrorKind kind = ErrorKind::kOutOfMemory) {
  return {"failing", [message, kind](const std::atomic<bool>&) -> Result<SweepPoint> {
            return Error{kind, message};
          }};
}

std::vector<double> xs(const std::vector<SweepPoint>& points) {
  std::vector<double> out;
  for (const SweepPoint& p : points) out.push_back(p.x);
  return out;
}

TEST(SweepPoint, FindsTimingsByWhatTheyMeasureNotByName) {
  const SweepPoint p{1,
                     {{{TimingRole::kCpuOneThread, ""}, "GPU", {1, 1, 1, 1}},
                      {{TimingRole::kKernel, "tiled"}, "CPU", {2, 2, 2, 3}}}};
  ASSERT_NE(p.find({TimingRole::kKernel, "tiled"}), nullptr);
  EXPECT_EQ(p.find({TimingRole::kKernel, "tiled"})->repeats, 3);
  EXPECT_EQ(p.find({TimingRole::kKernel, "naive"}), nullptr);
  EXPECT_EQ(p.find({TimingRole::kLibrary, "tiled"}), nullptr);
}

TEST(SweepRunner, RunsJobsInOrderAndReportsProgress) {
  SweepRunner runner;
  EXPECT_EQ(runner.progress().state, SweepState::kIdle);
  std::vector<SweepJob> jobs;
  for (int i = 1; i <= 5; ++i) jobs.push_back(job_returning(i * 10.0));
  ASSERT_TRUE(runner.start(std::move(jobs)).is_ok());
  runner.wait();

  EXPECT_FALSE(runner.is_running());
  const SweepProgress progress = runner.progress();
  EXPECT_EQ(progress.done, 5u);
  EXPECT_EQ(progress.total, 5u);
  EXPECT_EQ(progress.failed, 0u);
  EXPECT_EQ(progress.state, SweepState::kFinished);
  EXPECT_TRUE(progress.current_label.empty());
  EXPECT_EQ(xs(runner.take_new_points()), (std::vector<double>{10, 20, 30, 40, 50}));
  EXPECT_TRUE(runner.take_new_points().empty());  // taken once
}

TEST(SweepRunner, PointsArriveWhileTheSweepRuns) {
  SweepRunner runner;
  std::latch first_done(1);
  std::latch release_second(1);
  std::vector<SweepJob> jobs;
  jobs.push_back(
      {"first", [&](const std::atomic<bool>&) -> Result<SweepPoint> { return point_at(1); }});
  jobs.push_back({"second", [&](const std::atomic<bool>&) -> Result<SweepPoint> {
                    first_done.count_down();  // the first point has been published by now
                    release_second.wait();
                    return point_at(2);
                  }});
  ASSERT_TRUE(runner.start(std::move(jobs)).is_ok());
  first_done.wait();

  EXPECT_TRUE(runner.is_running());
  const SweepProgress progress = runner.progress();
  EXPECT_EQ(progress.done, 1u);
  EXPECT_EQ(progress.current_label, "second");
  EXPECT_EQ(xs(runner.take_new_points()), (std::vector<double>{1}));
  EXPECT_FALSE(runner.start({job_returning(9)}).is_ok());  // one sweep at a time

  release_second.count_down();
  runner.wait();
  EXPECT_EQ(xs(runner.take_new_points()), (std::vector<double>{2}));
}

TEST(SweepRunner, CancelStopsMidWay) {
  SweepRunner runner;
  std::latch second_started(1);
  std::atomic<int> later_jobs_run{0};
  std::vector<SweepJob> jobs;
  jobs.push_back(job_returning(1));
  jobs.push_back(
      {"blocks until cancelled", [&](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
         second_started.count_down();
         cancel.wait(false);  // woken by cancel()'s notify
         return Error{ErrorKind::kCancelled, "cancelled"};
       }});
  for (int i = 0; i < 3; ++i) {
    jobs.push_back({"later", [&](const std::atomic<bool>&) -> Result<SweepPoint> {
                      ++later_jobs_run;
                      return point_at(99);
                    }});
  }
  ASSERT_TRUE(runner.start(std::move(jobs)).is_ok());
  second_started.wait();
  runner.cancel();
  runner.wait();

  EXPECT_EQ(later_jobs_run.load(), 0);
  const SweepProgress progress = runner.progress();
  EXPECT_EQ(progress.state, SweepState::kCancelled);
  EXPECT_EQ(progress.done, 1u);
  EXPECT_EQ(progress.failed, 0u);  // a cancelled job is not a failure
  EXPECT_EQ(xs(runner.take_new_points()), (std::vector<double>{1}));
  EXPECT_TRUE(runner.take_new_failures().empty());
}

// With watch_grids each job runs under a WorkWatch holding the runner's cancel flag: the grids the
// emulator launches on the job's thread count into the progress, and Cancel reaches them. Without
// it (training steps keep state between grids) no watch is installed.
TEST(SweepRunner, AWatchedJobsGridsShowInItsProgressAndSeeCancel) {
  SweepRunner runner;
  std::latch counted(1);
  std::atomic<bool> saw_cancel{false};
  std::vector<SweepJob> jobs;
  jobs.push_back({"watched", [&](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
                    WorkWatch* watch = current_work_watch();
                    if (watch == nullptr) return invalid_argument("no watch");
                    // What the emulator's grid executor does: two grids, the second a quarter done.
                    watch->grids = 2;
                    watch->grid_blocks = 8;
                    watch->total = 16;
                    watch->done = 10;
                    counted.count_down();
                    cancel.wait(false);
                    saw_cancel = watch->cancelled();
                    return Error{ErrorKind::kCancelled, "cancelled"};
                  }});
  ASSERT_TRUE(runner.start(std::move(jobs), {.watch_grids = true}).is_ok());
  counted.wait();
  const SweepProgress progress = runner.progress();
  EXPECT_EQ(progress.current_label, "watched");
  EXPECT_EQ(progress.job_grids, 2u);
  EXPECT_FLOAT_EQ(progress.job_grid_fraction, 0.25f);
  EXPECT_GE(progress.job_seconds, 0.0);
  runner.cancel();
  runner.wait();
  EXPECT_TRUE(saw_cancel.load());
  EXPECT_EQ(runner.progress().state, SweepState::kCancelled);
  EXPECT_EQ(runner.progress().job_grids, 0u);  // nothing runs

  std::atomic<bool> watched{true};
  ASSERT_TRUE(runner
                  .start({{"unwatched",
                           [&](const std::atomic<bool>&) -> Result<SweepPoint> {
                             watched = current_work_watch() != nullptr;
                             return point_at(1);
                           }}})
                  .is_ok());
  runner.wait();
  EXPECT_FALSE(watched.load());
}

TEST(SweepRunner, ErrorsAreRecordedAndTheSweepContinues) {
  SweepRunner runner;
  ASSERT_TRUE(
      runner.start({job_returning(1), job_failing("out of device memory"), job_returning(3)})
          .is_ok());
  runner.wait();
  const SweepProgress progress = runner.progress();
  EXPECT_EQ(progress.state, SweepState::kFinished);
  EXPECT_EQ(progress.done, 3u);
  EXPECT_EQ(progress.failed, 1u);
  EXPECT_EQ(xs(runner.take_new_points()), (std::vector<double>{1, 3}));
  const std::vector<SweepFailure> failures = runner.take_new_failures();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].job_index, 1u);
  EXPECT_EQ(failures[0].label, "failing");
  EXPECT_EQ(failures[0].error.kind, ErrorKind::kOutOfMemory);
  EXPECT_EQ(failures[0].error.message, "out of device memory");
}

TEST(SweepRunner, StopOnErrorEndsTheSweep) {
  SweepRunner runner;
  ASSERT_TRUE(runner
                  .start({job_returning(1), job_failing("sticky", ErrorKind::kCudaStickyError),
                          job_returning(3)},
                         {.on_error = OnJobError::kStop})
                  .is_ok());
  runner.wait();
  const SweepProgress progress = runner.progress();
  EXPECT_EQ(progress.state, SweepState::kStopped);
  EXPECT_EQ(progress.done, 2u);
  EXPECT_EQ(xs(runner.take_new_points()), (std::vector<double>{1}));
  EXPECT_EQ(runner.take_new_failures().size(), 1u);
}

TEST(SweepRunner, ThrowingJobBecomesAnError) {
  SweepRunner runner;
  std::vector<SweepJob> jobs;
  jobs.push_back({"throws", [](const std::atomic<bool>&) -> Result<SweepPoint> {
                    throw std::runtime_error("boom");
                  }});
  jobs.push_back({"empty", nullptr});
  jobs.push_back(job_returning(3));
  ASSERT_TRUE(runner.start(std::move(jobs)).is_ok());
  runner.wait();
  const std::vector<SweepFailure> failures = runner.take_new_failures();
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_NE(failures[0].error.message.find("boom"), std::string::npos);
  EXPECT_EQ(xs(runner.take_new_points()), (std::vector<double>{3}));
}

TEST(SweepRunner, CanRunAgainAfterFinishing) {
  SweepRunner runner;
  ASSERT_TRUE(runner.start({job_returning(1)}).is_ok());
  runner.wait();
  ASSERT_TRUE(runner.start({job_returning(2), job_returning(4)}).is_ok());
  runner.wait();
  EXPECT_EQ(xs(runner.take_new_points()), (std::vector<double>{2, 4}));  // the first one dropped
  EXPECT_EQ(runner.progress().total, 2u);
}

TEST(SweepRunner, DestructorCancelsARunningSweep) {
  std::latch started(1);
  std::atomic<bool> saw_cancel{false};
  {
    SweepRunner runner;
    ASSERT_TRUE(runner
                    .start({{"waits",
                             [&](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
                               started.count_down();
                               cancel.wait(false);
                               saw_cancel = true;
                               return Error{ErrorKind::kCancelled, "cancelled"};
                             }}})
                    .is_ok());
    started.wait();
  }  // must not hang
  EXPECT_TRUE(saw_cancel.load());
}

TEST(SweepRunner, EmptySweepFinishesAtOnce) {
  SweepRunner runner;
  ASSERT_TRUE(runner.start({}).is_ok());
  runner.wait();
  EXPECT_EQ(runner.progress().state, SweepState::kFinished);
  EXPECT_EQ(runner.progress().total, 0u);
}

}  // namespace
}  // namespace tl
