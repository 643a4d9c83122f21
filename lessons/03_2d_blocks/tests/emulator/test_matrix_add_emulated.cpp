// The matrix-add runner on the emulator alone: the two mappings' traces side by side, its refusals
// and its timings. Both mappings on odd sizes and grids on every device are
// lessons/03_2d_blocks/tests/test_matrix_add.cpp.

#include <gtest/gtest.h>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "lessons/03_2d_blocks/matrix_add_runner.hpp"

namespace tl::compute {
namespace {

using lessons::MatrixAddParams;
using lessons::MatrixMapping;

MatrixAddParams covering(std::uint64_t rows, std::uint64_t cols, Dim3 block,
                         MatrixMapping mapping) {
  return {rows, cols, lessons::matrix_covering_config(rows, cols, block, mapping), mapping};
}
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
