#pragma once
// Hardware counters for the terminal (`threadlab run --counters`): one line per counted kernel.

#include <ostream>
#include <span>

#include "core/kernel_counters.hpp"

namespace tl::cli {

void print_counters(std::ostream& out, std::span<const CountedKernel> kernels);

}  // namespace tl::cli
