#include "core/memory/warp_requests.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tl::memory {
namespace {

LaneRecord load(std::uint64_t block, std::uint32_t thread, std::uint32_t site,
                std::uint64_t address, MemorySpace space = MemorySpace::kGlobal) {
  return LaneRecord{block, thread, site, address, 4, space, AccessKind::kLoad};
}

// The emulator's order: lane 0 runs its whole loop, then lane 1, ... (no wait in between).
TEST(GroupWarpRequests, TheKthTimeEachLaneRunsASiteIsOneRequest) {
  std::vector<LaneRecord> records;
  for (std::uint32_t thread = 0; thread < 64; ++thread) {
    for (std::uint32_t k = 0; k < 3; ++k)
      records.push_back(load(0, thread, 0, 4 * thread + 1024 * k));
  }
  const auto requests = group_warp_requests(records);
  ASSERT_EQ(requests.size(), 6u);  // 2 warps x 3 trips
  for (const WarpRequest& r : requests) {
    ASSERT_EQ(r.lanes.size(), 32u);
    for (std::uint32_t l = 0; l < 32; ++l) {
      EXPECT_EQ(r.lanes[l].lane, l);
      EXPECT_EQ(r.lanes[l].address, 4 * (32 * r.warp + l) + 1024 * r.occurrence);
    }
  }
  EXPECT_EQ(requests[0].warp, 0u);
  EXPECT_EQ(requests[0].occurrence, 0u);
  EXPECT_EQ(requests[1].occurrence, 1u);
  EXPECT_EQ(requests[3].warp, 1u);
}

TEST(GroupWarpRequests, ALoopWhoseTripCountDiffersPerLaneHasTheLanesOfEachTrip) {
  std::vector<LaneRecord> records;
  for (std::uint32_t thread = 0; thread < 32; ++thread) {
    for (std::uint32_t k = 0; k < thread % 4; ++k) records.push_back(load(0, thread, 3, thread));
  }
  const auto requests = group_warp_requests(records);
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].lanes.size(), 24u);  // lanes with l % 4 >= 1
  EXPECT_EQ(requests[1].lanes.size(), 16u);
  EXPECT_EQ(requests[2].lanes.size(), 8u);
  EXPECT_EQ(requests[2].lanes[0].lane, 3u);
}

TEST(GroupWarpRequests, SitesBlocksSpacesAndKindsAreSeparateRequests) {
  std::vector<LaneRecord> records = {
      load(0, 0, 0, 0),
      load(0, 1, 1, 4),  // two sites
      load(1, 0, 0, 0),  // another block
      load(0, 2, 0, 8, MemorySpace::kShared),
  };
  records.push_back(LaneRecord{0, 3, 0, 12, 4, MemorySpace::kGlobal, AccessKind::kStore});
  const auto requests = group_warp_requests(records);
  ASSERT_EQ(requests.size(), 5u);
  for (const WarpRequest& r : requests) EXPECT_EQ(r.lanes.size(), 1u);
}

TEST(GroupWarpRequests, LanesRecordedOutOfOrderComeBackInLaneOrder) {
  const std::vector<LaneRecord> records = {load(0, 5, 0, 20), load(0, 2, 0, 8), load(0, 9, 0, 36)};
  const auto requests = group_warp_requests(records);
  ASSERT_EQ(requests.size(), 1u);
  ASSERT_EQ(requests[0].lanes.size(), 3u);
  EXPECT_EQ(requests[0].lanes[0].lane, 2u);
  EXPECT_EQ(requests[0].lanes[1].lane, 5u);
  EXPECT_EQ(requests[0].lanes[2].lane, 9u);
}

TEST(BlocksToRecord, AllOfASmallGridElseTheEndsAndBlocksBetween) {
  EXPECT_EQ(blocks_to_record(3, 4), (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(blocks_to_record(1000, 4), (std::vector<std::uint64_t>{0, 333, 666, 999}));
  EXPECT_EQ(blocks_to_record(5, 1), (std::vector<std::uint64_t>{0}));
  EXPECT_TRUE(blocks_to_record(0, 4).empty());
}

}  // namespace
}  // namespace tl::memory
