#include "core/plot/view_transform.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tl::plot {
namespace {

// 100×100 px at (10, 20): x log over 1..1e4 (25 px per decade), y linear 0..50 (2 px per unit).
ViewTransform sample_view() {
  return ViewTransform({10, 20, 110, 120}, {{1, 1e4}, AxisScale::kLog10},
                       {{0, 50}, AxisScale::kLinear});
}

TEST(ViewTransform, MapsDataToPixelsWithYUp) {
  const ViewTransform view = sample_view();
  EXPECT_DOUBLE_EQ(view.x_to_pixel(1), 10);
  EXPECT_DOUBLE_EQ(view.x_to_pixel(100), 60);
  EXPECT_DOUBLE_EQ(view.x_to_pixel(1e4), 110);
  EXPECT_DOUBLE_EQ(view.y_to_pixel(0), 120);
  EXPECT_DOUBLE_EQ(view.y_to_pixel(50), 20);
  EXPECT_DOUBLE_EQ(view.y_to_pixel(25), 70);
}

TEST(ViewTransform, PixelToDataInvertsMapping) {
  const ViewTransform view = sample_view();
  for (const double x : {1.0, 3.0, 250.0, 9999.0}) {
    EXPECT_NEAR(view.pixel_to_x(view.x_to_pixel(x)), x, x * 1e-12);
  }
  for (const double y : {0.0, 7.5, 49.0}) {
    EXPECT_NEAR(view.pixel_to_y(view.y_to_pixel(y)), y, 1e-12);
  }
}

TEST(ViewTransform, LogAxisClampsNonPositiveToEdge) {
  const ViewTransform view = sample_view();
  EXPECT_DOUBLE_EQ(view.x_to_pixel(0), 10);
  EXPECT_DOUBLE_EQ(view.x_to_pixel(-5), 10);
}

TEST(NearestPoint, PicksClosestVisiblePointInPixels) {
  const ViewTransform view = sample_view();
  std::vector<PlotSeries> series(2);
  series[0].name = "a";
  series[0].points = {{1, 0, 0, 0}, {100, 25, 0, 0}, {1e4, 50, 0, 0}};
  series[1].name = "b";
  series[1].points = {{100, 30, 0, 0}};  // 10 px above a's middle point
  SeriesVisibility visibility;

  // Pixel of a[1] is (60, 70); the mouse 3 px below it.
  auto hit = nearest_point(view, series, visibility, 60, 73, 8);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->series_index, 0u);
  EXPECT_EQ(hit->point_index, 1u);
  EXPECT_DOUBLE_EQ(hit->distance_px, 3);

  // b[0] is at (60, 60); the mouse at (60, 62) is nearer to it.
  hit = nearest_point(view, series, visibility, 60, 62, 8);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->series_index, 1u);

  visibility.toggle(series[1]);
  hit = nearest_point(view, series, visibility, 60, 62, 8);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->series_index, 0u);

  EXPECT_FALSE(nearest_point(view, series, visibility, 85, 100, 8));
}

}  // namespace
}  // namespace tl::plot
