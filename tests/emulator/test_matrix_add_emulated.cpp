// The matrix-add kernels on the emulator, through the runner the app uses: both index mappings
// against the CPU reference on odd sizes, and their traces against the analytic mappings.

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "lessons/03_2d_blocks/matrix_add_runner.hpp"

namespace tl::lessons {
// Readable test names' parameters: "37x53 <<<(4, 3), (16, 16)>>> x_to_col".
void PrintTo(const MatrixAddParams& p, std::ostream* out) {
  *out << p.rows << "x" << p.cols << " " << p.config.to_string() << " " << to_string(p.mapping);
}
}  // namespace tl::lessons

namespace tl::compute {
namespace {

using lessons::MatrixAddParams;
using lessons::MatrixMapping;

MatrixAddParams covering(std::uint64_t rows, std::uint64_t cols, Dim3 block,
                         MatrixMapping mapping) {
  return {rows, cols, lessons::matrix_covering_config(rows, cols, block, mapping), mapping};
}
MatrixAddParams with_grid(std::uint64_t rows, std::uint64_t cols, Dim3 grid, Dim3 block,
                          MatrixMapping mapping) {
  return {rows, cols, {grid, block}, mapping};
}

// Elements of the matrix that some thread of the grid reaches under the params' mapping.
std::uint64_t covered_elements(const MatrixAddParams& p) {
  const std::uint64_t x = std::uint64_t{p.config.grid.x} * p.config.block.x;
  const std::uint64_t y = std::uint64_t{p.config.grid.y} * p.config.block.y;
  const bool col_from_x = p.mapping == MatrixMapping::kXToCol;
  return std::min(p.rows, col_from_x ? y : x) * std::min(p.cols, col_from_x ? x : y);
}

class MatrixAddEmulated : public ::testing::TestWithParam<MatrixAddParams> {
 protected:
  std::unique_ptr<Device> device_ = make_emulator_device();
};

TEST_P(MatrixAddEmulated, BothMappingsMatchTheCpuReference) {
  const MatrixAddParams p = GetParam();
  MatrixAddRequest request;
  request.params = p;
  request.warmup = 0;
  request.repeats = 1;
  request.time_cpu = false;
  auto report = run_matrix_add(*device_, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_EQ(report->selected, p.mapping);
  const MatrixMappingTiming& selected = report->timing(p.mapping);
  const MatrixMappingTiming& other = report->timing(lessons::other_mapping(p.mapping));
  EXPECT_EQ(selected.config, p.config);
  EXPECT_EQ(selected.mapping, p.mapping);
  // The other mapping always runs on its own covering grid.
  EXPECT_EQ(other.config, lessons::matrix_covering_config(p.rows, p.cols, p.config.block,
                                                          lessons::other_mapping(p.mapping)));
  ASSERT_TRUE(selected.check.has_value());
  ASSERT_TRUE(other.check.has_value());
  EXPECT_TRUE(other.check->passed) << other.check->describe();
  const std::uint64_t uncovered = p.rows * p.cols - covered_elements(p);
  EXPECT_EQ(selected.check->passed, uncovered == 0) << selected.check->describe();
  EXPECT_EQ(selected.check->wrong_count, uncovered);
  EXPECT_EQ(selected.kernel.repeats, 1);
  EXPECT_GT(selected.sectors_per_warp, 0u);
}

TEST_P(MatrixAddEmulated, TraceEqualsTheAnalyticMapping) {
  const MatrixAddParams p = GetParam();
  HostTraceSink sink;
  auto check = trace_matrix_add(*device_, p, sink);
  ASSERT_TRUE(check.is_ok()) << check.message();
  const auto records = sink.records();
  ASSERT_EQ(records.size(), p.rows * p.cols);
  const std::uint64_t copies = lessons::writes_per_covered_element(p.config);
  for (std::uint64_t row = 0; row < p.rows; ++row) {
    for (std::uint64_t col = 0; col < p.cols; ++col) {
      const std::uint64_t element = row * p.cols + col;
      const DecodedTrace d = decode(records[element], element, {p.rows, p.cols}, p.config);
      ASSERT_EQ(d.row, row);
      ASSERT_EQ(d.col, col);
      const auto owner = lessons::matrix_element_owner(p, row, col);
      if (!owner) {
        ASSERT_EQ(d.writes, 0u) << row << "," << col;
        continue;
      }
      ASSERT_EQ(d.writes, copies) << row << "," << col;
      ASSERT_EQ(d.iteration, 0u);
      if (copies == 1) {
        ASSERT_EQ(d.block, owner->block) << row << "," << col;
        ASSERT_EQ(d.thread, owner->thread) << row << "," << col;
      } else {
        // Several z layers wrote it; the last writer wins, but its x and y are the owner's.
        ASSERT_EQ(d.block.x, owner->block.x);
        ASSERT_EQ(d.block.y, owner->block.y);
        ASSERT_EQ(d.thread.x, owner->thread.x);
        ASSERT_EQ(d.thread.y, owner->thread.y);
      }
    }
  }
  const TraceSummary summary = summarize(records, p.config);
  EXPECT_EQ(summary.unwritten, p.rows * p.cols - covered_elements(p));
  EXPECT_EQ(summary.written_more, copies > 1 ? covered_elements(p) : 0);
  EXPECT_EQ(check->passed, summary.unwritten == 0) << check->describe();
}

INSTANTIATE_TEST_SUITE_P(
    OddSizesAndGrids, MatrixAddEmulated,
    ::testing::Values(covering(1, 1, {1, 1, 1}, MatrixMapping::kXToCol),
                      covering(1, 1, {16, 16, 1}, MatrixMapping::kXToRow),
                      covering(37, 53, {16, 16, 1}, MatrixMapping::kXToCol),
                      covering(37, 53, {16, 16, 1}, MatrixMapping::kXToRow),
                      covering(1000, 3, {32, 8, 1}, MatrixMapping::kXToCol),
                      covering(1000, 3, {32, 8, 1}, MatrixMapping::kXToRow),
                      covering(5, 1000, {8, 32, 1}, MatrixMapping::kXToRow),
                      // Grid too small: columns 96..99 have no thread.
                      with_grid(100, 100, {6, 7, 1}, {16, 16, 1}, MatrixMapping::kXToCol),
                      // Grid too small under x_to_row: rows 64..99 have no thread.
                      with_grid(100, 100, {4, 7, 1}, {16, 16, 1}, MatrixMapping::kXToRow),
                      // Grid far too large.
                      with_grid(10, 10, {3, 3, 1}, {16, 16, 1}, MatrixMapping::kXToRow),
                      // A z extent: two threads compute each element.
                      with_grid(20, 30, {4, 3, 1}, {8, 8, 2}, MatrixMapping::kXToCol)));

TEST(MatrixAddEmulatedMappings, SameResultTracesDifferExactlyAsPredicted) {
  auto device = make_emulator_device();
  const std::uint64_t rows = 37, cols = 53;
  const Dim3 block{8, 4, 1};  // one warp per block
  const MatrixAddParams by_col = covering(rows, cols, block, MatrixMapping::kXToCol);
  const MatrixAddParams by_row = covering(rows, cols, block, MatrixMapping::kXToRow);
  HostTraceSink col_sink, row_sink;
  auto col_check = trace_matrix_add(*device, by_col, col_sink);
  auto row_check = trace_matrix_add(*device, by_row, row_sink);
  ASSERT_TRUE(col_check.is_ok() && row_check.is_ok());
  // Both equal A + B bit for bit, so they equal each other.
  EXPECT_TRUE(col_check->passed) << col_check->describe();
  EXPECT_TRUE(row_check->passed) << row_check->describe();
  for (std::uint64_t row = 0; row < rows; ++row) {
    for (std::uint64_t col = 0; col < cols; ++col) {
      const std::uint64_t e = row * cols + col;
      const DecodedTrace c = decode(col_sink.records()[e], e, {rows, cols}, by_col.config);
      const DecodedTrace r = decode(row_sink.records()[e], e, {rows, cols}, by_row.config);
      // x → column: threadIdx.x walks along the row.
      ASSERT_EQ(c.block, (Dim3{static_cast<std::uint32_t>(col / 8),
                               static_cast<std::uint32_t>(row / 4), 0}));
      ASSERT_EQ(c.thread, (Dim3{static_cast<std::uint32_t>(col % 8),
                                static_cast<std::uint32_t>(row % 4), 0}));
      // x → row: the same picture transposed.
      ASSERT_EQ(r.block, (Dim3{static_cast<std::uint32_t>(row / 8),
                               static_cast<std::uint32_t>(col / 4), 0}));
      ASSERT_EQ(r.thread, (Dim3{static_cast<std::uint32_t>(row % 8),
                                static_cast<std::uint32_t>(col % 4), 0}));
      // Neighbouring lanes: along a row under x_to_col, down a column under x_to_row.
      ASSERT_EQ(c.lane, static_cast<std::int64_t>(col % 8 + 8 * (row % 4)));
      ASSERT_EQ(r.lane, static_cast<std::int64_t>(row % 8 + 8 * (col % 4)));
    }
  }
}

TEST(MatrixAddEmulatedErrors, InvalidBlockIsCudasErrorAndTheDeviceKeepsWorking) {
  auto device = make_emulator_device();
  MatrixAddRequest request;
  request.time_cpu = false;
  request.params = covering(64, 64, {64, 32, 1}, MatrixMapping::kXToCol);  // 2048 threads
  auto report = run_matrix_add(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("invalid configuration argument"), std::string::npos)
      << report.message();
  request.params = covering(64, 64, {32, 32, 1}, MatrixMapping::kXToRow);
  auto again = run_matrix_add(*device, request);
  ASSERT_TRUE(again.is_ok()) << again.message();
  EXPECT_TRUE(again->x_to_col.check->passed);
  EXPECT_TRUE(again->x_to_row.check->passed);
}

TEST(MatrixAddEmulatedErrors, ZeroSizedMatrixIsRefusedWithAReason) {
  auto device = make_emulator_device();
  MatrixAddRequest request;
  request.params = covering(1, 1, {16, 16, 1}, MatrixMapping::kXToCol);
  request.params.cols = 0;
  auto report = run_matrix_add(*device, request);
  ASSERT_FALSE(report.is_ok());
  EXPECT_EQ(report.error().kind, ErrorKind::kInvalidArgument);
}

TEST(MatrixAddEmulatedTimings, ReportsBothMappingsWithBandwidth) {
  auto device = make_emulator_device();
  MatrixAddRequest request;
  request.params = covering(300, 500, {32, 8, 1}, MatrixMapping::kXToRow);
  request.repeats = 3;
  auto report = run_matrix_add(*device, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const MatrixMappingTiming* t : {&report->x_to_col, &report->x_to_row}) {
    EXPECT_EQ(t->kernel.repeats, 3);
    EXPECT_LE(t->kernel.min_ms, t->kernel.median_ms);
    EXPECT_LE(t->kernel.median_ms, t->kernel.max_ms);
    EXPECT_GT(t->gigabytes_per_second, 0.0);
  }
  EXPECT_EQ(report->x_to_col.sectors_per_warp, 4u);
  EXPECT_EQ(report->x_to_row.sectors_per_warp, 32u);
  EXPECT_EQ(report->cpu_single.repeats, 3);
  EXPECT_GT(report->strided_slowdown(), 0.0);
}

}  // namespace
}  // namespace tl::compute
