#pragma once

#include <vector>

#include "compute/lessons/lesson_benchmark.hpp"

namespace tl::compute {

// The fused layer against the unfused three-launch chain and against cuBLAS with the fused
// epilogue, at batch 1 and at a large batch; in perf, with the targets of issue #6.
Status dense_layer_benchmark(const BenchContext& context, std::vector<RatioRow>& rows);

}  // namespace tl::compute
