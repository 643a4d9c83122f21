#pragma once
// Lesson 7's rows for `threadlab bench --suite ratios|perf`.

#include <vector>

#include "compute/lessons/lesson_benchmark.hpp"

namespace tl::compute {

Status moving_data_benchmark(const BenchContext& context, std::vector<RatioRow>& rows);

}  // namespace tl::compute
