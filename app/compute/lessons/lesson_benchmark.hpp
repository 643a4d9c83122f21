#pragma once
// What a lesson module adds to the benchmark suites (`threadlab bench --suite ratios|perf`): its
// own comparisons, measured in the suite's run on the suite's device, as ratio rows. The suites
// know lessons only through this hook (LessonModule::benchmark), so a lesson's sizes, its rows and
// its targets live in its folder.

#include <cstdint>
#include <string_view>
#include <vector>

#include "compute/device.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/bench/ratio_row.hpp"
#include "core/device_ceilings.hpp"
#include "core/lessons/lesson_params.hpp"
#include "core/result.hpp"

namespace tl::compute {

enum class BenchSuite {
  kRatios,  // the comparisons a user makes
  kPerf,    // the performance targets, each a ratio with the target it must reach
};

struct BenchContext {
  BenchSuite suite = BenchSuite::kRatios;
  Device& device;
  const DeviceCeilings& ceilings;
  int repeats = 5;
};

// Appends the lesson's rows for `context.suite`; an error stops the suite with its message.
using LessonBenchmark = Status (*)(const BenchContext& context, std::vector<RatioRow>& rows);

// One timed run of lesson `id` with `values`, CPU references off; a failed check is an error.
Result<LessonReport> run_lesson_once(Device& device, std::string_view id,
                                     const lessons::ParamValues& values, int repeats);

// The timed row of `report` with `key`, or null where it is absent or was not timed.
[[nodiscard]] const TimingRow* find_timed_row(const LessonReport& report, const TimingKey& key);

// `work` (bytes or flops) per second at the row's median time.
[[nodiscard]] double per_second(double work, const TimingRow& row);

}  // namespace tl::compute
