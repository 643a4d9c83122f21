#pragma once

#include <vector>

#include "compute/lessons/lesson_benchmark.hpp"

namespace tl::compute {

// Ratios: the naive kernel and the tiled one (TILE 16 and 32) against cuBLAS SGEMM at the same
// size. Perf: every rung of the ladder against cuBLAS in one lesson run, the best rung with its
// target.
Status matmul_benchmark(const BenchContext& context, std::vector<RatioRow>& rows);

}  // namespace tl::compute
