#include "lessons/04_matmul/matmul_tiles.hpp"

#include <gtest/gtest.h>

namespace tl::lessons {
namespace {

TEST(MatmulTiles, NaiveThreadReadsAWholeRowOfAAndColumnOfB) {
  auto reads = naive_reads({37, 53, 29}, 36, 10);
  ASSERT_TRUE(reads.is_ok()) << reads.message();
  EXPECT_EQ(reads->a_row, 36u);
  EXPECT_EQ(reads->a_cols, (IndexRange{0, 29}));
  EXPECT_EQ(reads->b_rows, (IndexRange{0, 29}));
  EXPECT_EQ(reads->b_col, 10u);
  EXPECT_FALSE(naive_reads({37, 53, 29}, 37, 0).is_ok());
  EXPECT_FALSE(naive_reads({37, 53, 29}, 0, 53).is_ok());
}

TEST(MatmulTiles, FullTilesInsideTheMatrix) {
  // C(20, 5) with TILE 16: block rows 16..31, block columns 0..15, K = 64 in four phases.
  auto phases = tiled_phases({64, 64, 64}, 20, 5, 16);
  ASSERT_TRUE(phases.is_ok()) << phases.message();
  ASSERT_EQ(phases->size(), 4u);
  for (std::uint32_t p = 0; p < 4; ++p) {
    const TilePhase& phase = (*phases)[p];
    EXPECT_EQ(phase.phase, p);
    EXPECT_EQ(phase.k_range, (IndexRange{p * 16, p * 16 + 16}));
    EXPECT_EQ(phase.a_rows, (IndexRange{16, 32}));
    EXPECT_EQ(phase.a_cols, phase.k_range);
    EXPECT_EQ(phase.b_rows, phase.k_range);
    EXPECT_EQ(phase.b_cols, (IndexRange{0, 16}));
    // Thread (x = 5, y = 4) copies A(20, 16p + 5) and B(16p + 4, 5).
    EXPECT_EQ(phase.a_loaded_by_thread, (MatrixCell{20, p * 16 + 5}));
    EXPECT_EQ(phase.b_loaded_by_thread, (MatrixCell{p * 16 + 4, 5}));
  }
}

TEST(MatmulTiles, PartialTilesAtTheEdgesAreClipped) {
  // 37×53×29, TILE 16: C(36, 52) is in the last block (rows 32..36, columns 48..52); K = 29 takes
  // two phases, the second covering K indices 16..28 only.
  auto phases = tiled_phases({37, 53, 29}, 36, 52, 16);
  ASSERT_TRUE(phases.is_ok()) << phases.message();
  ASSERT_EQ(phases->size(), 2u);
  const TilePhase& last = (*phases)[1];
  EXPECT_EQ(last.k_range, (IndexRange{16, 29}));
  EXPECT_EQ(last.a_rows, (IndexRange{32, 37}));
  EXPECT_EQ(last.b_cols, (IndexRange{48, 53}));
  EXPECT_EQ(last.a_rows.size(), 5u);
  // Thread (x = 4, y = 4): A(36, 20) and B(20, 52) are inside.
  EXPECT_EQ(last.a_loaded_by_thread, (MatrixCell{36, 20}));
  EXPECT_EQ(last.b_loaded_by_thread, (MatrixCell{20, 52}));

  // Thread (x = 15, y = 12) of the first block: in phase 1 its A column 16 + 15 = 31 is past
  // K = 29, so it stores a zero instead of loading; its B row 16 + 12 = 28 is still inside.
  auto first_block = tiled_phases({37, 53, 29}, 12, 15, 16);
  ASSERT_TRUE(first_block.is_ok());
  EXPECT_FALSE((*first_block)[1].a_loaded_by_thread.has_value());
  EXPECT_EQ((*first_block)[1].b_loaded_by_thread, (MatrixCell{28, 15}));
  EXPECT_EQ((*first_block)[0].a_loaded_by_thread, (MatrixCell{12, 15}));
}

TEST(MatmulTiles, OnePhasePerTileOfK) {
  for (std::uint32_t tile : {8u, 16u, 32u}) {
    for (std::uint32_t k : {1u, 7u, 8u, 9u, 64u, 100u}) {
      auto phases = tiled_phases({1, 1, k}, 0, 0, tile);
      ASSERT_TRUE(phases.is_ok());
      ASSERT_EQ(phases->size(), (k + tile - 1) / tile) << tile << " " << k;
      // The phases cover 0..K exactly once, in order.
      std::uint32_t next = 0;
      for (const TilePhase& phase : *phases) {
        EXPECT_EQ(phase.k_range.begin, next);
        next = phase.k_range.end;
      }
      EXPECT_EQ(next, k);
    }
  }
}

TEST(MatmulTiles, RefusesElementsOutsideCAndUnknownTiles) {
  EXPECT_FALSE(tiled_phases({8, 8, 8}, 8, 0, 8).is_ok());
  EXPECT_FALSE(tiled_phases({8, 8, 8}, 0, 8, 8).is_ok());
  const auto bad_tile = tiled_phases({8, 8, 8}, 0, 0, 12);
  ASSERT_FALSE(bad_tile.is_ok());
  EXPECT_NE(bad_tile.message().find("TILE = 12"), std::string::npos) << bad_tile.message();
}

}  // namespace
}  // namespace tl::lessons

namespace tl::lessons {
namespace {

TEST(MatmulElementReads, FromTheLessonValuesForBothKernels) {
  ParamValues values = {{"m", "40"}, {"n", "24"}, {"k", "20"}, {"kernel", "tiled"}, {"tile", "8"}};
  auto tiled = matmul_element_reads(values, 17, 9);
  ASSERT_TRUE(tiled.is_ok()) << tiled.message();
  EXPECT_TRUE(tiled->tiled);
  EXPECT_EQ(tiled->size.k, 20u);
  EXPECT_EQ(tiled->naive.a_row, 17u);
  EXPECT_EQ(tiled->naive.b_col, 9u);
  ASSERT_EQ(tiled->phases.size(), 3u);  // ceil(20 / 8)
  EXPECT_EQ(tiled->phases[2].k_range, (IndexRange{16, 20}));
  EXPECT_EQ(tiled->phases[0].a_rows, (IndexRange{16, 24}));  // the block's rows of C

  values["kernel"] = "naive";
  auto naive = matmul_element_reads(values, 0, 0);
  ASSERT_TRUE(naive.is_ok()) << naive.message();
  EXPECT_FALSE(naive->tiled);
  EXPECT_TRUE(naive->phases.empty());
  EXPECT_EQ(naive->naive.a_cols, (IndexRange{0, 20}));
}

TEST(MatmulElementReads, OutsideCOrMissingSizesAreErrors) {
  const ParamValues values = {{"m", "4"}, {"n", "4"}, {"k", "4"}, {"kernel", "naive"}};
  EXPECT_FALSE(matmul_element_reads(values, 4, 0).is_ok());
  EXPECT_FALSE(matmul_element_reads({{"m", "4"}}, 0, 0).is_ok());
}

}  // namespace
}  // namespace tl::lessons
