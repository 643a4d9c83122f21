#include "lesson_series.hpp"

#include <algorithm>

#include "core/plot/crossover.hpp"

namespace tl::compute {
namespace {

// Distinct on the dark plot background: CPU series warm, GPU (or emulated) series cool, so the
// two sides of the comparison read at a glance.
constexpr std::uint32_t kWarm[] = {plot::rgba(0xE0, 0x8A, 0x3C), plot::rgba(0xF2, 0xC1, 0x4E),
                                   plot::rgba(0xEE, 0x6E, 0x85)};
constexpr std::uint32_t kCool[] = {plot::rgba(0x4E, 0xB3, 0xD3), plot::rgba(0x7B, 0xD1, 0x8A),
                                   plot::rgba(0xC3, 0x8B, 0xE8), plot::rgba(0x5F, 0xD4, 0xC8),
                                   plot::rgba(0x9A, 0xA6, 0xB8)};

bool is_cpu_series(const std::string& name) {
  return name.rfind("CPU", 0) == 0;
}

std::uint32_t next_color(const std::vector<plot::PlotSeries>& series, bool cpu) {
  std::size_t same_side = 0;
  for (const auto& s : series) same_side += (!s.faint && is_cpu_series(s.name) == cpu) ? 1 : 0;
  return cpu ? kWarm[same_side % std::size(kWarm)] : kCool[same_side % std::size(kCool)];
}

}  // namespace

SweepPoint to_sweep_point(double x, const LessonReport& report) {
  SweepPoint point;
  point.x = x;
  for (const TimingRow& row : report.rows) {
    if (row.plotted && !row.stats.empty())
      point.timings.push_back({row.name, row.stats, row.bytes, row.flops});
  }
  return point;
}

void add_sweep_point(std::vector<plot::PlotSeries>& series, const SweepPoint& point) {
  for (const NamedTiming& timing : point.timings) {
    auto it = std::find_if(series.begin(), series.end(), [&](const plot::PlotSeries& s) {
      return s.name == timing.name && !s.faint;
    });
    if (it == series.end()) {
      plot::PlotSeries created;
      created.name = timing.name;
      created.color = next_color(series, is_cpu_series(timing.name));
      // Multi-threaded and end-to-end variants are dashed so that pairs read as pairs.
      created.dashed = timing.name.find("all threads") != std::string::npos ||
                       timing.name.find("end to end") != std::string::npos;
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
                                            const std::pair<std::string, std::string>& names) {
  const plot::PlotSeries* baseline = nullptr;
  const plot::PlotSeries* challenger = nullptr;
  for (const auto& s : series) {
    if (s.faint) continue;
    if (s.name == names.first) baseline = &s;
    if (s.name == names.second) challenger = &s;
  }
  if (baseline == nullptr || challenger == nullptr) return std::nullopt;
  return plot::find_crossover(*baseline, *challenger);
}

}  // namespace tl::compute
