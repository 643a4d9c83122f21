#pragma once
// Theoretical occupancy: how many blocks of a kernel fit on one SM at once, which resource runs out
// first, and what share of the SM's warp slots they fill. The same arithmetic as CUDA's occupancy
// calculator, written out so the lesson can show each limit (the GPU tests compare it with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor for every kernel and block size).
//
// Occupancy is not speed: a memory-bound kernel at 50 % can run as fast as at 100 %. It says how
// many warps an SM can switch between to hide memory latency.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/device_info.hpp"

namespace tl {

// What the compiler gave one kernel (cudaFuncGetAttributes).
struct KernelResources {
  std::uint32_t registers_per_thread = 0;
  std::uint64_t static_shared_bytes = 0;
  std::uint32_t max_threads_per_block = 1024;  // lower when registers do not allow 1024
  // Dynamic shared memory every launch of the kernel asks for (a pipeline's stages, sized at
  // launch): it counts against the SM's shared memory like the static kind.
  std::uint64_t dynamic_shared_bytes = 0;
};

// The SM's resources that bound the blocks resident at once.
enum class OccupancyLimit { kWarps, kBlocks, kRegisters, kSharedMemory, kBlockTooLarge };
[[nodiscard]] std::string_view to_string(OccupancyLimit limit);  // "warp slots", "registers", ...

struct Occupancy {
  std::uint32_t block_threads = 0;
  std::uint32_t warps_per_block = 0;
  // Blocks per SM each resource alone would allow.
  std::uint32_t blocks_by_warps = 0;
  std::uint32_t blocks_by_block_slots = 0;
  std::uint32_t blocks_by_registers = 0;
  std::uint32_t blocks_by_shared_memory = 0;
  std::uint32_t active_blocks = 0;  // the smallest of the above (0: the block cannot launch)
  OccupancyLimit limit = OccupancyLimit::kWarps;
  std::uint32_t active_warps = 0;
  std::uint32_t max_warps = 0;  // warp slots of one SM
  std::uint64_t registers_per_block = 0;
  std::uint64_t shared_bytes_per_block =
      0;  // with the system's reserve, rounded to its granularity
  [[nodiscard]] double fraction() const {
    return max_warps == 0 ? 0.0 : static_cast<double>(active_warps) / max_warps;
  }
};

// Why the limiting resource of `occupancy` allows no more blocks, in `device`'s own figures:
// "an SM holds at most 32 blocks however small, so 32 blocks of 32 threads leave thread slots
// empty" ... (the Occupancy tab's sentence under the table).
[[nodiscard]] std::string describe_limit(const Occupancy& occupancy, const DeviceInfo& device);

// Whether `device` carries what the calculation needs (a GPU; the emulator has no SMs to fill).
[[nodiscard]] bool can_compute_occupancy(const DeviceInfo& device);

// Occupancy of `kernel` launched with `block_threads` threads per block and `dynamic_shared_bytes`
// of dynamic shared memory on `device`.
[[nodiscard]] Occupancy compute_occupancy(const DeviceInfo& device, const KernelResources& kernel,
                                          std::uint32_t block_threads,
                                          std::uint64_t dynamic_shared_bytes = 0);

// Occupancy at every multiple of the warp size up to the kernel's limit: the chart beside it.
[[nodiscard]] std::vector<Occupancy> occupancy_by_block_size(
    const DeviceInfo& device, const KernelResources& kernel,
    std::uint64_t dynamic_shared_bytes = 0);

}  // namespace tl
