#include "core/sweep/block_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tl {
namespace {

TEST(BlockSweep, GoesFromOneThreadToTheLimit) {
  const auto counts = block_sweep_threads(1024);
  ASSERT_FALSE(counts.empty());
  EXPECT_EQ(counts.front(), 1u);
  EXPECT_EQ(counts.back(), 1024u);
  EXPECT_TRUE(std::is_sorted(counts.begin(), counts.end()));
  // Partial warps and the multiples of 32 between powers of two are both visited.
  EXPECT_NE(std::find(counts.begin(), counts.end(), 16u), counts.end());
  EXPECT_NE(std::find(counts.begin(), counts.end(), 96u), counts.end());
  EXPECT_NE(std::find(counts.begin(), counts.end(), 768u), counts.end());
  EXPECT_EQ(block_sweep_threads(256).back(), 256u);
}

TEST(BlockSweep, OneDimensionalBlocksAreTheCounts) {
  const auto blocks = block_sweep_1d(512);
  ASSERT_EQ(blocks.size(), block_sweep_threads(512).size());
  EXPECT_EQ(blocks.back(), (Dim3{512, 1, 1}));
}

TEST(BlockSweep, TwoDimensionalBlocksKeepAWarpAcross) {
  const auto blocks = block_sweep_2d(1024, 32, 32);
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(blocks.front(), (Dim3{1, 1, 1}));
  EXPECT_NE(std::find(blocks.begin(), blocks.end(), Dim3{32, 3, 1}), blocks.end());  // 96
  EXPECT_EQ(blocks.back(), (Dim3{32, 32, 1}));
  for (const Dim3& b : blocks) EXPECT_LE(b.volume(), 1024u);
  // A narrower limit on y drops the counts it cannot reach.
  const auto short_blocks = block_sweep_2d(1024, 32, 8);
  EXPECT_EQ(short_blocks.back(), (Dim3{32, 8, 1}));
  // x narrower than 32, e.g. 16: 16 × 64 would exceed y = 32, so 1024 is left out.
  EXPECT_EQ(block_sweep_2d(1024, 16, 32).back(), (Dim3{16, 32, 1}));
}

}  // namespace
}  // namespace tl
