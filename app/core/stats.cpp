#include "stats.hpp"

#include <algorithm>

namespace tl {

TimingStats summarize_timings(std::span<const double> samples_ms) {
  TimingStats stats;
  if (samples_ms.empty()) return stats;
  std::vector<double> sorted(samples_ms.begin(), samples_ms.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  stats.median_ms = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  stats.min_ms = sorted.front();
  stats.max_ms = sorted.back();
  stats.repeats = static_cast<int>(n);
  return stats;
}

bool spread_too_wide(const TimingStats& stats) {
  return stats.repeats >= 2 && stats.max_ms > 1.5 * stats.min_ms;
}

bool distinguishable(const TimingStats& a, const TimingStats& b) {
  if (a.empty() || b.empty()) return false;
  return a.max_ms < b.min_ms || b.max_ms < a.min_ms;
}

double gigabytes_per_second(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e6) : 0.0;
}

double gigaflops(double flops, double ms) {
  return ms > 0 ? flops / (ms * 1e6) : 0.0;
}

TimingStats add_stages(std::span<const TimingStats> stages) {
  TimingStats total;
  if (stages.empty()) return total;
  int repeats = stages.front().repeats;
  for (const TimingStats& stage : stages) {
    if (stage.empty()) return {};
    total.median_ms += stage.median_ms;
    total.min_ms += stage.min_ms;
    total.max_ms += stage.max_ms;
    repeats = std::min(repeats, stage.repeats);
  }
  total.repeats = repeats;
  return total;
}

}  // namespace tl
