#pragma once
// Lesson 6's comparisons for the benchmark suites (compute/lessons/lesson_benchmark.hpp).

#include "compute/lessons/lesson_benchmark.hpp"

namespace tl::compute {

Status reductions_benchmark(const BenchContext& context, std::vector<RatioRow>& rows);

}  // namespace tl::compute
