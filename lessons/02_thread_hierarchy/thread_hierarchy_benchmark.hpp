#pragma once

#include <vector>

#include "compute/lessons/lesson_benchmark.hpp"

namespace tl::compute {

// The divergence demo in the ratios suite: the branch on the thread's parity against the branch on
// its warp's, the same work over the same data, timed in one run.
Status thread_hierarchy_benchmark(const BenchContext& context, std::vector<RatioRow>& rows);

}  // namespace tl::compute
