#pragma once
// Summaries of repeated timings. A timing point is the median of its repeats, shown with its range,
// because the mean of GPU timings is pulled up by the occasional slow run (clock ramp, preemption).

#include <span>
#include <vector>

namespace tl {

struct TimingStats {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int repeats = 0;
  [[nodiscard]] bool empty() const { return repeats == 0; }
};

// Median (mean of the two middle values for an even count), min and max. Empty input gives empty
// stats.
TimingStats summarize_timings(std::span<const double> samples_ms);

// Stages run one after the other (copies in, kernel, copy out) as one: medians, minima and maxima
// added up. The sum of medians is what a typical run of all stages takes when they are
// independent; it is labelled as a sum where shown. Empty when any stage is empty.
TimingStats add_stages(std::span<const TimingStats> stages);

// Whether the runs behind `stats` spread too widely to read a difference from its median: the
// slowest took more than 1.5 times as long as the fastest (needs two runs). A busy CPU, a cold
// thread pool or a clock that has not ramped up yet gives such runs; a figure from them can be off
// by half, so the views mark it instead of letting it read as a fact.
[[nodiscard]] bool spread_too_wide(const TimingStats& stats);
// Whether two timings can be told apart: their ranges of runs [min, max] do not overlap. Where
// they overlap, the difference of the medians is within the runs' own noise.
[[nodiscard]] bool distinguishable(const TimingStats& a, const TimingStats& b);

// Throughput helpers: bytes or operations per millisecond expressed per second.
[[nodiscard]] double gigabytes_per_second(double bytes, double ms);
[[nodiscard]] double gigaflops(double flops, double ms);

}  // namespace tl
