#pragma once
// `threadlab bench --suite perf`: every ratio of issue #6, each measured in one run on one device
// and printed with its target and whether it is met; `--suite ui`: the interactive rows alone.

#include <functional>
#include <ostream>

#include "commands.hpp"

namespace tl::cli {

// Measures whole UI frames (supplied by the app; empty where there is no UI).
using UiFrameMeasure = std::function<Result<UiFrameTimes>(const UiFrameRequest&)>;

int command_bench_perf(const BenchOptions& options, const UiFrameMeasure& measure_frames,
                       std::ostream& out, std::ostream& err);

// `threadlab bench --suite ui`: the perf suite's two interactive rows alone (a traced frame through
// interop against the copy path, and the whole UI frame), in seconds instead of minutes.
int command_bench_ui(const BenchOptions& options, const UiFrameMeasure& measure_frames,
                     std::ostream& out, std::ostream& err);

}  // namespace tl::cli
