#pragma once
// One measured point of a sweep: the swept value and the timings taken there.

#include <string>
#include <string_view>
#include <vector>

#include "core/stats.hpp"
#include "core/timing/timing_key.hpp"

namespace tl {

struct NamedTiming {
  TimingKey key;     // what it measures: the series it joins
  std::string name;  // for people: "CPU, 1 thread", "GPU kernel", ...
  TimingStats stats;
  double bytes = 0;  // moved per run, for GB/s (0: not meaningful)
  double flops = 0;  // per run, for GFLOP/s (0: not meaningful)
};

struct SweepPoint {
  double x = 0;  // the swept parameter, usually the element count N
  // A handful of entries, so a vector beats a map: cheap to copy across threads, keeps the order
  // the job measured them in (the order of the legend).
  std::vector<NamedTiming> timings;

  // The timing with `key`, or nullptr when this point has none.
  [[nodiscard]] const TimingStats* find(const TimingKey& key) const {
    for (const NamedTiming& timing : timings) {
      if (timing.key == key) return &timing.stats;
    }
    return nullptr;
  }
};

}  // namespace tl
