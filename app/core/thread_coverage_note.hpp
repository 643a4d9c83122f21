#pragma once
// The line under the launch configuration that compares threads with elements. "More elements than
// threads" is a mistake for a kernel with one element per thread, and the design of a grid-stride
// loop or a register-tiled kernel: the note says which, and warns only when elements are left out.

#include <cstdint>
#include <string>

namespace tl {

// Elements per thread: 1 for one-per-thread kernels, k for kernels where each thread computes up to
// k elements (register tiling), kAnyElementsPerThread where a loop covers any count.
inline constexpr std::uint32_t kAnyElementsPerThread = 0;

struct CoverageNote {
  std::string text;
  bool warning = false;  // some elements get no thread
};

CoverageNote describe_coverage(std::uint64_t threads, std::uint64_t elements,
                               std::uint32_t elements_per_thread);

}  // namespace tl
