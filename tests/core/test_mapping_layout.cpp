#include <gtest/gtest.h>

#include <cmath>

#include "core/mapping_layout.hpp"

namespace tl {
namespace {

TEST(MappingLayout, DefaultColumnsAreNearSquareMultiplesOf32) {
  EXPECT_EQ(default_columns(1000), 32u);  // sqrt(1000) = 31.6
  EXPECT_EQ(default_columns(1u << 20), 1024u);
  EXPECT_EQ(default_columns(1u << 24), 4096u);
  EXPECT_EQ(default_columns(10), 32u);  // never fewer than one warp per row
  EXPECT_EQ(default_columns(0), 32u);
  for (std::uint64_t n : {100u, 5000u, 123457u, 9999999u}) {
    const std::uint64_t columns = default_columns(n);
    EXPECT_EQ(columns % 32, 0u) << n;
    const double rows = std::ceil(static_cast<double>(n) / static_cast<double>(columns));
    const double aspect = static_cast<double>(columns) / rows;
    if (n >= 5000) {
      EXPECT_GT(aspect, 0.8) << n;
      EXPECT_LT(aspect, 1.25) << n;
    }
  }
}

TEST(MappingLayout, DefaultColumnsFollowTheViewportAspect) {
  const std::uint64_t wide = default_columns(1u << 20, 4.0);
  const double rows = std::ceil(static_cast<double>(1u << 20) / static_cast<double>(wide));
  EXPECT_NEAR(static_cast<double>(wide) / rows, 4.0, 0.2);
  EXPECT_EQ(wide % 32, 0u);
}

TEST(MappingLayout, OneDimensionalLayoutPutsIdleThreadsAfterTheData) {
  // 1000 elements launched as <<<4, 256>>>: 24 idle threads.
  Result<MappingLayout> layout = layout_1d(1000, 1024);
  ASSERT_TRUE(layout.is_ok());
  EXPECT_EQ(layout->elements, 1000u);
  EXPECT_EQ(layout->idle_threads, 24u);
  EXPECT_EQ(layout->cells(), 1024u);
  EXPECT_EQ(layout->columns, 32u);
  EXPECT_EQ(layout->rows(), 32u);
  EXPECT_FALSE(layout->matrix);

  const CellHit data = cell_at(*layout, 31, 7);  // cell 999
  EXPECT_EQ(data.kind, CellKind::kElement);
  EXPECT_EQ(data.cell, 999u);
  const CellHit idle = cell_at(*layout, 31, 8);  // cell 1000: thread 1000 had no element
  EXPECT_EQ(idle.kind, CellKind::kIdleThread);
  EXPECT_EQ(idle.cell, 1000u);
  EXPECT_EQ(cell_at(*layout, 32, 0).kind, CellKind::kNone);
  EXPECT_EQ(cell_at(*layout, 0, 32).kind, CellKind::kNone);
}

TEST(MappingLayout, GridTooSmallHasNoIdleThreads) {
  Result<MappingLayout> layout = layout_1d(1000, 512, 100);
  ASSERT_TRUE(layout.is_ok());
  EXPECT_EQ(layout->idle_threads, 0u);
  EXPECT_EQ(layout->columns, 100u);
  EXPECT_EQ(layout->rows(), 10u);
  // The last row is partly empty when n is not a multiple of the columns.
  Result<MappingLayout> ragged = layout_1d(95, 95, 10);
  EXPECT_EQ(ragged->rows(), 10u);
  EXPECT_EQ(cell_at(*ragged, 9, 4).kind, CellKind::kElement);
  EXPECT_EQ(cell_at(*ragged, 9, 5).kind, CellKind::kNone);
}

TEST(MappingLayout, MatrixLayoutIsRowMajor) {
  Result<MappingLayout> layout = layout_2d(20, 30);
  ASSERT_TRUE(layout.is_ok());
  EXPECT_TRUE(layout->matrix);
  EXPECT_EQ(layout->columns, 30u);
  EXPECT_EQ(layout->rows(), 20u);
  const CellHit hit = cell_at(*layout, 3, 5);
  EXPECT_EQ(hit.cell, 3u * 30u + 5u);
  EXPECT_EQ(hit.row, 3u);
  EXPECT_EQ(hit.col, 5u);
  EXPECT_FALSE(layout_2d(0, 5).is_ok());
  EXPECT_FALSE(layout_2d(1u << 20, 1u << 20).is_ok());  // more cells than the shader can index
}

TEST(MappingLayout, RefusesMoreCellsThanTheShaderIndexes) {
  Result<MappingLayout> layout = layout_1d(kMaxLayoutCells + 1, 0);
  ASSERT_FALSE(layout.is_ok());
  EXPECT_EQ(layout.error().kind, ErrorKind::kInvalidArgument);
}

TEST(MappingLayout, FitToViewShowsEverythingCentred) {
  const MappingLayout layout = *layout_2d(10, 40);  // 4:1
  const ViewTransform view = fit_to_view(layout, {800, 400});
  EXPECT_DOUBLE_EQ(view.cell_pixels, 20.0);  // width-limited: 800 / 40
  EXPECT_DOUBLE_EQ(view.origin_x, 0.0);
  EXPECT_DOUBLE_EQ(view.origin_y, -5.0);  // 400 px = 20 rows; 10 rows centred leave 5 above
  const CellHit first = element_at(layout, view, 0, 100, {800, 400});
  EXPECT_EQ(first.kind, CellKind::kElement);
  EXPECT_EQ(first.cell, 0u);
  EXPECT_EQ(element_at(layout, view, 0, 99, {800, 400}).kind, CellKind::kNone);
  const CellHit last = element_at(layout, view, 799, 299, {800, 400});
  EXPECT_EQ(last.cell, 399u);

  const ViewTransform with_margin = fit_to_view(layout, {800, 400}, 20);
  EXPECT_DOUBLE_EQ(with_margin.cell_pixels, 19.0);  // (800 - 40) / 40
}

TEST(MappingLayout, ElementAtFollowsZoomAndPan) {
  const MappingLayout layout = *layout_1d(64, 64, 8);
  const ViewTransform view{10.0, 0.0, 0.0};
  const Viewport viewport{80, 80};
  EXPECT_EQ(element_at(layout, view, 0, 0, viewport).cell, 0u);
  EXPECT_EQ(element_at(layout, view, 9, 9, viewport).cell, 0u);
  EXPECT_EQ(element_at(layout, view, 10, 0, viewport).cell, 1u);
  EXPECT_EQ(element_at(layout, view, 35, 21, viewport).cell, 2u * 8u + 3u);
  EXPECT_EQ(element_at(layout, view, -1, 0, viewport).kind, CellKind::kNone);
  EXPECT_EQ(element_at(layout, view, 80, 0, viewport).kind, CellKind::kNone);

  // Dragging the picture 25 px left and 10 px up brings cell (1, 2) under pixel (0, 0).
  const ViewTransform moved = pan_by_pixels(view, -25, -10);
  EXPECT_EQ(element_at(layout, moved, 0, 0, viewport).cell, 1u * 8u + 2u);
}

TEST(MappingLayout, ZoomKeepsThePointUnderTheCursor) {
  const MappingLayout layout = *layout_1d(1u << 16, 1u << 16);
  const Viewport viewport{640, 480};
  ViewTransform view = fit_to_view(layout, viewport);
  const CellHit before = element_at(layout, view, 321, 207, viewport);
  for (int i = 0; i < 10; ++i) {
    view = zoom_about(view, 1.7, 321.5, 207.5);
    EXPECT_EQ(element_at(layout, view, 321, 207, viewport).cell, before.cell) << i;
  }
  EXPECT_GT(view.cell_pixels, 100.0);
  const ViewTransform clamped = zoom_about(view, 1e9, 0, 0);
  EXPECT_DOUBLE_EQ(clamped.cell_pixels, kMaxCellPixels);
}

TEST(MappingLayout, CellCentreRoundTripsThroughPicking) {
  const MappingLayout layout = *layout_1d(5000, 5120);
  const Viewport viewport{500, 500};
  const ViewTransform view = fit_to_view(layout, viewport);
  for (std::uint64_t cell : {0u, 1u, 71u, 4999u, 5000u, 5119u}) {
    const PixelPoint p = cell_center_pixel(layout, view, cell);
    const CellHit hit =
        element_at(layout, view, static_cast<int>(p.x), static_cast<int>(p.y), viewport);
    EXPECT_EQ(hit.cell, cell);
    EXPECT_EQ(hit.kind, cell < 5000 ? CellKind::kElement : CellKind::kIdleThread);
  }
  EXPECT_EQ(shader_transform(view).cells_per_pixel, static_cast<float>(1.0 / view.cell_pixels));
}

}  // namespace
}  // namespace tl
