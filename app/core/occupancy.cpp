#include "core/occupancy.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "core/format.hpp"

namespace tl {
namespace {

// Allocation granularities of the GPUs ThreadLab supports (compute capability 7.5 to 9.x), as the
// CUDA occupancy calculator has them: registers are handed out per warp in units of 256, from four
// equal partitions of the register file (one per scheduler); shared memory in units of 128 bytes
// (256 on Turing).
constexpr std::uint32_t kRegisterUnit = 256;
constexpr std::uint32_t kRegisterPartitions = 4;

std::uint64_t round_up(std::uint64_t value, std::uint64_t unit) {
  return unit == 0 ? value : (value + unit - 1) / unit * unit;
}

std::uint64_t shared_granularity(const DeviceInfo& device) {
  return device.compute_major < 8 ? 256 : 128;
}

}  // namespace

std::string_view to_string(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::kWarps:
      return "warp slots";
    case OccupancyLimit::kBlocks:
      return "block slots";
    case OccupancyLimit::kRegisters:
      return "registers";
    case OccupancyLimit::kSharedMemory:
      return "shared memory";
    case OccupancyLimit::kBlockTooLarge:
      return "block too large for this kernel";
  }
  return "";
}

std::string describe_limit(const Occupancy& o, const DeviceInfo& device) {
  const std::string blocks = std::to_string(o.active_blocks);
  switch (o.limit) {
    case OccupancyLimit::kBlocks:
      return "an SM holds at most " + std::to_string(device.max_blocks_per_multiprocessor) +
             " blocks however small, so " + blocks + " blocks of " +
             std::to_string(o.block_threads) + " threads fill " +
             std::to_string(o.active_blocks * o.block_threads) + " of its " +
             std::to_string(device.max_threads_per_multiprocessor) + " thread slots";
    case OccupancyLimit::kWarps:
      return blocks + " blocks of " + std::to_string(o.warps_per_block) + " warps take " +
             std::to_string(o.active_warps) + " of the SM's " + std::to_string(o.max_warps) +
             " warp slots (" + std::to_string(device.max_threads_per_multiprocessor) +
             " threads), and one more block would not fit";
    case OccupancyLimit::kRegisters:
      return format_count(o.registers_per_block) + " registers a block against " +
             format_count(device.registers_per_multiprocessor) + " per SM";
    case OccupancyLimit::kSharedMemory:
      return format_bytes(static_cast<double>(o.shared_bytes_per_block)) +
             " of shared memory a block against " +
             format_bytes(static_cast<double>(device.shared_memory_per_multiprocessor)) + " per SM";
    case OccupancyLimit::kBlockTooLarge:
      break;
  }
  return std::to_string(o.block_threads) + " threads are more than this kernel allows in a block";
}

bool can_compute_occupancy(const DeviceInfo& device) {
  return device.compute_major > 0 && device.max_threads_per_multiprocessor > 0 &&
         device.registers_per_multiprocessor > 0 && device.max_blocks_per_multiprocessor > 0 &&
         device.limits.warp_size > 0;
}

Occupancy compute_occupancy(const DeviceInfo& device, const KernelResources& kernel,
                            std::uint32_t block_threads, std::uint64_t dynamic_shared_bytes) {
  Occupancy o;
  o.block_threads = block_threads;
  const std::uint32_t warp = std::max(device.limits.warp_size, 1u);
  o.max_warps = device.max_threads_per_multiprocessor / warp;
  if (block_threads == 0 || block_threads > kernel.max_threads_per_block ||
      !can_compute_occupancy(device)) {
    o.limit = OccupancyLimit::kBlockTooLarge;
    return o;
  }
  o.warps_per_block = (block_threads + warp - 1) / warp;

  o.blocks_by_warps = o.max_warps / o.warps_per_block;
  o.blocks_by_block_slots = device.max_blocks_per_multiprocessor;

  constexpr auto kUnlimited = std::numeric_limits<std::uint32_t>::max();
  if (kernel.registers_per_thread == 0) {
    o.blocks_by_registers = kUnlimited;
  } else {
    // Each warp gets its registers from one partition; a block needs all its warps placed.
    const std::uint64_t per_warp =
        round_up(std::uint64_t{kernel.registers_per_thread} * warp, kRegisterUnit);
    const std::uint64_t per_partition = device.registers_per_multiprocessor / kRegisterPartitions;
    const std::uint64_t warps = per_partition / per_warp * kRegisterPartitions;
    o.blocks_by_registers = static_cast<std::uint32_t>(warps / o.warps_per_block);
    o.registers_per_block = per_warp * o.warps_per_block;
  }

  const std::uint64_t shared =
      kernel.static_shared_bytes + kernel.dynamic_shared_bytes + dynamic_shared_bytes;
  o.shared_bytes_per_block =
      round_up(shared + device.reserved_shared_memory_per_block, shared_granularity(device));
  if (shared == 0) {
    // A block without shared memory is not bounded by it (the reserve is not counted then).
    o.blocks_by_shared_memory = kUnlimited;
  } else if (shared > device.shared_memory_per_block &&
             shared > device.shared_memory_per_multiprocessor) {
    o.blocks_by_shared_memory = 0;
  } else {
    o.blocks_by_shared_memory =
        static_cast<std::uint32_t>(device.shared_memory_per_multiprocessor /
                                   std::max<std::uint64_t>(o.shared_bytes_per_block, 1));
  }

  // The first resource to run out, in the order the calculator reports ties.
  o.active_blocks = o.blocks_by_warps;
  o.limit = OccupancyLimit::kWarps;
  const auto consider = [&](std::uint32_t blocks, OccupancyLimit limit) {
    if (blocks < o.active_blocks) {
      o.active_blocks = blocks;
      o.limit = limit;
    }
  };
  consider(o.blocks_by_block_slots, OccupancyLimit::kBlocks);
  consider(o.blocks_by_registers, OccupancyLimit::kRegisters);
  consider(o.blocks_by_shared_memory, OccupancyLimit::kSharedMemory);
  o.active_warps = o.active_blocks * o.warps_per_block;
  return o;
}

std::vector<Occupancy> occupancy_by_block_size(const DeviceInfo& device,
                                               const KernelResources& kernel,
                                               std::uint64_t dynamic_shared_bytes) {
  std::vector<Occupancy> chart;
  const std::uint32_t warp = std::max(device.limits.warp_size, 1u);
  const std::uint32_t largest =
      std::min(kernel.max_threads_per_block, device.limits.max_threads_per_block);
  for (std::uint32_t threads = warp; threads <= largest; threads += warp) {
    chart.push_back(compute_occupancy(device, kernel, threads, dynamic_shared_bytes));
  }
  return chart;
}

}  // namespace tl
