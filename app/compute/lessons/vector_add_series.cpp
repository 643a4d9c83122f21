#include "vector_add_series.hpp"

#include <algorithm>
#include <string>

#include "core/plot/crossover.hpp"

namespace tl::compute {

SeriesNames series_names(bool on_gpu) {
  if (on_gpu) return {"CPU, 1 thread", "CPU, all threads", "GPU kernel", "GPU end to end"};
  return {"CPU, 1 thread", "CPU, all threads", "Emulated kernel (CPU)",
          "Emulated end to end (CPU)"};
}

std::vector<plot::PlotSeries> make_timing_series(bool on_gpu, std::uint32_t threads_per_block) {
  const SeriesNames names = series_names(on_gpu);
  (void)threads_per_block;
  std::vector<plot::PlotSeries> series(4);
  series[0] = {names.cpu_single, {}, plot::rgba(0xE0, 0x8A, 0x3C), true, false, false};
  series[1] = {names.cpu_multi, {}, plot::rgba(0xF2, 0xC1, 0x4E), true, false, true};
  series[2] = {names.kernel, {}, plot::rgba(0x4E, 0xB3, 0xD3), true, false, false};
  series[3] = {names.end_to_end, {}, plot::rgba(0x7B, 0xD1, 0x8A), true, false, true};
  return series;
}

SweepPoint to_sweep_point(std::uint64_t n, const VectorAddReport& report) {
  const SeriesNames names = series_names(report.on_gpu);
  SweepPoint point;
  point.x = static_cast<double>(n);
  if (!report.cpu_single.empty()) point.timings.push_back({names.cpu_single, report.cpu_single});
  if (!report.cpu_multi.empty()) point.timings.push_back({names.cpu_multi, report.cpu_multi});
  point.timings.push_back({names.kernel, report.kernel});
  // End to end is a sum of medians; its range sums the minima and the maxima.
  TimingStats e2e;
  e2e.median_ms = report.end_to_end_ms();
  e2e.min_ms = report.host_to_device.min_ms + report.kernel.min_ms + report.device_to_host.min_ms;
  e2e.max_ms = report.host_to_device.max_ms + report.kernel.max_ms + report.device_to_host.max_ms;
  e2e.repeats = report.kernel.repeats;
  point.timings.push_back({names.end_to_end, e2e});
  return point;
}

void add_sweep_point(std::vector<plot::PlotSeries>& series, const SweepPoint& point) {
  for (const NamedTiming& timing : point.timings) {
    auto it = std::find_if(series.begin(), series.end(),
                           [&](const plot::PlotSeries& s) { return s.name == timing.name; });
    if (it == series.end()) continue;
    it->points.push_back(
        {point.x, timing.stats.median_ms, timing.stats.min_ms, timing.stats.max_ms});
    std::sort(it->points.begin(), it->points.end(),
              [](const plot::PlotPoint& a, const plot::PlotPoint& b) { return a.x < b.x; });
  }
}

std::optional<double> find_gpu_crossover(const std::vector<plot::PlotSeries>& series) {
  if (series.size() < 4) return std::nullopt;
  // series[0]: CPU, 1 thread; series[3]: end to end.
  return plot::find_crossover(series[0], series[3]);
}

}  // namespace tl::compute
