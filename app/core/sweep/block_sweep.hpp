#pragma once
// The block sizes a "threads per block" sweep visits at a fixed problem size: from a single thread
// (a block that wastes 31 of its warp's 32 lanes) through partial and whole warps to the
// 1024-thread limit, with the in-between multiples of 32 that people try (96, 192, 384, 768).

#include <cstdint>
#include <vector>

#include "core/dim3.hpp"

namespace tl {

// Thread counts of the sweep up to `max_threads`, ascending.
[[nodiscard]] std::vector<std::uint32_t> block_sweep_threads(std::uint32_t max_threads);

// The same counts as 1D blocks.
[[nodiscard]] std::vector<Dim3> block_sweep_1d(std::uint32_t max_threads);

// The same counts as 2D blocks whose x is as wide as possible up to `max_x` (a warp's worth of
// neighbouring columns, which is what coalescing wants), y = threads / x; counts that x does not
// divide, or whose y would exceed `max_y`, are left out.
[[nodiscard]] std::vector<Dim3> block_sweep_2d(std::uint32_t max_threads, std::uint32_t max_x,
                                               std::uint32_t max_y);

}  // namespace tl
