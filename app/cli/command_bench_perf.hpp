#pragma once
// `threadlab bench --suite perf`: every ratio of issue #6 that is about kernels, each measured in
// one run on one device and printed with its target and whether it is met.

#include <ostream>

#include "commands.hpp"

namespace tl::cli {

int command_bench_perf(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tl::cli
