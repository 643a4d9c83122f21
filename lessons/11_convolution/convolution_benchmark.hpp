#pragma once
// Lesson 11's rows in `threadlab bench --suite ratios|perf`: the rungs against cuDNN in the same
// run.

#include <vector>

#include "compute/lessons/lesson_benchmark.hpp"

namespace tl::compute {

Status convolution_benchmark(const BenchContext& context, std::vector<RatioRow>& rows);

}  // namespace tl::compute
