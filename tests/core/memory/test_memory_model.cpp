#include "core/memory/memory_model.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace tl::memory {
namespace {

// A full warp's access: lane l at address(l), `bytes` each.
std::vector<LaneAccess> warp(const std::function<std::uint64_t(std::uint32_t)>& address,
                             std::uint32_t bytes, std::uint32_t first = 0,
                             std::uint32_t last = 31) {
  std::vector<LaneAccess> lanes;
  for (std::uint32_t l = first; l <= last; ++l) lanes.push_back({l, address(l), bytes});
  return lanes;
}

// A cudaMalloc'd buffer starts at least 256-byte aligned.
constexpr std::uint64_t kBase = 0x7f0000001000;

TEST(GlobalRequestCost, CoalescedFloatsTouchFourSectorsOfOneLine) {
  const GlobalRequestCost c = global_request_cost(warp([](auto l) { return kBase + 4 * l; }, 4));
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.lines, 1u);
  EXPECT_EQ(c.ideal_sectors, 4u);
  EXPECT_EQ(c.bytes_requested, 128u);
  EXPECT_EQ(c.bytes_moved(), 128u);
}

TEST(GlobalRequestCost, AWarpOffByOneFloatStraddlesAFifthSectorAndASecondLine) {
  const GlobalRequestCost c =
      global_request_cost(warp([](auto l) { return kBase + 4 + 4 * l; }, 4));
  EXPECT_EQ(c.sectors, 5u);
  EXPECT_EQ(c.lines, 2u);
  EXPECT_EQ(c.ideal_sectors, 4u);
}

// Lesson 3's x -> row: consecutive lanes a row of 32 floats apart.
TEST(GlobalRequestCost, Stride32FloatsTouchASectorAndALinePerLane) {
  const GlobalRequestCost c =
      global_request_cost(warp([](auto l) { return kBase + 32 * 4 * l; }, 4));
  EXPECT_EQ(c.sectors, 32u);
  EXPECT_EQ(c.lines, 32u);
  EXPECT_EQ(c.ideal_sectors, 4u);
  EXPECT_EQ(c.bytes_moved(), 1024u);  // 8x the 128 bytes used
}

TEST(GlobalRequestCost, Stride2FloatsMoveTwiceTheBytes) {
  const GlobalRequestCost c =
      global_request_cost(warp([](auto l) { return kBase + 2 * 4 * l; }, 4));
  EXPECT_EQ(c.sectors, 8u);
  EXPECT_EQ(c.lines, 2u);
  EXPECT_EQ(c.ideal_sectors, 4u);
}

TEST(GlobalRequestCost, AFloat4LoadIsSixteenSectorsOverFourLines) {
  const GlobalRequestCost c = global_request_cost(warp([](auto l) { return kBase + 16 * l; }, 16));
  EXPECT_EQ(c.sectors, 16u);
  EXPECT_EQ(c.lines, 4u);
  EXPECT_EQ(c.ideal_sectors, 16u);
  EXPECT_EQ(c.bytes_requested, 512u);
}

TEST(GlobalRequestCost, CoalescedDoublesAreEightSectors) {
  const GlobalRequestCost c = global_request_cost(warp([](auto l) { return kBase + 8 * l; }, 8));
  EXPECT_EQ(c.sectors, 8u);
  EXPECT_EQ(c.lines, 2u);
}

TEST(GlobalRequestCost, EveryLaneOnOneWordIsOneSectorAndIdeal) {
  const GlobalRequestCost c = global_request_cost(warp([](auto) { return kBase + 64; }, 4));
  EXPECT_EQ(c.sectors, 1u);
  EXPECT_EQ(c.ideal_sectors, 1u);
  EXPECT_EQ(c.bytes_requested, 128u);
  EXPECT_EQ(c.distinct_bytes, 4u);
}

TEST(GlobalRequestCost, OnlyActiveLanesCount) {
  const GlobalRequestCost c =
      global_request_cost(warp([](auto l) { return kBase + 4 * l; }, 4, 0, 15));
  EXPECT_EQ(c.sectors, 2u);
  EXPECT_EQ(c.ideal_sectors, 2u);
  EXPECT_EQ(global_request_cost({}).sectors, 0u);
}

TEST(SharedBank, FourByteWordsOverThirtyTwoBanks) {
  EXPECT_EQ(shared_bank(0), 0u);
  EXPECT_EQ(shared_bank(3), 0u);
  EXPECT_EQ(shared_bank(4), 1u);
  EXPECT_EQ(shared_bank(124), 31u);
  EXPECT_EQ(shared_bank(128), 0u);
}

