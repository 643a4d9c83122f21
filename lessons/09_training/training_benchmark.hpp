#pragma once
// The capstone's rows for `threadlab bench --suite ratios|perf` (training_benchmark.cpp).

#include <vector>

#include "compute/lessons/lesson_benchmark.hpp"

namespace tl::compute {

Status training_benchmark(const BenchContext& context, std::vector<RatioRow>& rows);

}  // namespace tl::compute
