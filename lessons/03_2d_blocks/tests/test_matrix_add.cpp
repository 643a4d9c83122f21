// The matrix-add kernels on every device (tests/devices/device_under_test.hpp), through the runner
// the app uses: both index mappings against the CPU reference on odd sizes and grids (too small,
// far too large, a z extent), and their traces against the analytic mappings.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "device_under_test.hpp"
#include "lessons/03_2d_blocks/matrix_add_runner.hpp"

namespace tl::testing {
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

std::vector<MatrixAddParams> odd_sizes_and_grids() {
  return {covering(1, 1, {1, 1, 1}, MatrixMapping::kXToCol),
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
          with_grid(20, 30, {4, 3, 1}, {8, 8, 2}, MatrixMapping::kXToCol)};
}

std::string describe(const MatrixAddParams& p) {
  return std::to_string(p.rows) + "x" + std::to_string(p.cols) + " " + p.config.to_string() + " " +
         std::string(to_string(p.mapping));
}

class MatrixAddKernels : public OnEveryDevice {};

TEST_P(MatrixAddKernels, BothMappingsMatchTheCpuReference) {
  for (const MatrixAddParams& p : odd_sizes_and_grids()) {
    SCOPED_TRACE(describe(p));

    compute::MatrixAddRequest request;
    request.params = p;
    request.warmup = 0;
    request.repeats = 1;
    request.time_cpu = false;
    auto report = compute::run_matrix_add(device(), request);
    ASSERT_TRUE(report.is_ok()) << report.message();
    EXPECT_EQ(report->selected, p.mapping);
    const compute::MatrixMappingTiming& selected = report->timing(p.mapping);
    const compute::MatrixMappingTiming& other = report->timing(lessons::other_mapping(p.mapping));
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
}

TEST_P(MatrixAddKernels, TraceEqualsTheAnalyticMapping) {
  for (const MatrixAddParams& p : odd_sizes_and_grids()) {
    SCOPED_TRACE(describe(p));

    compute::HostTraceSink sink;
    auto check = compute::trace_matrix_add(device(), p, sink);
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
}

THREADLAB_ON_EVERY_DEVICE(MatrixAddKernels);

}  // namespace
}  // namespace tl::testing
