// Lesson 3's claim, on the emulator's memory model: with blocks 32 wide a warp of x → column reads
// 32 neighbouring floats of one row (4 sectors of 32 bytes, the ideal), a warp of x → row 32 floats
// a row apart (32 sectors for the same 128 useful bytes).

#include <gtest/gtest.h>

#include "lesson_memory_figures.hpp"

namespace tl::testing {
namespace {

using memory::AccessKind;
using memory::MemorySpace;

TEST(MatrixAddMemory, XToColumnMovesFourSectorsPerRequestAndXToRowThirtyTwo) {
  const auto kernels =
      record_lesson("2d-blocks", {{"rows", "256"}, {"cols", "256"}, {"block", "32,8"}});
  const auto* col = kernel_named(kernels, "matrix_add_x_to_col");
  const auto* row = kernel_named(kernels, "matrix_add_x_to_row");
  ASSERT_TRUE(col && row);
  for (const auto* k : {col, row}) {
    // 256 blocks of 8 warps; the first, the last and two between are recorded.
    EXPECT_EQ(k->table.recorded_blocks, 4u);
    EXPECT_EQ(k->table.grid_blocks, 256u);
    EXPECT_TRUE(k->table.extrapolated());
    const auto* loads = row_of(*k, "c[i] = a[i] + b[i];", MemorySpace::kGlobal, AccessKind::kLoad);
    const auto* stores =
        row_of(*k, "c[i] = a[i] + b[i];", MemorySpace::kGlobal, AccessKind::kStore);
    ASSERT_TRUE(loads && stores);
    EXPECT_EQ(loads->requests, 4u * 8 * 2);  // A and B, one request each per warp
    EXPECT_EQ(stores->requests, 4u * 8);
    EXPECT_DOUBLE_EQ(loads->ideal_sectors_per_request(), 4.0);
  }
  EXPECT_DOUBLE_EQ(
      row_of(*col, "c[i]", MemorySpace::kGlobal, AccessKind::kLoad)->sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(
      row_of(*col, "c[i]", MemorySpace::kGlobal, AccessKind::kStore)->sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(
      row_of(*row, "c[i]", MemorySpace::kGlobal, AccessKind::kLoad)->sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(
      row_of(*row, "c[i]", MemorySpace::kGlobal, AccessKind::kStore)->sectors_per_request(), 32.0);
  // The line named is the .cuh's own: the x → row kernel's add comes after x → column's.
  EXPECT_LT(col->table.rows.front().line, row->table.rows.front().line);
}

TEST(MatrixAddMemory, SixteenWideBlocksHalveTheStride) {
  // A warp of 16 × 2 threads: x → row covers 16 rows of two neighbouring columns, 16 sectors.
  const auto kernels =
      record_lesson("2d-blocks", {{"rows", "256"}, {"cols", "256"}, {"block", "16,16"}});
  const auto* row = kernel_named(kernels, "matrix_add_x_to_row");
  ASSERT_NE(row, nullptr);
  EXPECT_DOUBLE_EQ(
      row_of(*row, "c[i]", MemorySpace::kGlobal, AccessKind::kLoad)->sectors_per_request(), 16.0);
}

}  // namespace
}  // namespace tl::testing
