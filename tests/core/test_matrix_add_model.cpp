#include "lessons/03_2d_blocks/matrix_add.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "lessons/01_vector_add/vector_add.hpp"

namespace tl::lessons {
namespace {

TEST(MatrixAddModel, MappingNamesRoundTrip) {
  for (MatrixMapping m : {MatrixMapping::kXToCol, MatrixMapping::kXToRow}) {
    auto parsed = parse_matrix_mapping(to_string(m));
    ASSERT_TRUE(parsed.is_ok());
    EXPECT_EQ(*parsed, m);
    EXPECT_NE(other_mapping(m), m);
  }
  auto bad = parse_matrix_mapping("columns");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.message().find("x-to-col"), std::string::npos);
  // The spellings of older scripts and links still parse.
  EXPECT_EQ(*parse_matrix_mapping("x_to_row"), MatrixMapping::kXToRow);
}

TEST(MatrixAddModel, CoveringGridsOfBothMappings) {
  // 1000 rows × 300 columns in 16 × 16 blocks: x counts columns (19 blocks) or rows (63 blocks).
  EXPECT_EQ(matrix_covering_config(1000, 300, {16, 16, 1}, MatrixMapping::kXToCol),
            (LaunchConfig{{19, 63, 1}, {16, 16, 1}}));
  EXPECT_EQ(matrix_covering_config(1000, 300, {16, 16, 1}, MatrixMapping::kXToRow),
            (LaunchConfig{{63, 19, 1}, {16, 16, 1}}));
  EXPECT_EQ(matrix_covering_config(1, 1, {32, 8, 1}, MatrixMapping::kXToCol),
            (LaunchConfig{{1, 1, 1}, {32, 8, 1}}));
}

TEST(MatrixAddModel, Validation) {
  MatrixAddParams params;
  params.rows = 0;
  EXPECT_FALSE(validate_matrix_add(params, 0).is_ok());
  params.rows = kMatrixAddMaxDim + 1;
  EXPECT_FALSE(validate_matrix_add(params, 0).is_ok());
  params.rows = 100;
  params.cols = 100;
  params.config = matrix_covering_config(100, 100, {16, 16, 1}, MatrixMapping::kXToCol);
  EXPECT_TRUE(validate_matrix_add(params, 0).is_ok());
  EXPECT_TRUE(validate_matrix_add(params, 120000).is_ok());  // 12 bytes per element
  const Status small_memory = validate_matrix_add(params, 119999);
  ASSERT_FALSE(small_memory.is_ok());
  EXPECT_EQ(small_memory.error().kind, ErrorKind::kOutOfMemory);
  // A grid whose threads reach past INT_MAX columns would wrap the kernel's int col around.
  params.config = {{0x7FFFFFFFu, 1, 1}, {2, 1, 1}};
  const Status too_wide = validate_matrix_add(params, 0);
  ASSERT_FALSE(too_wide.is_ok());
  EXPECT_NE(too_wide.message().find("int row and column"), std::string::npos);
}

TEST(MatrixAddModel, OwnerOfAnElementUnderEachMapping) {
  MatrixAddParams params;
  params.rows = 37;
  params.cols = 53;
  params.config = {{7, 10, 1}, {8, 4, 1}};
  params.mapping = MatrixMapping::kXToCol;
  // (row 9, col 20): x = 20 → block 2, thread 4; y = 9 → block 2, thread 1.
  auto col_owner = matrix_element_owner(params, 9, 20);
  ASSERT_TRUE(col_owner.has_value());
  EXPECT_EQ(*col_owner, (ThreadPosition{{2, 2, 0}, {4, 1, 0}}));
  params.mapping = MatrixMapping::kXToRow;
  // x = 9 → block 1, thread 1; y = 20 → block 5, thread 0.
  auto row_owner = matrix_element_owner(params, 9, 20);
  ASSERT_TRUE(row_owner.has_value());
  EXPECT_EQ(*row_owner, (ThreadPosition{{1, 5, 0}, {1, 0, 0}}));
  // Under x_to_row the grid reaches 56 rows but only 40 columns: column 45 has no thread.
  EXPECT_FALSE(matrix_element_owner(params, 0, 45).has_value());
  EXPECT_FALSE(matrix_element_owner(params, 37, 0).has_value());  // outside the matrix
  EXPECT_EQ(writes_per_covered_element({{1, 1, 3}, {8, 4, 2}}), 6u);
}

TEST(MatrixAddModel, AWarpAlongARowTouchesFourSectorsAndDownAColumnOnePerLane) {
  MatrixAddParams params;
  params.rows = 1024;
  params.cols = 1024;
  params.config = {{32, 128, 1}, {32, 8, 1}};
  params.mapping = MatrixMapping::kXToCol;
  EXPECT_EQ(sectors_per_warp_access(params), 4u);  // 32 floats side by side: 128 bytes
  params.mapping = MatrixMapping::kXToRow;
  EXPECT_EQ(sectors_per_warp_access(params), 32u);  // 32 rows, 4 KiB apart
  // 16 × 16 blocks: a warp is two half-rows (x_to_col, still 4 sectors) or 16 rows × 2 columns,
  // the two columns of a row sharing a sector (x_to_row, 16 sectors).
  params.config.block = {16, 16, 1};
  params.mapping = MatrixMapping::kXToCol;
  EXPECT_EQ(sectors_per_warp_access(params), 4u);
  params.mapping = MatrixMapping::kXToRow;
  EXPECT_EQ(sectors_per_warp_access(params), 16u);
  // A 4-column matrix: rows are 16 bytes, two to a sector.
  params.cols = 4;
  params.config.block = {32, 1, 1};
  EXPECT_EQ(sectors_per_warp_access(params), 16u);
}

TEST(MatrixAddModel, CheckNamesTheWrongElementByRowAndColumn) {
  const std::uint64_t rows = 6, cols = 7;
  std::vector<float> a(rows * cols), b(rows * cols), c(rows * cols);
  fill_random(a, 1);
  fill_random(b, 2);
  matrix_add_reference(a, b, c);
  EXPECT_TRUE(check_matrix_add(a, b, c, cols).passed);
  c[3 * cols + 5] = 0.5f + c[3 * cols + 5];
  const ElementCheck bad = check_matrix_add(a, b, c, cols);
  EXPECT_FALSE(bad.passed);
  EXPECT_EQ(bad.wrong_count, 1u);
  EXPECT_EQ(bad.first_wrong_row, 3u);
  EXPECT_EQ(bad.first_wrong_col, 5u);
  EXPECT_NE(bad.describe().find("(row 3, col 5)"), std::string::npos) << bad.describe();
}

}  // namespace
}  // namespace tl::lessons
