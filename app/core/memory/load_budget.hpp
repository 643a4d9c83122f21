#pragma once
// How many times a kernel's blocks load each element of an input array from global memory: the
// access budget in the GPU-Puzzles spirit. A block of the naive matrix product loads each element
// of A it uses once per thread of its row (16 times with 16 × 16 blocks); staged through
// shared-memory tiles, once. The figure is per block because that is what a block can change:
// what one block loaded, another cannot reuse from shared memory (only, by luck, from a cache),
// so a block that loads each element it needs once is as frugal as global memory lets it be.
//
// Counted from the recorded lanes' accesses (warp_requests.hpp's LaneRecord): every element a
// global load covers is one element load (a float4 load of four floats is four), and the
// distinct elements a block loaded are counted per block, then summed over the blocks. Loads
// per element = element loads / that sum: the average over the recorded blocks, weighted by how
// much each block touched (a block at the data's edge, doing little, weighs little). A model,
// like the rest of core/memory: no cache; what the host compiler kept in a register is not a load.

#include <cstdint>
#include <span>
#include <vector>

#include "core/memory/warp_requests.hpp"

namespace tl::memory {

// Where an array lay during the recording.
struct ArrayExtent {
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
  std::uint32_t element_bytes = 4;
};

struct LoadBudget {
  std::uint64_t element_loads = 0;   // elements covered by global loads, each load counted
  std::uint64_t block_elements = 0;  // distinct elements each block loaded, summed over blocks
  std::uint64_t blocks = 0;          // blocks that loaded any element of the array
  // element_loads / block_elements; 0 where nothing was loaded.
  [[nodiscard]] double loads_per_element() const;
};

// One budget per array, in the order given. Stores, shared-memory accesses and addresses outside
// every array are not counted; an access that runs past an array's end counts the elements inside.
[[nodiscard]] std::vector<LoadBudget> load_budgets(std::span<const LaneRecord> records,
                                                   std::span<const ArrayExtent> arrays);

}  // namespace tl::memory