// Lessons 4 and the transpose: a 32x32 float tile read down a column.
TEST(SharedRequestCost, AColumnOfAThirtyTwoWideTileIsAThirtyTwoWayConflict) {
  const int col = 5;
  const SharedRequestCost c =
      shared_request_cost(warp([&](auto l) { return (l * 32 + col) * 4ull; }, 4));
  EXPECT_EQ(c.conflict_degree, 32u);
  EXPECT_EQ(c.wavefronts, 32u);
  EXPECT_EQ(c.ideal_wavefronts(), 1u);
  EXPECT_EQ(c.bank_conflicts(), 31u);
  EXPECT_FALSE(c.broadcast);
}

TEST(SharedRequestCost, PaddingTheTileToThirtyThreeColumnsRemovesTheConflict) {
  const int col = 5;
  const SharedRequestCost c =
      shared_request_cost(warp([&](auto l) { return (l * 33 + col) * 4ull; }, 4));
  EXPECT_EQ(c.conflict_degree, 1u);
  EXPECT_EQ(c.wavefronts, 1u);
  EXPECT_EQ(c.bank_conflicts(), 0u);
}

TEST(SharedRequestCost, ARowOfTheTileIsConflictFree) {
  const SharedRequestCost c =
      shared_request_cost(warp([](auto l) { return (3 * 32 + l) * 4ull; }, 4));
  EXPECT_EQ(c.bank_conflicts(), 0u);
}

TEST(SharedRequestCost, EveryLaneOnOneWordIsABroadcast) {
  const SharedRequestCost c = shared_request_cost(warp([](auto) { return 40ull; }, 4));
  EXPECT_TRUE(c.broadcast);
  EXPECT_EQ(c.conflict_degree, 1u);
  EXPECT_EQ(c.bank_conflicts(), 0u);
  EXPECT_EQ(c.multicast_lanes, 32u);
}

TEST(SharedRequestCost, PairsOfLanesOnOneWordAreAMulticastWithoutConflict) {
  const SharedRequestCost c = shared_request_cost(warp([](auto l) { return (l / 2) * 4ull; }, 4));
  EXPECT_FALSE(c.broadcast);
  EXPECT_EQ(c.multicast_lanes, 32u);
  EXPECT_EQ(c.bank_conflicts(), 0u);
}

TEST(SharedRequestCost, BytesOfOneWordDoNotConflict) {
  const SharedRequestCost c = shared_request_cost(warp([](auto l) { return l; }, 1));
  EXPECT_EQ(c.conflict_degree, 1u);
  EXPECT_EQ(c.bank_conflicts(), 0u);
}

// Lesson 6's interleaved tree: s[2 * stride * tid] at stride 1 puts lanes l and l + 16 on one bank.
TEST(SharedRequestCost, Stride2FloatsAreATwoWayConflict) {
  const SharedRequestCost c = shared_request_cost(warp([](auto l) { return 2 * 4ull * l; }, 4));
  EXPECT_EQ(c.conflict_degree, 2u);
  EXPECT_EQ(c.wavefronts, 2u);
  EXPECT_EQ(c.bank_conflicts(), 1u);
}

TEST(SharedRequestCost, ConsecutiveDoublesTakeTwoHalfWarpWavefrontsWithoutConflict) {
  const SharedRequestCost c = shared_request_cost(warp([](auto l) { return 8ull * l; }, 8));
  EXPECT_EQ(c.phases, 2u);
  EXPECT_EQ(c.wavefronts, 2u);
  EXPECT_EQ(c.conflict_degree, 1u);
  EXPECT_EQ(c.bank_conflicts(), 0u);
}

// Every other double: within each half-warp lanes l and l + 8 share banks (4l and 4l + 32 words).
TEST(SharedRequestCost, EveryOtherDoubleIsATwoWayConflictInEachHalfWarp) {
  const SharedRequestCost c = shared_request_cost(warp([](auto l) { return 16ull * l; }, 8));
  EXPECT_EQ(c.phases, 2u);
  EXPECT_EQ(c.conflict_degree, 2u);
  EXPECT_EQ(c.wavefronts, 4u);
  EXPECT_EQ(c.bank_conflicts(), 2u);
}

// Doubles a row of 32 floats apart: within a half-warp the 16 lanes hit banks 0 and 1 only.
TEST(SharedRequestCost, ADoubleColumnConflictsSixteenWaysPerHalfWarp) {
  const SharedRequestCost c = shared_request_cost(warp([](auto l) { return 128ull * l; }, 8));
  EXPECT_EQ(c.conflict_degree, 16u);
  EXPECT_EQ(c.wavefronts, 32u);
  EXPECT_EQ(c.bank_conflicts(), 30u);
}

TEST(SharedRequestCost, ABroadcastDoubleConflictsWithNothing) {
  const SharedRequestCost c = shared_request_cost(warp([](auto) { return 64ull; }, 8));
  EXPECT_TRUE(c.broadcast);
  EXPECT_EQ(c.bank_conflicts(), 0u);
}

