#pragma once

#include <vector>

#include "compute/lessons/lesson_benchmark.hpp"

namespace tl::compute {

// The vector-add kernel against the device's copy bandwidth (both suites; a target in perf).
Status vector_add_benchmark(const BenchContext& context, std::vector<RatioRow>& rows);

}  // namespace tl::compute
