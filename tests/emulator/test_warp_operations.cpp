// The emulator's warp shuffles and votes, atomics under parallel workers, dynamic shared memory and
// device math: each against what a GPU computes, and each undefined use refused with a message
// that names the lanes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/emulator/cooperative_groups_emulation.hpp"
#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/emulator/grid_executor.hpp"

namespace test_kernels {
#include "warp_kernels.cuh"
}  // namespace test_kernels

namespace tl::emu {
namespace {

GridOptions fibers(unsigned workers = 0) {
  GridOptions options;
  options.barriers = Barriers::kUsed;
  options.workers = workers;
  return options;
}

TEST(WarpOperations, ShuffleDownSumsEachWarpIntoLaneZero) {
  const unsigned blocks = 3, threads = 128;
  std::vector<float> in(blocks * threads), sums(in.size() / 32, -1.0f);
  std::iota(in.begin(), in.end(), 0.0f);
  ASSERT_TRUE(run_grid({{blocks, 1, 1}, {threads, 1, 1}}, fibers(), [&] {
                test_kernels::warp_sums(in.data(), sums.data());
              }).is_ok());
  for (std::size_t w = 0; w < sums.size(); ++w) {
    const float first = static_cast<float>(w * 32);
    EXPECT_EQ(sums[w], 32 * first + 31 * 32 / 2) << "warp " << w;
  }
}

TEST(WarpOperations, ShuffleXorGivesEveryLaneTheWarpSum) {
  std::vector<int> in(64), out(64, -1);
  std::iota(in.begin(), in.end(), 1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {64, 1, 1}}, fibers(), [&] {
                test_kernels::butterfly_sums(in.data(), out.data());
              }).is_ok());
  for (int i = 0; i < 64; ++i) {
    const int first = (i / 32) * 32 + 1;
    EXPECT_EQ(out[i], 32 * first + 31 * 32 / 2) << "thread " << i;
  }
}

TEST(WarpOperations, ShuffleUpBuildsInclusivePrefixSumsWithTwoDimensionalBlocks) {
  // A 16×4 block: warps are made of consecutive linear indices (x fastest), as on a GPU.
  std::vector<int> in(64, 1), out(64, -1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {16, 4, 1}}, fibers(), [&] {
                const int i = static_cast<int>(threadIdx.y * 16 + threadIdx.x);
                const int lane = i % 32;
                int value = in[i];
                for (int delta = 1; delta < 32; delta *= 2) {
                  const int below = __shfl_up_sync(0xffffffff, value, delta);
                  if (lane >= delta) value += below;
                }
                out[i] = value;
              }).is_ok());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], i % 32 + 1) << "thread " << i;

  std::vector<int> ones(32, 2), scan(32, -1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                test_kernels::warp_scan(ones.data(), scan.data());
              }).is_ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(scan[i], 2 * (i + 1));
}

TEST(WarpOperations, ShuffleIndexReadsWithinSegmentsOfTheWidth) {
  std::vector<int> in(32), out(32, -1);
  std::iota(in.begin(), in.end(), 100);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                test_kernels::segment_broadcast(in.data(), out.data(), 3, 8);
              }).is_ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], 100 + (i / 8) * 8 + 3) << "lane " << i;
  // A source lane past the width wraps within the segment (srcLane % width).
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                test_kernels::segment_broadcast(in.data(), out.data(), 9, 8);
              }).is_ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], 100 + (i / 8) * 8 + 1) << "lane " << i;
}

TEST(WarpOperations, ShuffleDownPastTheWarpKeepsTheLanesOwnValue) {
  std::vector<int> out(32, -1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                out[threadIdx.x] = __shfl_down_sync(0xffffffff, static_cast<int>(threadIdx.x), 4);
              }).is_ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], i < 28 ? i + 4 : i);
}

