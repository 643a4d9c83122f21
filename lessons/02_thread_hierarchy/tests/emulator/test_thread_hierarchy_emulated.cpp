// The thread-hierarchy kernels on the emulator, through the runner the app uses: 3D grids of 3D
// blocks, one element per thread or grid-stride, against the CPU reference and the analytic
// mapping.

#include <gtest/gtest.h>

#include <ostream>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/lessons/block_timeline.hpp"
#include "core/trace.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy_runner.hpp"

namespace tl::lessons {
// Readable test names' parameters: "n=1000 <<<3, 256>>> grid-stride".
void PrintTo(const ThreadHierarchyParams& p, std::ostream* out) {
  *out << "n=" << p.n << " " << p.config.to_string() << (p.grid_stride ? " grid-stride" : "");
}
}  // namespace tl::lessons

namespace tl::compute {
namespace {

using lessons::ThreadHierarchyParams;

class ThreadHierarchyEmulated : public ::testing::TestWithParam<ThreadHierarchyParams> {
 protected:
  std::unique_ptr<Device> device_ = make_emulator_device();
};

std::uint64_t threads_of(const ThreadHierarchyParams& p) {
  return p.config.total_threads();
}
bool covers(const ThreadHierarchyParams& p) {
  return p.grid_stride || threads_of(p) >= p.n;
}

TEST_P(ThreadHierarchyEmulated, MatchesTheCpuReferenceWhenEveryElementHasAThread) {
  const ThreadHierarchyParams p = GetParam();
  ThreadHierarchyRequest request;
  request.params = p;
  request.warmup = 0;
  request.repeats = 1;
  request.time_cpu = false;
  auto report = run_thread_hierarchy(*device_, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_EQ(report->check->passed, covers(p)) << report->check->describe();
  if (!covers(p)) {
    // Exactly the elements past the grid's last thread are left unwritten.
    EXPECT_EQ(report->check->first_wrong, threads_of(p));
    EXPECT_EQ(report->check->wrong_count, p.n - threads_of(p));
  }
  EXPECT_EQ(report->threads, threads_of(p));
  EXPECT_EQ(report->passes,
            p.grid_stride ? (p.n + threads_of(p) - 1) / threads_of(p) : std::uint64_t{1});
  EXPECT_FALSE(report->on_gpu);
  EXPECT_EQ(report->kernel.repeats, 1);
}

TEST_P(ThreadHierarchyEmulated, TraceEqualsTheAnalyticMappingIncludingThePass) {
  const ThreadHierarchyParams p = GetParam();
  HostTraceSink sink;
  auto trace = trace_thread_hierarchy(*device_, p, sink);
  ASSERT_TRUE(trace.is_ok()) << trace.message();
  EXPECT_EQ(trace->check.passed, covers(p)) << trace->check.describe();
  const auto records = sink.records();
  ASSERT_EQ(records.size(), p.n);
  const std::uint64_t threads = threads_of(p);
  for (std::uint64_t i = 0; i < p.n; ++i) {
    const DecodedTrace d = decode(records[i], i, {1, p.n}, p.config);
    const auto owner = lessons::owner_of_element(p, threads, i);
    if (!owner) {
      ASSERT_EQ(d.writes, 0u) << i;
      continue;
    }
    ASSERT_EQ(d.writes, 1u) << i;
    ASSERT_EQ(d.block, owner->position.block) << i;
    ASSERT_EQ(d.thread, owner->position.thread) << i;
    ASSERT_EQ(d.iteration, owner->pass) << i;
    ASSERT_EQ(d.sm, -1) << i;  // the emulator has no SMs
    // The warp is the linear thread index in the block over 32, whatever the block's shape.
    const std::uint64_t linear = p.config.block.linear(d.thread.x, d.thread.y, d.thread.z);
    ASSERT_EQ(d.warp, static_cast<std::int64_t>(linear / 32)) << i;
  }
  const TraceSummary summary = summarize(records, p.config);
  EXPECT_EQ(summary.written_more, 0u);
  EXPECT_EQ(summary.unwritten, covers(p) ? 0 : p.n - threads);
  EXPECT_EQ(summary.idle_threads, threads > p.n ? threads - p.n : 0);
  EXPECT_EQ(summary.max_iteration, p.grid_stride ? (p.n - 1) / threads : 0);

  // One block record per block; the emulator has neither SMs nor a clock.
  ASSERT_EQ(trace->blocks.size(), p.config.grid.volume());
  for (const BlockRecord& block : trace->blocks) {
    EXPECT_EQ(block.sm, -1);
    EXPECT_EQ(block.start_ns, 0u);
    EXPECT_EQ(block.end_ns, 0u);
  }
  EXPECT_FALSE(lessons::build_block_timeline(trace->blocks).measured);
}

ThreadHierarchyParams params(std::uint64_t n, Dim3 grid, Dim3 block, bool grid_stride) {
  return {n, {grid, block}, grid_stride};
}

INSTANTIATE_TEST_SUITE_P(
    OddSizesGridsAndShapes, ThreadHierarchyEmulated,
    ::testing::Values(params(1, {1, 1, 1}, {1, 1, 1}, false),           // the smallest launch
                      params(1000, {4, 1, 1}, {256, 1, 1}, false),      // 24 idle threads
                      params(1000, {3, 1, 1}, {256, 1, 1}, false),      // too small: 232 unwritten
                      params(1000, {3, 1, 1}, {256, 1, 1}, true),       // the loop covers them
                      params(999, {1000, 1, 1}, {1, 1, 1}, false),      // far too large
                      params(100, {5, 3, 2}, {3, 5, 7}, false),         // 3D grid, 3D odd blocks
                      params(4097, {3, 3, 2}, {8, 4, 4}, false),        // 3D, grid too small
                      params(4097, {3, 3, 2}, {8, 4, 4}, true),         // 3D, grid-stride
                      params(12345, {2, 2, 2}, {5, 3, 2}, true),        // 240 threads, 52 passes
                      params(777, {1, 1, 1}, {1, 1, 1}, true),          // one thread does it all
                      params(70000, {7, 1, 1}, {1000, 1, 1}, false)));  // block not a warp multiple

TEST(ThreadHierarchyEmulatedSingleThread, OneThreadWalksEveryElementOnePassEach) {
  auto device = make_emulator_device();
  HostTraceSink sink;
  auto trace = trace_thread_hierarchy(*device, params(300, {1, 1, 1}, {1, 1, 1}, true), sink);
  ASSERT_TRUE(trace.is_ok()) << trace.message();
  for (std::uint64_t i = 0; i < 300; ++i) {
    ASSERT_EQ(sink.records()[i].iteration, i);
    ASSERT_EQ(sink.records()[i].block, 0u);
  }
}

TEST(ThreadHierarchyEmulatedErrors, AnOverflowingGridIsRefusedBeforeLaunch) {
  auto device = make_emulator_device();
  ThreadHierarchyRequest request;
  request.params = params(1000, {2147483647u, 65535, 65535}, {1024, 1, 1}, true);
  auto report = run_thread_hierarchy(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_EQ(report.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(report.message().find("64-bit"), std::string::npos) << report.message();
}

TEST(ThreadHierarchyEmulatedErrors, InvalidBlockIsCudasErrorAndNotTheEmulatorsBudget) {
  auto device = make_emulator_device();
  ThreadHierarchyRequest request;
  request.time_cpu = false;
  request.params = params(1 << 20, {1 << 20, 1, 1}, {32, 32, 2}, false);  // 2048 threads per block
  auto report = run_thread_hierarchy(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("invalid configuration argument"), std::string::npos)
      << report.message();
  // The device keeps working.
  request.params = params(1 << 12, {4, 2, 1}, {16, 16, 2}, false);
  auto again = run_thread_hierarchy(*device, request);
  ASSERT_TRUE(again.is_ok()) << again.message();
  EXPECT_TRUE(again->check->passed) << again->check->describe();
}

TEST(ThreadHierarchyEmulatedErrors, TheEmulatorRefusesGridsItCannotRunInReasonableTime) {
  auto device = make_emulator_device();
  ThreadHierarchyRequest request;
  request.params = params(1000, {1 << 20, 1, 1}, {1024, 1, 1}, true);  // 2^30 threads
  auto report = run_thread_hierarchy(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_EQ(report.error().kind, ErrorKind::kTooSlow) << report.message();
  HostTraceSink sink;
  auto traced =
      trace_thread_hierarchy(*device, params(1000, {1 << 15, 1, 1}, {1024, 1, 1}, true), sink);
  ASSERT_FALSE(traced.is_ok());
  EXPECT_EQ(traced.error().kind, ErrorKind::kTooSlow) << traced.message();
}

TEST(ThreadHierarchyEmulatedErrors, ATracedLaunchKeepsAtMostSoManyBlockRecords) {
  auto device = make_emulator_device();
  HostTraceSink sink;
  auto traced = trace_thread_hierarchy(
      *device, params(1000, {1 << 12, 1 << 11, 1}, {1, 1, 1}, true), sink);  // 2^23 blocks
  ASSERT_FALSE(traced.is_ok());
  EXPECT_EQ(traced.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(traced.message().find("blocks"), std::string::npos) << traced.message();
}

TEST(ThreadHierarchyEmulatedTimings, ReportsKernelAndCpuTimingsAndBandwidth) {
  auto device = make_emulator_device();
  ThreadHierarchyRequest request;
  request.params = params(1 << 16, {64, 1, 1}, {256, 1, 1}, true);
  request.repeats = 3;
  auto report = run_thread_hierarchy(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const TimingStats* t : {&report->kernel, &report->cpu_single}) {
    EXPECT_EQ(t->repeats, 3);
    EXPECT_LE(t->min_ms, t->median_ms);
    EXPECT_LE(t->median_ms, t->max_ms);
  }
  EXPECT_EQ(report->passes, 4u);
  EXPECT_GT(report->kernel_gigabytes_per_second(), 0.0);
}

}  // namespace
}  // namespace tl::compute
