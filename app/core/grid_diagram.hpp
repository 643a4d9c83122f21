#pragma once
// The picture of a launch beside its controls: the grid of blocks, each block's threads with its
// warps marked, and the threads that get no element (idle) greyed. A grid can hold millions of
// blocks, so the diagram keeps a few in full (the first ones and the last one, where a partial
// tail of idle threads usually sits) and counts the rest exactly.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/launch_config.hpp"

namespace tl {

// How a lesson's threads map onto its elements, when each thread computes at most one element on
// the grid's first pass. Lessons whose threads cooperate on an element (the dense layer's warps)
// have none, and their diagram has no idle threads.
struct ThreadCoverage {
  enum class Kind { kLinear, kMatrix };
  Kind kind = Kind::kLinear;
  std::uint64_t elements = 0;  // kLinear: global thread i computes element i while i < elements
  std::uint64_t rows = 0;      // kMatrix: x (and y) pick the column (and row), or the reverse
  std::uint64_t cols = 0;
  bool x_picks_row = false;

  static ThreadCoverage linear(std::uint64_t n) { return {Kind::kLinear, n, 0, 0, false}; }
  static ThreadCoverage matrix(std::uint64_t rows, std::uint64_t cols, bool x_picks_row = false) {
    return {Kind::kMatrix, 0, rows, cols, x_picks_row};
  }
};

struct DiagramBlock {
  Dim3 index;                      // blockIdx
  std::vector<std::uint8_t> idle;  // per thread, linear (x fastest): 1 when it gets no element
  std::uint32_t idle_threads = 0;
};

struct GridDiagram {
  LaunchConfig config;
  std::uint32_t warp_size = 32;
  std::uint64_t blocks = 0;           // in the grid
  std::uint64_t threads = 0;          // in the grid
  std::uint32_t warps_per_block = 0;  // ceil(threads per block / warp size)
  std::uint32_t last_warp_threads =
      0;  // threads in each block's last warp (< warp size: lanes wasted)
  std::optional<std::uint64_t> idle_threads;  // exact, in the whole grid; unknown without coverage
  std::vector<DiagramBlock> shown;            // in linear block order
  bool gap_before_last = false;  // blocks left out between shown.end()[-2] and the last
};

// Keeps at most `max_blocks` blocks (at least 2) and no block of more than `max_threads_per_block`
// threads in full (such a launch is invalid anyway: its blocks are counted, none is shown).
GridDiagram make_grid_diagram(const LaunchConfig& config,
                              const std::optional<ThreadCoverage>& coverage,
                              std::uint32_t warp_size = 32, std::uint32_t max_blocks = 12,
                              std::uint32_t max_threads_per_block = 1024);

}  // namespace tl