TEST(WarpOperations, ShufflesCarryDoublesAndSixtyFourBitIntegers) {
  std::vector<double> doubles(32);
  std::vector<long long> longs(32);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                const int lane = static_cast<int>(threadIdx.x);
                doubles[lane] = __shfl_sync(0xffffffff, lane * 0.25, 31 - lane);
                longs[lane] = __shfl_xor_sync(0xffffffff, (1LL << 40) + lane, 1);
              }).is_ok());
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(doubles[i], (31 - i) * 0.25);
    EXPECT_EQ(longs[i], (1LL << 40) + (i ^ 1));
  }
}

TEST(WarpOperations, VotesAndBallots) {
  const unsigned warps = 4;
  std::vector<unsigned> ballots(warps);
  std::vector<int> all(warps, -1), any(warps, -1), all_true(warps, -1);
  ASSERT_TRUE(run_grid({{2, 1, 1}, {64, 1, 1}}, fibers(), [&] {
                test_kernels::votes(ballots.data(), all.data(), any.data(), all_true.data());
              }).is_ok());
  unsigned expected = 0;
  for (int lane = 0; lane < 32; lane += 3) expected |= 1u << lane;
  for (unsigned w = 0; w < warps; ++w) {
    EXPECT_EQ(ballots[w], expected);
    EXPECT_EQ(all[w], 0);
    EXPECT_EQ(any[w], 1);
    EXPECT_EQ(all_true[w], 1);
  }
}

TEST(WarpOperations, ActiveMaskIsTheLanesThatReachItTogether) {
  std::vector<unsigned> masks(32, 0);
  std::vector<int> sums(32, -1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                test_kernels::active_mask_sum(masks.data(), sums.data(), 10);
              }).is_ok());
  for (int lane = 0; lane < 10; ++lane) {
    EXPECT_EQ(masks[lane], 0x3ffu);
    EXPECT_EQ(sums[lane], 45);
  }
  EXPECT_EQ(sums[10], -1);
}

TEST(WarpOperations, SplitWarpGroupsEachMeetAmongThemselves) {
  std::vector<int> out(32, -1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                test_kernels::split_warp_shuffles(out.data());
              }).is_ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], i ^ 1);
}

TEST(WarpOperations, AMaskNamingAnExitedLaneIsAnErrorNamingIt) {
  std::vector<int> out(32, -1);
  const Status status = run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(),
                                 [&] { test_kernels::shuffle_with_exited_lane(out.data()); });
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("lane 5 (thread (5, 0, 0)), which exited"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("mask 0xffffffff"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("__shfl_down_sync"), std::string::npos) << status.message();
}

TEST(WarpOperations, LanesDisagreeingOnTheMaskIsAnError) {
  std::vector<int> out(32, -1);
  const Status status = run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(),
                                 [&] { test_kernels::mismatched_masks(out.data()); });
  ASSERT_FALSE(status.is_ok());
  // Lanes 0–15 meet among themselves (their mask names only them) and finish; lanes 16–31 then
  // wait for them in vain.
  EXPECT_NE(status.message().find("lanes 16–31 (threads 16 to 31 of the block) called "
                                  "__shfl_xor_sync with mask 0xffffffff"),
            std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("lanes 0–15 (threads 0 to 15 of the block), which exited"),
            std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("same mask"), std::string::npos) << status.message();
}

TEST(WarpOperations, AFullMaskInAHalfWarpBranchNamesTheWarpTheMaskAndTheMissingLanes) {
  // Two warps: the error is the first warp's, and names the lanes that never came.
  std::vector<int> out(64, -1);
  const Status status = run_grid({{1, 1, 1}, {64, 1, 1}}, fibers(),
                                 [&] { test_kernels::full_mask_in_half_warp_branch(out.data()); });
  ASSERT_FALSE(status.is_ok());
  const std::string& message = status.message();
  EXPECT_NE(message.find("block (0, 0, 0), warp 0 (threads 0 to 31)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("lanes 0–15 (threads 0 to 15 of the block) called __shfl_xor_sync with "
                         "mask 0xffffffff, but the mask also names lanes 16–31 (threads 16 to 31 "
                         "of the block), which exited"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("__ballot_sync"), std::string::npos) << message;
}

TEST(WarpOperations, AFullMaskAgainstLanesAtABarrierNamesTheBarrier) {
  std::vector<int> out(32, -1);
  const Status status = run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(),
                                 [&] { test_kernels::full_mask_against_a_barrier(out.data()); });
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("lanes 16–31 (threads 16 to 31 of the block), which wait at "
                                  "__syncthreads()"),
            std::string::npos)
      << status.message();
}

