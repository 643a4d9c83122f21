// Lesson 7 on a real GPU: the pipeline's output is right on every memory; its timeline, measured
// with CUDA events, keeps each chunk's order (copy in, kernel, copy out) and each engine's one
// operation at a time; with 4 streams from pinned memory, copies really run under other streams'
// kernels; managed memory runs with and without prefetching; every schedule of section 2 keeps
// its order, and the legacy default stream between blocking streams is a barrier. No timing
// assertions: `threadlab bench --suite perf` reports the targets.

#include <gtest/gtest.h>

#include <iostream>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/07_moving_data/moving_data.hpp"
#include "lessons/07_moving_data/moving_data_runner.hpp"

namespace tl::testing {
namespace {

using compute::MovingDataRequest;
using lessons::HostMemory;
using lessons::Stage;
using lessons::TimelineOp;

class MovingDataGpu : public GpuTest {};

MovingDataRequest pipeline_request(HostMemory memory) {
  MovingDataRequest request;
  request.params.bytes = 32ull << 20;
  request.params.chunks = 16;
  request.params.streams = 4;
  request.params.memory = memory;
  request.params.rounds = 0;  // balanced with the copy: overlap has the most to win
  request.repeats = 2;
  request.copy_sweep_top = 1 << 20;
  request.dense_in = 256;
  request.dense_out = 256;
  request.batch_sizes = {1, 16, 256};
  request.time_cpu = false;
  return request;
}

// Milliseconds during which a copy of one chunk ran while the kernel of another chunk ran.
double copy_under_kernel_ms(const std::vector<TimelineOp>& ops) {
  double overlap = 0;
  for (const TimelineOp& copy : ops) {
    if (copy.stage == Stage::kKernel) continue;
    for (const TimelineOp& kernel : ops) {
      if (kernel.stage != Stage::kKernel || kernel.chunk == copy.chunk) continue;
      overlap += std::max(
          0.0, std::min(copy.end_ms, kernel.end_ms) - std::max(copy.start_ms, kernel.start_ms));
    }
  }
  return overlap;
}

TEST_F(MovingDataGpu, PinnedStreamsOverlapCopiesWithKernelsInOrder) {
  auto report = compute::run_moving_data(device(), pipeline_request(HostMemory::kPinned));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->check.passed) << report->check.describe();
  ASSERT_TRUE(report->pinned_unavailable.empty()) << report->pinned_unavailable;
  for (const compute::PipelineRun& run : report->pipelines) {
    EXPECT_FALSE(run.modelled);
    ASSERT_EQ(run.ops.size(), 48u);
    const auto violation = lessons::timeline_order_violation(run.ops);
    EXPECT_FALSE(violation.has_value()) << run.streams << " streams: " << *violation;
  }
  const compute::PipelineRun* four = report->selected_pipeline();
  ASSERT_NE(four, nullptr);
  EXPECT_GT(copy_under_kernel_ms(four->ops), 0.0)
      << "4 streams from pinned memory: some copy must run under another chunk's kernel";
  EXPECT_GT(lessons::cross_stream_overlap_ms(four->ops), 0.0);
}

// The schedules of lesson.md's section 2 on the GPU: each gives the right output and keeps each
// chunk's order; the copy stream's kernels wait for their copies (cudaStreamWaitEvent); the legacy
// default stream with blocking streams is a barrier (CUDA's implicit synchronisation, an order that
// must hold whatever the timing). Whether the non-blocking and per-thread runs overlapped their
// default-stream kernel is a timing property, not asserted: the timelines go to the log for the
// lesson's figures.
MovingDataRequest schedule_request(lessons::Schedule schedule) {
  MovingDataRequest request = pipeline_request(HostMemory::kPinned);
  request.params.schedule = schedule;
  request.params.rounds = 64;
  return request;
}

void log_timelines(const compute::MovingDataReport& report) {
  for (const compute::PipelineRun& run : report.pipelines) {
    const lessons::PipelineSummary& s = run.summary;
    std::cout << "== " << lessons::to_string(run.schedule) << ", " << run.streams << " stream(s), "
              << report.connections << " connection(s): total " << s.total_ms << " ms, serial "
              << s.serial_ms << " ms, ideal " << s.ideal_ms << " ms\n"
              << lessons::timeline_csv(run.ops);
  }
}

TEST_F(MovingDataGpu, LegacyDefaultStreamIsABarrierBetweenBlockingStreams) {
  auto report =
      compute::run_moving_data(device(), schedule_request(lessons::Schedule::kLegacyDefault));
  ASSERT_TRUE(report.is_ok()) << report.message();
  log_timelines(*report);
  EXPECT_TRUE(report->check.passed) << report->check.describe();
  for (const compute::PipelineRun& run : report->pipelines) {
    EXPECT_FALSE(run.modelled);
    ASSERT_EQ(run.ops.size(), 16u * 3u + 1u);
    const lessons::TimelineOp* marker = lessons::default_stream_op(run.ops);
    ASSERT_NE(marker, nullptr);
    EXPECT_EQ(marker->queue, lessons::Queue::kLegacyDefault);
    const auto order = lessons::timeline_order_violation(run.ops);
    EXPECT_FALSE(order.has_value()) << run.streams << " streams: " << *order;
    const auto barrier = lessons::barrier_violation(run.ops);
    EXPECT_FALSE(barrier.has_value()) << run.streams << " streams: " << *barrier;
  }
}

TEST_F(MovingDataGpu, EveryOtherScheduleRunsInOrderAndIsLogged) {
  for (lessons::Schedule schedule :
       {lessons::Schedule::kBreadthFirst, lessons::Schedule::kLegacyNonBlocking,
        lessons::Schedule::kPerThreadDefault, lessons::Schedule::kCopyStream}) {
    const std::string name(lessons::to_string(schedule));
    auto report = compute::run_moving_data(device(), schedule_request(schedule));
    ASSERT_TRUE(report.is_ok()) << name << ": " << report.message();
    log_timelines(*report);
    EXPECT_TRUE(report->check.passed) << name << ": " << report->check.describe();
    for (const compute::PipelineRun& run : report->pipelines) {
      EXPECT_EQ(run.schedule, schedule);
      const auto order = lessons::timeline_order_violation(run.ops);
      EXPECT_FALSE(order.has_value()) << name << ", " << run.streams << " streams: " << *order;
      const lessons::TimelineOp* marker = lessons::default_stream_op(run.ops);
      EXPECT_EQ(marker != nullptr, lessons::has_default_stream_kernel(schedule)) << name;
      if (schedule == lessons::Schedule::kCopyStream) {
        for (const TimelineOp& op : run.ops) {
          EXPECT_EQ(op.queue == lessons::Queue::kCopyStream, op.stage == Stage::kCopyIn) << name;
        }
      }
      if (marker != nullptr) {
        std::cout << name << ", " << run.streams << " streams: the default-stream kernel "
                  << (lessons::barrier_violation(run.ops) ? "was not a barrier"
                                                          : "happened to stand as a barrier")
                  << "\n";
      }
    }
  }
}

TEST_F(MovingDataGpu, EveryMemoryGivesTheRightOutput) {
  for (HostMemory memory : {HostMemory::kPageable, HostMemory::kManaged}) {
    MovingDataRequest request = pipeline_request(memory);
    request.params.rounds = 8;
    auto report = compute::run_moving_data(device(), request);
    ASSERT_TRUE(report.is_ok()) << lessons::to_string(memory) << ": " << report.message();
    EXPECT_TRUE(report->check.passed)
        << lessons::to_string(memory) << ": " << report->check.describe();
    for (const compute::PipelineRun& run : report->pipelines) {
      EXPECT_FALSE(lessons::timeline_order_violation(run.ops).has_value());
    }
  }
}

TEST_F(MovingDataGpu, ManagedMemoryRunsWithAndWithoutPrefetch) {
  MovingDataRequest request = pipeline_request(HostMemory::kPinned);
  request.params.rounds = 8;
  auto report = compute::run_moving_data(device(), request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->managed.available) << report->managed.absent;
  EXPECT_EQ(report->managed.first_touch.repeats, 2);
  EXPECT_EQ(report->managed.prefetched.repeats, 2);
  EXPECT_FALSE(report->managed.faults.empty());
  EXPECT_GT(report->copy_engines, 0);
}

}  // namespace
}  // namespace tl::testing
