#pragma once
// One measured point of a sweep: the swept value and the timings taken there.

#include <string>
#include <string_view>
#include <vector>

#include "core/stats.hpp"

namespace tl {

struct NamedTiming {
  std::string name;  // "CPU", "GPU kernel", "GPU end-to-end", ...
  TimingStats stats;
  double bytes = 0;  // moved per run, for GB/s (0: not meaningful)
  double flops = 0;  // per run, for GFLOP/s (0: not meaningful)
};

struct SweepPoint {
  double x = 0;  // the swept parameter, usually the element count N
  // A handful of entries, so a vector beats a map: cheap to copy across threads, keeps the order
  // the job measured them in (the order of the legend).
  std::vector<NamedTiming> timings;

  // The timing called `name`, or nullptr when this point has none.
  [[nodiscard]] const TimingStats* find(std::string_view name) const {
    for (const NamedTiming& timing : timings) {
      if (timing.name == name) return &timing.stats;
    }
    return nullptr;
  }
};

}  // namespace tl
