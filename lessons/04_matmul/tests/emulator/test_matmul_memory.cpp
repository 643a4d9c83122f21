// Lesson 4's loads on the emulator's memory model, 64³ with blocks of 32 × 8 (a warp is one row
// of 32 threads): the naive kernel's A load is one word for the whole warp (1 sector), its B load
// 32 neighbours (4); x → row (uncoalesced) turns A into 32 words a row apart (32 sectors) and B
// into one. The tiled kernel reads both tiles coalesced and its shared tiles without a conflict.

#include <gtest/gtest.h>

#include "lesson_memory_figures.hpp"

namespace tl::testing {
namespace {

using memory::AccessKind;
using memory::MemorySpace;

class MatmulMemory : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kernels_ = new std::vector<lab::LessonKernelMemory>(record_lesson(
        "matmul", {{"m", "64"}, {"n", "64"}, {"k", "64"}, {"block", "32,8"}, {"tile", "16"}}));
  }
  static void TearDownTestSuite() {
    delete kernels_;
    kernels_ = nullptr;
  }
  static std::vector<lab::LessonKernelMemory>* kernels_;
};
std::vector<lab::LessonKernelMemory>* MatmulMemory::kernels_ = nullptr;

TEST_F(MatmulMemory, NaiveReadsABroadcastFromAAndFourSectorsFromB) {
  const auto* naive = kernel_named(*kernels_, "matmul_naive");
  ASSERT_NE(naive, nullptr);
  const ArrayLoads a = loads_from(*naive, "a");
  const ArrayLoads b = loads_from(*naive, "b");
  // 4 recorded blocks × 8 warps × k = 64 iterations.
  EXPECT_EQ(a.requests, 4u * 8 * 64);
  EXPECT_EQ(b.requests, 4u * 8 * 64);
  EXPECT_EQ(a.sectors, a.requests * 1);
  EXPECT_EQ(b.sectors, b.requests * 4);
  EXPECT_EQ(b.ideal_sectors, b.sectors);
  const auto* line = row_of(*naive, "sum += a[row * k + i] * b[i * n + col];", MemorySpace::kGlobal,
                            AccessKind::kLoad);
  ASSERT_NE(line, nullptr);
  EXPECT_DOUBLE_EQ(line->sectors_per_request(), 2.5);  // the line's two loads together
  EXPECT_DOUBLE_EQ(
      row_of(*naive, "c[row * n + col] = sum;", MemorySpace::kGlobal, AccessKind::kStore)
          ->sectors_per_request(),
      4.0);
}

TEST_F(MatmulMemory, UncoalescedReadsThirtyTwoSectorsFromA) {
  const auto* x_to_row = kernel_named(*kernels_, "matmul_uncoalesced");
  ASSERT_NE(x_to_row, nullptr);
  const ArrayLoads a = loads_from(*x_to_row, "a");
  const ArrayLoads b = loads_from(*x_to_row, "b");
  ASSERT_GT(a.requests, 0u);
  EXPECT_EQ(a.sectors, a.requests * 32);
  EXPECT_EQ(a.ideal_sectors, a.requests * 4);
  EXPECT_EQ(b.sectors, b.requests * 1);
}

TEST_F(MatmulMemory, TiledLoadsAreCoalescedAndItsTilesFreeOfBankConflicts) {
  const auto* tiled = kernel_named(*kernels_, "matmul_tiled<16>");
  ASSERT_NE(tiled, nullptr);
  EXPECT_EQ(tiled->config.block.x, 16u);
  // A warp of the 16 × 16 block is two rows of 16: two 64-byte runs, 4 sectors.
  for (const char* tile :
       {"a_tile[threadIdx.y][threadIdx.x] =", "b_tile[threadIdx.y][threadIdx.x] ="}) {
    const auto* global = row_of(*tiled, tile, MemorySpace::kGlobal, AccessKind::kLoad);
    const auto* shared = row_of(*tiled, tile, MemorySpace::kShared, AccessKind::kStore);
    ASSERT_TRUE(global && shared);
    EXPECT_DOUBLE_EQ(global->sectors_per_request(), 4.0);
    EXPECT_EQ(shared->bank_conflicts(), 0u);
    // 4 blocks × 8 warps × 4 phases of K.
    EXPECT_EQ(shared->requests, 4u * 8 * 4);
  }
  const auto* inner = row_of(*tiled, "sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];",
                             MemorySpace::kShared, AccessKind::kLoad);
  ASSERT_NE(inner, nullptr);
  // a_tile[ty][i]: two words (a multicast), b_tile[i][tx]: 16 words in 16 banks.
  EXPECT_EQ(inner->requests, 4u * 8 * 4 * 16 * 2);
  EXPECT_EQ(inner->bank_conflicts(), 0u);
  EXPECT_EQ(inner->worst_conflict_degree, 1u);
}

}  // namespace
}  // namespace tl::testing
