#pragma once
// `threadlab bench --suite perf`: every ratio of issue #6 that is about kernels, each measured in
// one run on one device and printed with its target and whether it is met.

#include <functional>
#include <ostream>

#include "commands.hpp"

namespace tl::cli {

// Measures whole UI frames (supplied by the app; empty where there is no UI).
using UiFrameMeasure = std::function<Result<UiFrameTimes>(const UiFrameRequest&)>;

int command_bench_perf(const BenchOptions& options, const UiFrameMeasure& measure_frames,
                       std::ostream& out, std::ostream& err);

}  // namespace tl::cli
