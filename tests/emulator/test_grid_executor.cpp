#include "kernels/emulator/grid_executor.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <numeric>
#include <set>
#include <tuple>
#include <vector>

#include "core/work_watch.hpp"
#include "kernels/emulator/cuda_emulation.hpp"

namespace test_kernels {
#include "barrier_kernels.cuh"
}  // namespace test_kernels

namespace tl::emu {
namespace {

TEST(GridExecutor, RunsEveryBlockAndThreadExactlyOnce) {
  const LaunchConfig config{{3, 2, 2}, {4, 3, 2}};
  std::mutex mutex;
  std::multiset<std::tuple<unsigned, unsigned, unsigned, unsigned, unsigned, unsigned>> seen;
  ASSERT_TRUE(run_grid(config, {}, [&] {
                std::lock_guard lock(mutex);
                EXPECT_EQ(blockDim.x, 4u);
                EXPECT_EQ(gridDim.z, 2u);
                seen.emplace(blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y,
                             threadIdx.z);
              }).is_ok());
  EXPECT_EQ(seen.size(), config.total_threads());
  std::set<std::tuple<unsigned, unsigned, unsigned, unsigned, unsigned, unsigned>> unique(
      seen.begin(), seen.end());
  EXPECT_EQ(unique.size(), config.total_threads());
}

// A caller's WorkWatch on the launching thread: the grid counts its blocks there, and stops at the
// next block once the watch's cancel flag is set, with an error of kind kCancelled.
TEST(GridExecutor, AWatchedGridCountsItsBlocksAndStopsWhenCancelled) {
  std::atomic<bool> cancel{false};
  WorkWatch watch;
  watch.cancel = &cancel;
  const ScopedWorkWatch watching(watch);
  const LaunchConfig config{{64, 1, 1}, {32, 1, 1}};
  ASSERT_TRUE(run_grid(config, {}, [] {}).is_ok());
  EXPECT_EQ(watch.total.load(), 64u);
  EXPECT_EQ(watch.done.load(), 64u);
  EXPECT_FLOAT_EQ(watch.fraction(), 1.0f);
  EXPECT_EQ(watch.grids.load(), 1u);
  EXPECT_EQ(watch.grid_blocks.load(), 64u);
  EXPECT_FLOAT_EQ(watch.grid_fraction(), 1.0f);

  // Cancelled from inside block 3 (one worker, blocks in order): no block after it starts.
  std::atomic<std::uint64_t> blocks_started{0};
  GridOptions one_worker;
  one_worker.workers = 1;
  const Status stopped = run_grid(config, one_worker, [&] {
    if (threadIdx.x != 0) return;
    if (blocks_started.fetch_add(1) == 3) cancel.store(true);
  });
  ASSERT_FALSE(stopped.is_ok());
  EXPECT_EQ(stopped.error().kind, ErrorKind::kCancelled);
  EXPECT_EQ(blocks_started.load(), 4u);
  EXPECT_EQ(watch.total.load(), 128u);
  EXPECT_EQ(watch.done.load(), 68u);
  // The second grid's own share: 4 of its 64 blocks.
  EXPECT_EQ(watch.grids.load(), 2u);
  EXPECT_FLOAT_EQ(watch.grid_fraction(), 4.0f / 64.0f);
  // A grid launched after the cancel does not start at all.
  EXPECT_EQ(run_grid(config, {}, [] {}).error().kind, ErrorKind::kCancelled);
  EXPECT_EQ(watch.total.load(), 128u);
}

// Without a watch (the CLI, sweeps, the tests above) nothing is counted and nothing can cancel.
TEST(GridExecutor, WithoutAWatchNothingIsCounted) {
  EXPECT_EQ(current_work_watch(), nullptr);
  EXPECT_TRUE(run_grid({{4, 1, 1}, {32, 1, 1}}, {}, [] {}).is_ok());
}

TEST(GridExecutor, RefusesWhatAGpuRefuses) {
  std::atomic<int> ran{0};
  const Status status = run_grid({{1, 1, 1}, {2048, 1, 1}}, {}, [&] { ++ran; });
  EXPECT_FALSE(status.is_ok());
  EXPECT_EQ(ran.load(), 0);
}

class BarrierTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(BarrierTest, SharedMemoryAndSyncthreadsBehaveAsOnAGpu) {
  const unsigned threads = GetParam();
  const unsigned blocks = 5;
  std::vector<int> in(blocks * threads), out(in.size(), -1), sums(blocks, 0);
  std::iota(in.begin(), in.end(), 0);
  const LaunchConfig config{{blocks, 1, 1}, {threads, 1, 1}};
  GridOptions options;
  options.barriers = Barriers::kUsed;
  ASSERT_TRUE(run_grid(config, options, [&] {
                test_kernels::reverse_each_block(in.data(), out.data());
              }).is_ok());
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < threads; ++t) {
      ASSERT_EQ(out[b * threads + t], static_cast<int>(b * threads + threads - 1 - t))
          << b << " " << t;
    }
  }
  ASSERT_TRUE(
      run_grid(config, options, [&] { test_kernels::block_sum(in.data(), sums.data()); }).is_ok());
  for (unsigned b = 0; b < blocks; ++b) {
    const int first = static_cast<int>(b * threads);
    const int expected =
        static_cast<int>(threads) * first + static_cast<int>(threads * (threads - 1) / 2);
    EXPECT_EQ(sums[b], expected) << b;
  }
}

INSTANTIATE_TEST_SUITE_P(BlockSizes, BarrierTest, ::testing::Values(1u, 2u, 32u, 64u, 256u, 1024u));

TEST(GridExecutor, WithoutBarrierSupportSyncthreadsIsAnErrorNotASilentlyWrongResult) {
  std::vector<int> in(64, 1), out(64, 0);
  const Status status = run_grid({{1, 1, 1}, {64, 1, 1}}, {},
                                 [&] { test_kernels::reverse_each_block(in.data(), out.data()); });
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("__syncthreads"), std::string::npos);
}

TEST(GridExecutor, DivergentBarrierIsReported) {
  std::vector<int> out(64, 0);
  GridOptions options;
  options.barriers = Barriers::kUsed;
  const Status status = run_grid({{2, 1, 1}, {64, 1, 1}}, options,
                                 [&] { test_kernels::divergent_barrier(out.data()); });
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("not reached by every thread"), std::string::npos);
}

TEST(GridExecutor, SingleWorkerGivesTheSameResult) {
  std::vector<int> in(8 * 128), out(in.size(), -1);
  std::iota(in.begin(), in.end(), 0);
  GridOptions options;
  options.barriers = Barriers::kUsed;
  options.workers = 1;
  ASSERT_TRUE(run_grid({{8, 1, 1}, {128, 1, 1}}, options, [&] {
                test_kernels::reverse_each_block(in.data(), out.data());
              }).is_ok());
  EXPECT_EQ(out[0], 127);
  EXPECT_EQ(out[128], 255);
}

}  // namespace
}  // namespace tl::emu
