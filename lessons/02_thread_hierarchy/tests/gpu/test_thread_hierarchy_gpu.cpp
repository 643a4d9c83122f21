// The thread-hierarchy kernels on a real GPU: results, traces with grid-stride passes, and the
// per-block records of which SM ran each block and when.

#include <gtest/gtest.h>

#include <set>

#include "compute/trace_sink.hpp"
#include "core/lessons/block_timeline.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy_runner.hpp"

namespace tl::testing {
namespace {

using compute::HostTraceSink;
using compute::ThreadHierarchyRequest;
using lessons::ThreadHierarchyParams;

class ThreadHierarchyGpu : public GpuTest {};

ThreadHierarchyParams params(std::uint64_t n, Dim3 grid, Dim3 block, bool grid_stride) {
  return {n, {grid, block}, grid_stride};
}

ThreadHierarchyRequest quick(const ThreadHierarchyParams& p) {
  ThreadHierarchyRequest request;
  request.params = p;
  request.repeats = 2;
  request.time_cpu = false;
  return request;
}

TEST_F(ThreadHierarchyGpu, MatchesTheCpuReference) {
  for (const ThreadHierarchyParams& p : {
           params(1, {1, 1, 1}, {1, 1, 1}, false),
           params(1000, {4, 1, 1}, {256, 1, 1}, false),
           params(100, {5, 3, 2}, {3, 5, 7}, false),
           params(4097, {3, 3, 2}, {8, 4, 4}, true),
           params(12345, {1, 1, 1}, {1, 1, 1}, true),  // one thread walks everything
           params(std::uint64_t{1} << 24, {132, 1, 1}, {256, 1, 1}, true),
           params(std::uint64_t{1} << 24, {1 << 16, 1, 1}, {256, 1, 1}, false),
       }) {
    auto report = compute::run_thread_hierarchy(device(), quick(p));
    ASSERT_TRUE(report.is_ok()) << report.message();
    EXPECT_TRUE(report->on_gpu);
    EXPECT_TRUE(report->check->passed)
        << p.n << " " << p.config.to_string() << ": " << report->check->describe();
  }
}

// The divergence kernels compute their two sides with fmaf and separate multiplies, which round
// the same on the GPU as on the CPU: the check is bit for bit, for both rules, with and without
// the loop, on 1D and 2D blocks. Every run times both kernels.
TEST_F(ThreadHierarchyGpu, BranchKernelsMatchTheCpuReferenceBitForBit) {
  for (lessons::BranchRule rule : {lessons::BranchRule::kByThread, lessons::BranchRule::kByWarp}) {
    for (ThreadHierarchyParams p : {
             params(std::uint64_t{1} << 20, {4096, 1, 1}, {256, 1, 1}, false),
             params(5000, {53, 1, 1}, {24, 4, 1}, false),  // 53 × 96 threads cover 5000
             params(100000, {132, 1, 1}, {256, 1, 1}, true),
         }) {
      p.branch = rule;
      auto report = compute::run_thread_hierarchy(device(), quick(p));
      ASSERT_TRUE(report.is_ok()) << report.message();
      EXPECT_TRUE(report->check->passed)
          << lessons::to_string(rule) << " " << p.n << " " << p.config.to_string() << ": "
          << report->check->describe();
      EXPECT_EQ(report->branch_by_thread.repeats, 2);
      EXPECT_EQ(report->branch_by_warp.repeats, 2);
    }
  }
}

TEST_F(ThreadHierarchyGpu, BranchKernelsTraceEveryElementOnceOnRealSms) {
  for (lessons::BranchRule rule : {lessons::BranchRule::kByThread, lessons::BranchRule::kByWarp}) {
    ThreadHierarchyParams p = params(3000, {4, 1, 1}, {128, 1, 1}, true);
    p.branch = rule;
    HostTraceSink sink;
    auto trace = compute::trace_thread_hierarchy(device(), p, sink);
    ASSERT_TRUE(trace.is_ok()) << trace.message();
    EXPECT_TRUE(trace->check.passed) << trace->check.describe();
    const TraceSummary summary = summarize(sink.records(), p.config);
    EXPECT_EQ(summary.unwritten, 0u);
    EXPECT_EQ(summary.written_more, 0u);
    for (const BlockRecord& block : trace->blocks) EXPECT_GE(block.sm, 0);
  }
}

TEST_F(ThreadHierarchyGpu, GridTooSmallWithoutTheLoopLeavesTheTailUnwritten) {
  auto report =
      compute::run_thread_hierarchy(device(), quick(params(1000, {3, 1, 1}, {256, 1, 1}, false)));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->check->passed);
  EXPECT_EQ(report->check->first_wrong, 768u);
  EXPECT_EQ(report->check->wrong_count, 232u);
}

TEST_F(ThreadHierarchyGpu, AnOversizedBlockIsCudasErrorAndTheDeviceRecovers) {
  auto failed = compute::run_thread_hierarchy(
      device(), quick(params(1 << 20, {1024, 1, 1}, {32, 32, 2}, false)));
  ASSERT_FALSE(failed.is_ok());
  EXPECT_EQ(failed.error().kind, ErrorKind::kCudaError);
  EXPECT_NE(failed.message().find("failed to launch"), std::string::npos) << failed.message();
  auto again = compute::run_thread_hierarchy(
      device(), quick(params(1 << 20, {1024, 1, 1}, {32, 32, 1}, false)));
  ASSERT_TRUE(again.is_ok()) << again.message();
  EXPECT_TRUE(again->check->passed);
}

TEST_F(ThreadHierarchyGpu, TraceEqualsTheAnalyticMappingWithPassesAndRealSms) {
  const ThreadHierarchyParams p = params(100000, {5, 3, 2}, {8, 4, 4}, true);  // 3840 threads
  HostTraceSink sink;
  auto trace = compute::trace_thread_hierarchy(device(), p, sink);
  ASSERT_TRUE(trace.is_ok()) << trace.message();
  EXPECT_TRUE(trace->check.passed) << trace->check.describe();
  const std::uint64_t threads = p.config.total_threads();
  for (std::uint64_t i = 0; i < p.n; ++i) {
    const DecodedTrace d = decode(sink.records()[i], i, {1, p.n}, p.config);
    const auto owner = lessons::owner_of_element(p, threads, i);
    ASSERT_TRUE(owner.has_value());
    ASSERT_EQ(d.writes, 1u) << i;
    ASSERT_EQ(d.block, owner->position.block) << i;
    ASSERT_EQ(d.thread, owner->position.thread) << i;
    ASSERT_EQ(d.iteration, owner->pass) << i;
    ASSERT_GE(d.sm, 0) << i;
    ASSERT_LT(d.sm, device().info().multiprocessors) << i;
  }
  EXPECT_EQ(summarize(sink.records(), p.config).max_iteration, (p.n - 1) / threads);
}

TEST_F(ThreadHierarchyGpu, EveryBlockRecordsItsSmAndItsTimesAndTheWorkSpreadsOverSms) {
  // 4096 blocks: several waves on any GPU.
  const ThreadHierarchyParams p = params(std::uint64_t{1} << 20, {4096, 1, 1}, {256, 1, 1}, false);
  HostTraceSink sink;
  auto trace = compute::trace_thread_hierarchy(device(), p, sink);
  ASSERT_TRUE(trace.is_ok()) << trace.message();
  EXPECT_TRUE(trace->check.passed) << trace->check.describe();
  ASSERT_EQ(trace->blocks.size(), 4096u);
  std::set<std::int32_t> sms;
  for (std::size_t b = 0; b < trace->blocks.size(); ++b) {
    const BlockRecord& block = trace->blocks[b];
    ASSERT_NE(block.start_ns, 0u) << "block " << b << " was never recorded";
    ASSERT_LE(block.start_ns, block.end_ns) << b;
    ASSERT_GE(block.sm, 0) << b;
    ASSERT_LT(block.sm, device().info().multiprocessors) << b;
    sms.insert(block.sm);
  }
  EXPECT_GT(sms.size(), 1u);
  // The element records name the same SM as their block's record.
  for (std::uint64_t i = 0; i < p.n; i += 4099) {
    const DecodedTrace d = decode(sink.records()[i], i, {1, p.n}, p.config);
    ASSERT_EQ(d.sm, trace->blocks[d.block.x].sm) << i;
  }
  const lessons::BlockTimeline timeline = lessons::build_block_timeline(trace->blocks);
  ASSERT_TRUE(timeline.measured);
  EXPECT_EQ(timeline.blocks, 4096u);
  EXPECT_EQ(timeline.sms.size(), sms.size());
  EXPECT_GE(timeline.capacity, timeline.sms.size());
  EXPECT_GE(timeline.waves, 1u);
  EXPECT_GT(timeline.tail_fill, 0.0);
  EXPECT_LE(timeline.tail_fill, 1.0);
  std::uint64_t placed = 0;
  for (const lessons::SmTimeline& sm : timeline.sms) placed += sm.blocks.size();
  EXPECT_EQ(placed, 4096u);
}

}  // namespace
}  // namespace tl::testing