TEST(WarpOperations, DivergedLanesMeetAtTheNextShuffleOfTheSameKindAndMask) {
  std::vector<int> out(32, -1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                test_kernels::diverged_halves_meet(out.data());
              }).is_ok());
  for (int lane = 0; lane < 16; ++lane) EXPECT_EQ(out[lane], 100 + lane + 16) << lane;
  for (int lane = 16; lane < 32; ++lane) EXPECT_EQ(out[lane], lane - 16) << lane;
}

TEST(WarpOperations, AHalfWarpGroupCompletesBeforeTheFullWarpGroupThatWaitsForIt) {
  std::vector<int> out(32, -1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
                test_kernels::half_group_then_full_group(out.data());
              }).is_ok());
  for (int lane = 0; lane < 32; ++lane) {
    auto before = [](int l) { return l >= 16 ? l + (l ^ 1) : l; };
    EXPECT_EQ(out[lane], before(lane) + before(lane ^ 16)) << lane;
  }
}

TEST(WarpOperations, ActiveMaskNamesTheLanesAtTheCallWhileOthersWaitAtABarrier) {
  std::vector<unsigned> masks(64, 0);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {64, 1, 1}}, fibers(), [&] {
                test_kernels::active_mask_beside_a_barrier(masks.data(), 12);
              }).is_ok());
  for (int t = 0; t < 64; ++t) EXPECT_EQ(masks[t], t % 32 < 12 ? 0xfffu : 0u) << t;
}

TEST(WarpOperations, ABallotBeforeTheBranchGivesTheMaskOfTheLanesInIt) {
  // 70 values over 96 threads: warp 2 holds 6 of them, and its lanes 6–31 skip the branch.
  const int n = 70;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>((i * 37) % 11);
  std::vector<int> counts(3, -1);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {96, 1, 1}}, fibers(), [&] {
                test_kernels::count_above_per_warp(in.data(), n, 5.0f, counts.data());
              }).is_ok());
  for (int w = 0; w < 3; ++w) {
    int expected = 0;
    for (int i = 32 * w; i < std::min(n, 32 * w + 32); ++i) expected += in[i] > 5.0f ? 1 : 0;
    EXPECT_EQ(counts[w], expected) << "warp " << w;
  }
}

TEST(CooperativeGroups, TilesShuffleReduceScanAndVoteAsTheirWarpOperations) {
  const int threads = 64;
  std::vector<int> in(threads);
  for (int i = 0; i < threads; ++i) in[i] = (i * 7) % 13 - 4;
  std::vector<int> shuffled(2, 0), reduced(threads), scanned(threads), eights(threads),
      ranks(threads);
  std::vector<unsigned> ballots(threads);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {threads, 1, 1}}, fibers(), [&] {
                test_kernels::cooperative_group_tiles(in.data(), shuffled.data(), reduced.data(),
                                                      scanned.data(), eights.data(), ballots.data(),
                                                      ranks.data());
              }).is_ok());
  for (int i = 0; i < threads; ++i) {
    const int warp = i / 32, eight = i / 8;
    int warp_sum = 0, prefix = 0, eight_sum = 0;
    unsigned even = 0;
    for (int j = 32 * warp; j < 32 * warp + 32; ++j) {
      warp_sum += in[j];
      if (j <= i) prefix += in[j];
    }
    for (int j = 8 * eight; j < 8 * eight + 8; ++j) {
      eight_sum += in[j];
      if (in[j] % 2 == 0) even |= 1u << (j - 8 * eight);
    }
    if (i % 32 == 0) {
      EXPECT_EQ(shuffled[warp], warp_sum) << "warp " << warp;
    }
    EXPECT_EQ(reduced[i], warp_sum) << i;
    EXPECT_EQ(scanned[i], prefix) << i;
    EXPECT_EQ(eights[i], eight_sum) << i;
    EXPECT_EQ(ballots[i], even) << i;
    EXPECT_EQ(ranks[i], i % 8 + 100 * eight) << i;
  }
}

