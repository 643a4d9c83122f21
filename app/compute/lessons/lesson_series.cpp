#include "lesson_series.hpp"

#include <algorithm>

#include "core/plot/crossover.hpp"

namespace tl::compute {

SweepPoint to_sweep_point(double x, const LessonReport& report) {
  SweepPoint point;
  point.x = x;
  for (const TimingRow& row : report.rows) {
    if (row.plotted && !row.stats.empty())
      point.timings.push_back({row.key, row.name, row.stats, row.bytes, row.flops});
  }
  return point;
}

void add_sweep_point(std::vector<plot::PlotSeries>& series, const SweepPoint& point) {
  for (const NamedTiming& timing : point.timings) {
    auto it = std::find_if(series.begin(), series.end(), [&](const plot::PlotSeries& s) {
      return s.key == timing.key && !s.faint;
    });
    if (it == series.end()) {
      plot::PlotSeries created;
      created.name = timing.name;
      created.key = timing.key;
      series.push_back(std::move(created));
      it = series.end() - 1;
    }
    it->points.push_back({point.x, timing.stats.median_ms, timing.stats.min_ms, timing.stats.max_ms,
                          timing.bytes, timing.flops});
    std::sort(it->points.begin(), it->points.end(),
              [](const plot::PlotPoint& a, const plot::PlotPoint& b) { return a.x < b.x; });
  }
}

std::optional<double> find_series_crossover(const std::vector<plot::PlotSeries>& series,
                                            const std::pair<TimingKey, TimingKey>& keys) {
  const plot::PlotSeries* baseline = nullptr;
  const plot::PlotSeries* challenger = nullptr;
  for (const auto& s : series) {
    if (s.faint) continue;
    if (s.key == keys.first) baseline = &s;
    if (s.key == keys.second) challenger = &s;
  }
  if (baseline == nullptr || challenger == nullptr) return std::nullopt;
  return plot::find_crossover(*baseline, *challenger);
}

}  // namespace tl::compute
