#include "core/grid_diagram.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace tl {
namespace {

std::uint64_t idle_in_shown(const GridDiagram& d) {
  return std::accumulate(
      d.shown.begin(), d.shown.end(), std::uint64_t{0},
      [](std::uint64_t sum, const DiagramBlock& b) { return sum + b.idle_threads; });
}

TEST(GridDiagram, LinearTailIsIdleInTheLastBlockOnly) {
  // 1000 elements, 4 blocks of 256: the last block has 1024 - 1000 = 24 idle threads at its end.
  const GridDiagram d = make_grid_diagram({{4, 1, 1}, {256, 1, 1}}, ThreadCoverage::linear(1000));
  EXPECT_EQ(d.blocks, 4u);
  EXPECT_EQ(d.threads, 1024u);
  EXPECT_EQ(d.warps_per_block, 8u);
  EXPECT_EQ(d.last_warp_threads, 32u);
  ASSERT_TRUE(d.idle_threads.has_value());
  EXPECT_EQ(*d.idle_threads, 24u);
  ASSERT_EQ(d.shown.size(), 4u);
  EXPECT_FALSE(d.gap_before_last);
  EXPECT_EQ(d.shown[0].idle_threads, 0u);
  EXPECT_EQ(d.shown[3].idle_threads, 24u);
  EXPECT_EQ(d.shown[3].idle[231], 0);  // element 999
  EXPECT_EQ(d.shown[3].idle[232], 1);  // would be element 1000
}

TEST(GridDiagram, ManyBlocksKeepTheFirstAndTheLastAndCountTheRestExactly) {
  const GridDiagram d =
      make_grid_diagram({{4096, 1, 1}, {256, 1, 1}}, ThreadCoverage::linear(1000000), 32, 6);
  ASSERT_EQ(d.shown.size(), 6u);
  EXPECT_TRUE(d.gap_before_last);
  EXPECT_EQ(d.shown[4].index, (Dim3{4, 0, 0}));
  EXPECT_EQ(d.shown[5].index, (Dim3{4095, 0, 0}));
  EXPECT_EQ(*d.idle_threads, 4096u * 256u - 1000000u);
  // The last block lies wholly past the data: every thread idle.
  EXPECT_EQ(d.shown[5].idle_threads, 256u);
}

TEST(GridDiagram, ThreeDimensionalBlocksCountThreadsXFastestAndAPartialWarp) {
  // 5 × 3 × 2 = 30 threads per block: one warp of 30, two lanes wasted.
  const GridDiagram d = make_grid_diagram({{2, 2, 1}, {5, 3, 2}}, ThreadCoverage::linear(100));
  EXPECT_EQ(d.warps_per_block, 1u);
  EXPECT_EQ(d.last_warp_threads, 30u);
  EXPECT_EQ(d.threads, 120u);
  EXPECT_EQ(*d.idle_threads, 20u);
  ASSERT_EQ(d.shown.size(), 4u);
  EXPECT_EQ(d.shown[3].index, (Dim3{1, 1, 0}));
  // Block 3 holds global threads 90..119: 90..99 busy, 100..119 idle.
  EXPECT_EQ(d.shown[3].idle_threads, 20u);
  EXPECT_EQ(d.shown[3].idle[9], 0);
  EXPECT_EQ(d.shown[3].idle[10], 1);
}

TEST(GridDiagram, MatrixCoverageGreysThreadsOutsideTheMatrixEitherWay) {
  // 10 rows × 20 cols under 16 × 16 blocks on a 2 × 1 grid: x covers 32 columns, y 16 rows.
  const LaunchConfig config{{2, 1, 1}, {16, 16, 1}};
  const GridDiagram by_col = make_grid_diagram(config, ThreadCoverage::matrix(10, 20));
  EXPECT_EQ(*by_col.idle_threads, 512u - 10u * 20u);
  EXPECT_EQ(idle_in_shown(by_col), *by_col.idle_threads);
  EXPECT_EQ(by_col.shown[0].idle[9 * 16 + 15], 0);  // row 9, col 15
  EXPECT_EQ(by_col.shown[0].idle[10 * 16 + 0], 1);  // row 10
  EXPECT_EQ(by_col.shown[1].idle[0 * 16 + 3], 0);   // col 19
  EXPECT_EQ(by_col.shown[1].idle[0 * 16 + 4], 1);   // col 20
  // x picks the row: x spans 32 ≥ 10 rows, y spans 16 < 20 columns.
  const GridDiagram by_row = make_grid_diagram(config, ThreadCoverage::matrix(10, 20, true));
  EXPECT_EQ(*by_row.idle_threads, 512u - 10u * 16u);
  EXPECT_EQ(idle_in_shown(by_row), *by_row.idle_threads);
}

TEST(GridDiagram, WithoutCoverageNothingIsIdleAndTheCountIsUnknown) {
  const GridDiagram d = make_grid_diagram({{3, 1, 1}, {32, 8, 1}}, std::nullopt);
  EXPECT_FALSE(d.idle_threads.has_value());
  ASSERT_EQ(d.shown.size(), 3u);
  EXPECT_EQ(idle_in_shown(d), 0u);
  EXPECT_EQ(d.shown[0].idle.size(), 256u);
}

TEST(GridDiagram, OversizedBlocksAreCountedButNotDrawn) {
  const GridDiagram d =
      make_grid_diagram({{1, 1, 1}, {2048, 1, 1}}, ThreadCoverage::linear(500000));
  EXPECT_EQ(d.threads, 2048u);
  EXPECT_TRUE(d.shown.empty());
  EXPECT_EQ(*d.idle_threads, 0u);
}

}  // namespace
}  // namespace tl