TEST(WarpOperations, ReadingALaneOutsideAPartialWarpIsAnError) {
  // 48 threads: warp 1 has lanes 0–15 only; lane 0 reading lane 16 reads nobody.
  std::vector<float> in(48, 1.0f), sums(2, 0.0f);
  const Status status = run_grid({{1, 1, 1}, {48, 1, 1}}, fibers(),
                                 [&] { test_kernels::warp_sums(in.data(), sums.data()); });
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("warp 1"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("reads lane 16"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("does not exist"), std::string::npos) << status.message();
}

TEST(WarpOperations, AWarpOperationAgainstABarrierIsAnError) {
  const Status status = run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
    if (threadIdx.x == 0) {
      __syncthreads();
    } else {
      __syncwarp();
    }
  });
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("__syncthreads"), std::string::npos) << status.message();
}

TEST(WarpOperations, BarrierFreeLaunchRefusesWarpOperations) {
  std::vector<int> in(32, 1), out(32, 0);
  const Status status = run_grid({{1, 1, 1}, {32, 1, 1}}, {},
                                 [&] { test_kernels::butterfly_sums(in.data(), out.data()); });
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("__shfl_xor_sync"), std::string::npos) << status.message();
}

TEST(WarpOperations, AnInvalidWidthIsAnError) {
  std::vector<int> in(32, 1), out(32, 0);
  const Status status = run_grid({{1, 1, 1}, {32, 1, 1}}, fibers(), [&] {
    test_kernels::segment_broadcast(in.data(), out.data(), 0, 12);
  });
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("power of two"), std::string::npos) << status.message();
}

TEST(EmulatedAtomics, AreAtomicAcrossParallelWorkers) {
  const unsigned blocks = 64, threads = 256, n = blocks * threads;
  std::vector<int> values(n);
  for (unsigned i = 0; i < n; ++i) values[i] = static_cast<int>((i * 7919u) % 100003u) - 50000;
  int int_sum = 0, largest = -1000000, smallest = 1000000, slot = -1;
  unsigned unsigned_sum = 0, cas_count = 0;
  float float_sum = 0.0f;
  double double_sum = 0.0;
  std::vector<int> exchanged(n, -2);
  // Four workers on any machine: the atomics must hold with blocks really running at once.
  ASSERT_TRUE(run_grid({{blocks, 1, 1}, {threads, 1, 1}}, fibers(4), [&] {
                test_kernels::atomics(values.data(), &int_sum, &unsigned_sum, &float_sum,
                                      &double_sum, &largest, &smallest, &cas_count, &slot,
                                      exchanged.data());
              }).is_ok());
  EXPECT_EQ(int_sum, std::accumulate(values.begin(), values.end(), 0));
  EXPECT_EQ(unsigned_sum, n);
  EXPECT_EQ(float_sum, static_cast<float>(n));  // exact: n < 2^24
  EXPECT_EQ(double_sum, n * 0.5);
  EXPECT_EQ(largest, *std::max_element(values.begin(), values.end()));
  EXPECT_EQ(smallest, *std::min_element(values.begin(), values.end()));
  EXPECT_EQ(cas_count, n);
  // Exchanges form one chain: every old value was some thread's index (or the initial -1) exactly
  // once, and the last one stayed in the slot.
  std::vector<int> seen = exchanged;
  seen.push_back(slot);
  std::sort(seen.begin(), seen.end());
  for (unsigned i = 0; i <= n; ++i) ASSERT_EQ(seen[i], static_cast<int>(i) - 1);
}

