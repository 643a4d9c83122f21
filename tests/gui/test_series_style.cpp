// The timing plot's colours and dashes come from what each series measures.

#include "series_style.hpp"

#include <gtest/gtest.h>

#include <set>

namespace tl::ui {
namespace {

plot::PlotSeries series(TimingRole role, std::string name) {
  plot::PlotSeries s;
  s.name = std::move(name);
  s.key = {role, ""};
  return s;
}

// Warm hues are those whose red channel exceeds their blue one.
bool warm(std::uint32_t color) {
  return ((color >> 24) & 0xFF) > ((color >> 8) & 0xFF);
}

TEST(SeriesStyle, CpuSeriesAreWarmDeviceSeriesCoolWhateverTheirNames) {
  // Names that would fool a style chosen by name: a CPU row not starting with "CPU" and a kernel
  // row that does.
  std::vector<plot::PlotSeries> all = {
      series(TimingRole::kCpuOneThread, "one core"), series(TimingRole::kKernel, "CPU-like kernel"),
      series(TimingRole::kEndToEndPageable, "GPU"), series(TimingRole::kCpuAllThreads, "all cores"),
      series(TimingRole::kLibrary, "cuBLAS")};
  style_timing_series(all);
  EXPECT_TRUE(warm(all[0].color));
  EXPECT_FALSE(warm(all[1].color));
  EXPECT_FALSE(warm(all[2].color));
  EXPECT_TRUE(warm(all[3].color));
  EXPECT_FALSE(warm(all[4].color));
  EXPECT_NE(all[0].color, all[3].color) << "two CPU series, two hues";
  std::set<std::uint32_t> cool = {all[1].color, all[2].color, all[4].color};
  EXPECT_EQ(cool.size(), 3u) << "three device series, three hues";
  // Dashed: the pair of a solid twin (all threads of one thread; end to end of the kernel).
  EXPECT_EQ(all[0].dash, plot::LineDash::kSolid);
  EXPECT_EQ(all[1].dash, plot::LineDash::kSolid);
  EXPECT_NE(all[2].dash, plot::LineDash::kSolid);
  EXPECT_NE(all[3].dash, plot::LineDash::kSolid);
  // And every series its own marker shape, so that none is told apart by its hue alone.
  std::set<plot::MarkerShape> markers;
  for (const auto& s : all) markers.insert(s.marker);
  EXPECT_EQ(markers.size(), all.size());
}

TEST(SeriesStyle, FaintSeriesKeepTheirStyle) {
  std::vector<plot::PlotSeries> all = {series(TimingRole::kKernel, "earlier"),
                                       series(TimingRole::kKernel, "now")};
  all[0].faint = true;
  all[0].color = plot::rgba(1, 2, 3);
  style_timing_series(all);
  EXPECT_EQ(all[0].color, plot::rgba(1, 2, 3));
  EXPECT_NE(all[1].color, plot::rgba(1, 2, 3));
}

}  // namespace
}  // namespace tl::ui