TEST(SharedRequestCost, ConsecutiveFloat4sTakeFourQuarterWarpWavefronts) {
  const SharedRequestCost c = shared_request_cost(warp([](auto l) { return 16ull * l; }, 16));
  EXPECT_EQ(c.phases, 4u);
  EXPECT_EQ(c.wavefronts, 4u);
  EXPECT_EQ(c.bank_conflicts(), 0u);
}

TEST(SharedRequestCost, OnlyPhasesWithActiveLanesCount) {
  const SharedRequestCost c = shared_request_cost(warp([](auto l) { return 8ull * l; }, 8, 16, 31));
  EXPECT_EQ(c.phases, 1u);
  EXPECT_EQ(c.wavefronts, 1u);
}

TEST(MetricNames, AreNsightComputesCounters) {
  EXPECT_EQ(metric_names(MemorySpace::kGlobal, AccessKind::kLoad).sectors,
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(metric_names(MemorySpace::kGlobal, AccessKind::kStore).requests,
            "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  EXPECT_EQ(metric_names(MemorySpace::kShared, AccessKind::kLoad).bank_conflicts,
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  EXPECT_EQ(metric_names(MemorySpace::kShared, AccessKind::kStore).bank_conflicts,
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
  // The instruction-level counts the GPU test found equal to the model's (MemoryModelNcu).
  EXPECT_EQ(metric_names(MemorySpace::kShared, AccessKind::kLoad).requests,
            "smsp__sass_inst_executed_op_shared_ld.sum");
  EXPECT_EQ(metric_names(MemorySpace::kShared, AccessKind::kLoad).wavefronts,
            "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
}

WarpRequest request(std::uint32_t site, MemorySpace space, AccessKind kind,
                    std::vector<LaneAccess> lanes) {
  WarpRequest r;
  r.site = site;
  r.space = space;
  r.kind = kind;
  r.lanes = std::move(lanes);
  return r;
}

TEST(TabulateByLine, SumsTheSitesOfALineAndKeepsSpacesAndKindsApart) {
  using enum MemorySpace;
  using enum AccessKind;
  auto coalesced = warp([](auto l) { return kBase + 4 * l; }, 4);
  auto strided = warp([](auto l) { return kBase + 128 * l; }, 4);
  auto column = warp([](auto l) { return l * 128ull; }, 4);
  const std::vector<WarpRequest> requests = {
      request(0, kGlobal, kLoad, coalesced),  // line 7: c[i] = a[i] + b[i]'s a[i]
      request(1, kGlobal, kLoad, strided),    // line 7: its b[i]
      request(0, kGlobal, kLoad, coalesced),  // line 7 again, another warp
      request(2, kGlobal, kStore, coalesced), request(3, kShared, kLoad, column),
  };
  const std::vector<int> lines = {7, 7, 7, 9};
  const MemoryTable t = tabulate_by_line(requests, lines, 2, 8);
  ASSERT_EQ(t.rows.size(), 3u);
  const LineTotals& loads = t.rows[0];
  EXPECT_EQ(loads.line, 7);
  EXPECT_EQ(loads.kind, kLoad);
  EXPECT_EQ(loads.requests, 3u);
  EXPECT_EQ(loads.sectors, 4u + 32u + 4u);
  EXPECT_DOUBLE_EQ(loads.sectors_per_request(), 40.0 / 3.0);
  EXPECT_DOUBLE_EQ(loads.ideal_sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(loads.bytes_moved_per_byte_requested(), 40.0 * 32 / (3 * 128));
  const LineTotals& stores = t.rows[1];
  EXPECT_EQ(stores.line, 7);
  EXPECT_EQ(stores.kind, kStore);
  EXPECT_EQ(stores.requests, 1u);
  const LineTotals& shared = t.rows[2];
  EXPECT_EQ(shared.line, 9);
  EXPECT_EQ(shared.space, kShared);
  EXPECT_EQ(shared.bank_conflicts(), 31u);
  EXPECT_EQ(shared.worst_conflict_degree, 32u);
  EXPECT_TRUE(t.extrapolated());
  EXPECT_DOUBLE_EQ(t.grid_scale(), 4.0);
}

TEST(TabulateByLine, ASiteWithoutALineCountsAsLineZero) {
  const std::vector<WarpRequest> requests = {request(5, MemorySpace::kGlobal, AccessKind::kLoad,
                                                     warp([](auto l) { return 4ull * l; }, 4))};
  const MemoryTable t = tabulate_by_line(requests, {}, 1, 1);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].line, 0);
  EXPECT_FALSE(t.extrapolated());
}

}  // namespace
}  // namespace tl::memory
