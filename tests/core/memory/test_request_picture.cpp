#include "core/memory/request_picture.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace tl::memory {
namespace {

WarpRequest full_warp(MemorySpace space, const std::function<std::uint64_t(std::uint32_t)>& address,
                      std::uint32_t bytes = 4) {
  WarpRequest r;
  r.space = space;
  for (std::uint32_t l = 0; l < 32; ++l) r.lanes.push_back({l, address(l), bytes});
  return r;
}

constexpr std::uint64_t kBase = 0x7f0000001000;  // 256-byte aligned, as cudaMalloc's

// Lesson 3's x -> column: 32 neighbouring floats, 8 lanes to each of 4 sectors of one line.
TEST(RequestPicture, NeighbouringFloatsShareFourSectorsEightLanesEach) {
  const RequestPicture p =
      request_picture(full_warp(MemorySpace::kGlobal, [](auto l) { return kBase + 4 * l; }));
  ASSERT_EQ(p.targets.size(), 4u);
  EXPECT_EQ(p.actual, 4u);
  EXPECT_EQ(p.ideal, 4u);
  EXPECT_EQ(p.lines, 1u);
  for (std::size_t s = 0; s < 4; ++s) {
    EXPECT_EQ(p.targets[s].id, kBase / 32 + s);
    EXPECT_EQ(p.targets[s].line, kBase / 128);
    EXPECT_EQ(p.targets[s].lanes, 8u);
    EXPECT_EQ(p.targets[s].words, 8u);
  }
  ASSERT_EQ(p.lanes.size(), 32u);
  EXPECT_EQ(p.lanes[0].target, 0u);
  EXPECT_EQ(p.lanes[7].target, 0u);
  EXPECT_EQ(p.lanes[8].target, 1u);
  EXPECT_EQ(p.lanes[31].target, 3u);
}

// Lesson 3's x -> row over 64 columns: each lane a row (256 bytes) apart, a sector and a line each.
TEST(RequestPicture, FloatsARowApartTakeASectorEach) {
  const RequestPicture p =
      request_picture(full_warp(MemorySpace::kGlobal, [](auto l) { return kBase + 256 * l; }));
  ASSERT_EQ(p.targets.size(), 32u);
  EXPECT_EQ(p.actual, 32u);
  EXPECT_EQ(p.ideal, 4u);
  EXPECT_EQ(p.lines, 32u);
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(p.lanes[l].target, l);
    EXPECT_EQ(p.targets[l].lanes, 1u);
    EXPECT_EQ(p.targets[l].id, (kBase + 256 * l) / 32);
  }
  EXPECT_NE(p.targets[0].line, p.targets[1].line);
}

TEST(RequestPicture, TargetsAreSortedByAddressWhateverTheLanesOrder) {
  // Lanes walking backwards: lane 0 at the highest sector.
  const RequestPicture p = request_picture(
      full_warp(MemorySpace::kGlobal, [](auto l) { return kBase + 32 * (31 - l); }));
  ASSERT_EQ(p.targets.size(), 32u);
  for (std::size_t s = 1; s < 32; ++s) EXPECT_LT(p.targets[s - 1].id, p.targets[s].id);
  EXPECT_EQ(p.lanes[0].target, 31u);
  EXPECT_EQ(p.lanes[31].target, 0u);
}

TEST(RequestPicture, OnlyTheActiveLanesAreDrawn) {
  WarpRequest r;
  r.space = MemorySpace::kGlobal;
  r.lanes = {{3, kBase, 4}, {17, kBase + 4, 4}};
  const RequestPicture p = request_picture(r);
  ASSERT_EQ(p.lanes.size(), 2u);
  EXPECT_EQ(p.lanes[0].lane, 3u);
  EXPECT_EQ(p.lanes[1].lane, 17u);
  ASSERT_EQ(p.targets.size(), 1u);
  EXPECT_EQ(p.targets[0].lanes, 2u);
  EXPECT_EQ(p.targets[0].words, 2u);
}

// A column of a 32-wide float tile: every lane in the same bank, 32 words stacked there.
TEST(RequestPicture, ATileColumnStacksThirtyTwoWordsInOneBank) {
  const RequestPicture p =
      request_picture(full_warp(MemorySpace::kShared, [](auto l) { return (l * 32 + 5) * 4ull; }));
  ASSERT_EQ(p.targets.size(), 32u) << "every bank is drawn, touched or not";
  EXPECT_EQ(p.targets[5].lanes, 32u);
  EXPECT_EQ(p.targets[5].words, 32u);
  for (std::uint32_t b = 0; b < 32; ++b) {
    if (b != 5) EXPECT_EQ(p.targets[b].lanes, 0u) << b;
    EXPECT_EQ(p.targets[b].id, b);
  }
  for (const PictureLane& l : p.lanes) EXPECT_EQ(l.target, 5u);
  EXPECT_EQ(p.actual, 32u) << "32 wavefronts";
  EXPECT_EQ(p.ideal, 1u);
  EXPECT_EQ(p.conflict_degree, 32u);
}

// Padded to 33 columns: lane l lands in bank (l + 5) % 32, one word each.
TEST(RequestPicture, APaddedTileColumnSpreadsOverEveryBank) {
  const RequestPicture p =
      request_picture(full_warp(MemorySpace::kShared, [](auto l) { return (l * 33 + 5) * 4ull; }));
  for (std::uint32_t l = 0; l < 32; ++l) EXPECT_EQ(p.lanes[l].target, (l + 5) % 32);
  for (const PictureTarget& t : p.targets) {
    EXPECT_EQ(t.lanes, 1u);
    EXPECT_EQ(t.words, 1u);
  }
  EXPECT_EQ(p.actual, 1u);
  EXPECT_EQ(p.conflict_degree, 1u);
}

// Every lane on one word: 32 lanes in one bank but a single word, no conflict.
TEST(RequestPicture, ABroadcastIsOneWordInOneBank) {
  const RequestPicture p =
      request_picture(full_warp(MemorySpace::kShared, [](auto) { return 40ull; }));
  EXPECT_EQ(p.targets[10].lanes, 32u);
  EXPECT_EQ(p.targets[10].words, 1u);
  EXPECT_TRUE(p.broadcast);
  EXPECT_EQ(p.actual, p.ideal);
}

}  // namespace
}  // namespace tl::memory
