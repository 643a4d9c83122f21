// The matrix-add kernels on a real GPU: both index mappings against the CPU reference, and their
// traces against the analytic mappings.

#include <gtest/gtest.h>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/03_2d_blocks/matrix_add_runner.hpp"

namespace tl::testing {
namespace {

using compute::HostTraceSink;
using compute::MatrixAddRequest;
using lessons::MatrixAddParams;
using lessons::MatrixMapping;

class MatrixAddGpu : public GpuTest {};

MatrixAddParams covering(std::uint64_t rows, std::uint64_t cols, Dim3 block,
                         MatrixMapping mapping) {
  return {rows, cols, lessons::matrix_covering_config(rows, cols, block, mapping), mapping};
}

MatrixAddRequest quick(const MatrixAddParams& p) {
  MatrixAddRequest request;
  request.params = p;
  request.repeats = 2;
  request.time_cpu = false;
  return request;
}

// Sizes a GPU adds in milliseconds (the odd ones on every device are
// lessons/03_2d_blocks/tests/test_matrix_add.cpp): 4096² and one past it each way.
TEST_F(MatrixAddGpu, LargeMatricesMatchTheCpuReferenceUnderBothMappings) {
  for (const MatrixAddParams& p : {
           covering(4096, 4096, {32, 8, 1}, MatrixMapping::kXToCol),
           covering(4095, 4097, {16, 16, 1}, MatrixMapping::kXToRow),
       }) {
    auto report = compute::run_matrix_add(device(), quick(p));
    ASSERT_TRUE(report.is_ok()) << report.message();
    EXPECT_TRUE(report->on_gpu);
    for (const compute::MatrixMappingTiming* t : {&report->x_to_col, &report->x_to_row}) {
      ASSERT_TRUE(t->check.has_value());
      EXPECT_TRUE(t->check->passed) << p.rows << "x" << p.cols << " " << to_string(t->mapping)
                                    << ": " << t->check->describe();
      EXPECT_GT(t->gigabytes_per_second, 0.0);
    }
  }
}

TEST_F(MatrixAddGpu, GridTooSmallLeavesTheUncoveredColumnsUnwritten) {
  MatrixAddParams p = covering(100, 100, {16, 16, 1}, MatrixMapping::kXToCol);
  p.config.grid = {6, 7, 1};  // 96 columns
  auto report = compute::run_matrix_add(device(), quick(p));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->x_to_col.check->passed);
  EXPECT_EQ(report->x_to_col.check->wrong_count, 400u);
  EXPECT_EQ(report->x_to_col.check->first_wrong_col, 96u);
  EXPECT_TRUE(report->x_to_row.check->passed);  // on its own covering grid
}

TEST_F(MatrixAddGpu, AnOversizedBlockIsCudasErrorAndTheDeviceRecovers) {
  auto failed = compute::run_matrix_add(
      device(), quick(covering(64, 64, {64, 32, 1}, MatrixMapping::kXToCol)));
  ASSERT_FALSE(failed.is_ok());
  EXPECT_EQ(failed.error().kind, ErrorKind::kCudaError);
  EXPECT_NE(failed.message().find("failed to launch"), std::string::npos) << failed.message();
  auto again = compute::run_matrix_add(
      device(), quick(covering(64, 64, {32, 32, 1}, MatrixMapping::kXToCol)));
  ASSERT_TRUE(again.is_ok()) << again.message();
  EXPECT_TRUE(again->x_to_col.check->passed);
}

TEST_F(MatrixAddGpu, TracesOfBothMappingsEqualTheAnalyticMappings) {
  for (MatrixMapping mapping : {MatrixMapping::kXToCol, MatrixMapping::kXToRow}) {
    const MatrixAddParams p = covering(301, 257, {16, 8, 1}, mapping);
    HostTraceSink sink;
    auto check = compute::trace_matrix_add(device(), p, sink);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed) << check->describe();
    ASSERT_EQ(sink.records().size(), p.rows * p.cols);
    for (std::uint64_t row = 0; row < p.rows; ++row) {
      for (std::uint64_t col = 0; col < p.cols; ++col) {
        const std::uint64_t e = row * p.cols + col;
        const DecodedTrace d = decode(sink.records()[e], e, {p.rows, p.cols}, p.config);
        const auto owner = lessons::matrix_element_owner(p, row, col);
        ASSERT_TRUE(owner.has_value());
        ASSERT_EQ(d.writes, 1u) << row << "," << col;
        ASSERT_EQ(d.block, owner->block) << row << "," << col;
        ASSERT_EQ(d.thread, owner->thread) << row << "," << col;
        ASSERT_GE(d.sm, 0);
        ASSERT_LT(d.sm, device().info().multiprocessors);
      }
    }
  }
}

}  // namespace
}  // namespace tl::testing
