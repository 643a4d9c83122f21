// A lesson's timed runs become plot series that carry the work of each run, so the timing plot can
// show GFLOP/s and GB/s as well as time.

#include <gtest/gtest.h>

#include "report_rows.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "compute/lessons/lesson_series.hpp"
#include "core/plot/plot_quantity.hpp"
#include "lessons/04_matmul/matmul.hpp"

namespace tl::compute {
namespace {

const plot::PlotSeries* find_series(const std::vector<plot::PlotSeries>& series,
                                    const std::string& name) {
  const auto it = std::find_if(series.begin(), series.end(),
                               [&](const plot::PlotSeries& s) { return s.name == name; });
  return it == series.end() ? nullptr : &*it;
}

TEST(LessonSeries, MatmulPointsCarryTheirFlopsAndBytes) {
  auto device = make_emulator_device();
  auto lesson = make_lesson("matmul");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  (*lesson)->set_repeats(1);
  std::vector<plot::PlotSeries> series;
  for (std::uint64_t size : {16u, 32u}) {
    ASSERT_TRUE((*lesson)->configure((*lesson)->values_for_size(size)).is_ok());
    auto report = (*lesson)->run_timed(*device, nullptr);
    ASSERT_TRUE(report.is_ok()) << report.message();
    add_sweep_point(series, to_sweep_point(static_cast<double>(size), *report));
  }
  ASSERT_FALSE(series.empty());

  // Every plotted row of a product has its 2·M·N·K flops at every point.
  const lessons::MatmulSize at32{32, 32, 32};
  for (const plot::PlotSeries& s : series) {
    ASSERT_EQ(s.points.size(), 2u) << s.name;
    EXPECT_EQ(s.points[1].x, 32);
    EXPECT_DOUBLE_EQ(s.points[1].flops, lessons::matmul_flops(at32)) << s.name;
    EXPECT_GT(s.points[1].bytes, 0) << s.name;
  }

  // As GFLOP/s: the same series, each point's rate its flops over its median time.
  const auto rates = plot::as_quantity(series, plot::PlotQuantity::kFlopRate);
  ASSERT_EQ(rates.size(), series.size());
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const plot::PlotPoint& time = series[i].points[1];
    const plot::PlotPoint& rate = rates[i].points[1];
    EXPECT_DOUBLE_EQ(rate.y, time.flops / (time.y * 1e-3)) << rates[i].name;
  }
  EXPECT_NE(find_series(rates, series.front().name), nullptr);
}

TEST(LessonSeries, EveryLessonWithCopiesShowsItsEndToEndTime) {
  // The kernel alone against the kernel with the copies around it: the honest GPU-vs-CPU baseline.
  auto device = make_emulator_device();
  const struct {
    const char* lesson;
    lessons::ParamValues values;
    const char* kernel;
    const char* end_to_end;
  } cases[] = {
      {"vector-add", {{"n", "4096"}}, "Emulated kernel (CPU)", "Emulated end to end (CPU)"},
      {"matmul",
       {{"m", "32"}, {"n", "24"}, {"k", "16"}, {"kernel", "tiled"}, {"tile", "8"}},
       "Emulated tiled kernel, TILE = 8 (CPU)",
       "Emulated end to end: copies + tiled kernel, TILE = 8 (CPU)"},
      {"dense-layer",
       {{"batch", "2"}, {"inputs", "40"}, {"neurons", "24"}},
       "Emulated fused (CPU)",
       "Emulated fused end to end (CPU)"},
  };
  for (const auto& c : cases) {
    auto lesson = make_lesson(c.lesson);
    ASSERT_TRUE(lesson.is_ok());
    (*lesson)->set_repeats(1);
    ASSERT_TRUE((*lesson)->configure(c.values).is_ok()) << c.lesson;
    auto report = (*lesson)->run_timed(*device, nullptr);
    ASSERT_TRUE(report.is_ok()) << report.message();
    const TimingRow* kernel = row_named(*report, c.kernel);
    const TimingRow* end_to_end = row_named(*report, c.end_to_end);
    ASSERT_NE(kernel, nullptr) << c.lesson;
    ASSERT_NE(end_to_end, nullptr) << c.lesson;
    EXPECT_TRUE(end_to_end->plotted) << c.lesson;
    EXPECT_GE(end_to_end->stats.median_ms, kernel->stats.median_ms) << c.lesson;
  }
}

// A series is what a row measures, not what it is called: a renamed row (the backend in its name,
// a new wording) still joins its series, and two rows of one name but different roles stay apart.
TEST(LessonSeries, PointsJoinTheSeriesOfTheirKeyWhateverTheirNames) {
  auto row = [](TimingKey key, std::string name, double ms) {
    TimingRow r{std::move(key), std::move(name), {}, 0, 0, true};
    r.stats.median_ms = r.stats.min_ms = r.stats.max_ms = ms;
    r.stats.repeats = 1;
    return r;
  };
  LessonReport first;
  first.rows = {row({TimingRole::kKernel, "tiled"}, "GPU tiled kernel", 1),
                row({TimingRole::kCpuOneThread, ""}, "CPU", 9)};
  LessonReport second;
  second.rows = {row({TimingRole::kKernel, "tiled"}, "GPU tiled kernel, TILE = 32", 2),
                 row({TimingRole::kCpuAllThreads, ""}, "CPU", 4)};
  std::vector<plot::PlotSeries> series;
  add_sweep_point(series, to_sweep_point(1, first));
  add_sweep_point(series, to_sweep_point(2, second));
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series[0].key, (TimingKey{TimingRole::kKernel, "tiled"}));
  EXPECT_EQ(series[0].points.size(), 2u);
  EXPECT_EQ(series[1].points.size(), 1u);
  EXPECT_EQ(series[2].key.role, TimingRole::kCpuAllThreads);
  const auto crossing = find_series_crossover(
      series, {TimingKey{TimingRole::kCpuOneThread, ""}, TimingKey{TimingRole::kKernel, "tiled"}});
  // The crossover is found between the series of those keys, whatever the rows were called: the
  // kernel is faster at the one size both measured, so from the start.
  ASSERT_TRUE(crossing.has_value());
  EXPECT_DOUBLE_EQ(*crossing, 1.0);
  EXPECT_FALSE(find_series_crossover(series, {TimingKey{TimingRole::kCpuOneThread, "named"},
                                              TimingKey{TimingRole::kKernel, "tiled"}})
                   .has_value())
      << "no series has that key";
}

TEST(LessonSeries, RowsWithoutWorkStayTimeOnly) {
  LessonReport report;
  TimingRow copy{{TimingRole::kCopy, "to-device"}, "copy to device", {}, 4096, 0, true};
  copy.stats.median_ms = copy.stats.min_ms = copy.stats.max_ms = 0.5;
  copy.stats.repeats = 1;
  report.rows.push_back(copy);
  std::vector<plot::PlotSeries> series;
  add_sweep_point(series, to_sweep_point(1024, report));
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].points[0].bytes, 4096);
  EXPECT_TRUE(plot::as_quantity(series, plot::PlotQuantity::kFlopRate).empty());
  ASSERT_EQ(plot::as_quantity(series, plot::PlotQuantity::kBandwidth).size(), 1u);
}

}  // namespace
}  // namespace tl::compute