TEST(EmulatedAtomics, SharedMemoryHistogramMergedWithGlobalAtomics) {
  const int n = 10007;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = (i * 31) % 97;
  std::vector<unsigned> histogram(16, 0), expected(16, 0);
  for (int v : values) ++expected[v % 16];
  ASSERT_TRUE(run_grid({{8, 1, 1}, {128, 1, 1}}, fibers(4), [&] {
                test_kernels::shared_histogram(values.data(), n, histogram.data());
              }).is_ok());
  EXPECT_EQ(histogram, expected);
}

TEST(DynamicSharedMemory, IsSizedByTheLaunchAndSharedByTheBlock) {
  const unsigned blocks = 6, threads = 200;
  std::vector<float> in(blocks * threads), out(in.size(), -1.0f);
  std::iota(in.begin(), in.end(), 0.0f);
  GridOptions options = fibers(2);
  options.dynamic_shared_bytes = threads * sizeof(float);
  ASSERT_TRUE(run_grid({{blocks, 1, 1}, {threads, 1, 1}}, options, [&] {
                test_kernels::reverse_through_dynamic_shared(in.data(), out.data());
              }).is_ok());
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < threads; ++t) {
      ASSERT_EQ(out[b * threads + t], static_cast<float>(b * threads + threads - 1 - t));
    }
  }
}

TEST(DynamicSharedMemory, NoneAskedForIsNullAndTooMuchIsRefused) {
  unsigned char* seen = reinterpret_cast<unsigned char*>(1);
  ASSERT_TRUE(
      run_grid({{1, 1, 1}, {1, 1, 1}}, {}, [&] { seen = dynamic_shared_memory(); }).is_ok());
  EXPECT_EQ(seen, nullptr);
  GridOptions options;
  options.dynamic_shared_bytes = kMaxDynamicSharedBytes + 1;
  const Status status = run_grid({{1, 1, 1}, {1, 1, 1}}, options, [] {});
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("dynamic shared memory"), std::string::npos);
}

TEST(DeviceMath, CudaNamesComputeWhatTheGpuComputes) {
  std::vector<float> x = {0.25f, 1.0f, 1.75f, 4.0f}, out(4 * 6);
  std::vector<int> ints(4 * 3);
  ASSERT_TRUE(run_grid({{1, 1, 1}, {4, 1, 1}}, {}, [&] {
                test_kernels::device_math(x.data(), out.data(), ints.data());
              }).is_ok());
  for (int i = 0; i < 4; ++i) {
    const float v = x[i];
    EXPECT_FLOAT_EQ(out[i * 6 + 0], 1.0f / std::sqrt(v));
    EXPECT_EQ(out[i * 6 + 1], 0.0f);
    EXPECT_FLOAT_EQ(out[i * 6 + 2], std::clamp(v - 1.0f, 0.0f, 1.0f));
    EXPECT_FLOAT_EQ(out[i * 6 + 3], std::max(v, 2.0f) + std::min(v, 2.0f));
    EXPECT_FLOAT_EQ(out[i * 6 + 4], std::clamp(v - 1.5f, 0.0f, 1.0f));
    EXPECT_FLOAT_EQ(out[i * 6 + 5], v / 2.0f);
    EXPECT_EQ(ints[i * 3 + 0], std::min(i, 3));
    EXPECT_EQ(ints[i * 3 + 1], std::max(i, 3));
    EXPECT_EQ(ints[i * 3 + 2], __builtin_popcount(i) + __builtin_ffs(i));
  }
}

}  // namespace
}  // namespace tl::emu
