#pragma once
// One comparison of a benchmark suite (`threadlab bench --suite ratios|perf`): a result next to
// what it should be compared with, measured in the same run: a kernel's GB/s against the device's
// copy, its GFLOP/s against cuBLAS, one path's time against another's. Lesson modules produce them
// (compute/lessons/lesson_benchmark.hpp); the CLI prints them as a table, CSV or JSON.

#include <string>

namespace tl {

struct RatioRow {
  std::string what;      // "vector add kernel, N = 2^26"
  double value = 0;      // in `unit`
  std::string unit;      // "GB/s", "GFLOP/s", "ms"
  std::string against;   // "device-to-device copy", "cuBLAS SGEMM (same size)"
  double reference = 0;  // in `unit`; 0 when there is nothing to compare with
  std::string absent;    // why there is no reference (e.g. no cuBLAS on the emulator)
  // value / reference for rates (higher is better), reference / value for times (a speed-up):
  // above 1 the result beats what it is compared with. 0 when there is no reference.
  double ratio = 0;
  // The ratio to reach (`threadlab bench --suite perf`, issue #6's targets); 0: none.
  double target = 0;
  [[nodiscard]] bool has_target() const { return target > 0; }
  [[nodiscard]] bool target_met() const { return target > 0 && ratio >= target; }
};

// Sets the target a row's ratio must reach; returns the row.
RatioRow with_target(RatioRow row, double target);

// A rate (GB/s, GFLOP/s) against a reference rate, or a time against a reference time.
RatioRow rate_ratio(std::string what, double value, std::string unit, std::string against,
                    double reference);
RatioRow time_ratio(std::string what, double milliseconds, std::string against,
                    double reference_milliseconds);

}  // namespace tl
