#include "core/occupancy.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

// An H100 as cudaGetDeviceProperties describes it.
DeviceInfo h100() {
  DeviceInfo d;
  d.name = "H100";
  d.compute_major = 9;
  d.multiprocessors = 132;
  d.max_threads_per_multiprocessor = 2048;
  d.registers_per_multiprocessor = 65536;
  d.registers_per_block = 65536;
  d.max_blocks_per_multiprocessor = 32;
  d.shared_memory_per_block = 48 * 1024;
  d.shared_memory_per_multiprocessor = 228 * 1024;
  d.reserved_shared_memory_per_block = 1024;
  return d;
}

KernelResources kernel(std::uint32_t registers, std::uint64_t shared = 0,
                       std::uint32_t max_threads = 1024) {
  return {registers, shared, max_threads};
}

TEST(Occupancy, FewRegistersAndNoSharedMemoryFillTheSm) {
  const Occupancy o = compute_occupancy(h100(), kernel(32), 256);
  EXPECT_EQ(o.warps_per_block, 8u);
  EXPECT_EQ(o.blocks_by_warps, 8u);
  EXPECT_EQ(o.blocks_by_registers, 8u);  // 32 × 32 = 1024 registers a warp, 64 warps' worth
  EXPECT_EQ(o.active_blocks, 8u);
  EXPECT_EQ(o.active_warps, 64u);
  EXPECT_EQ(o.max_warps, 64u);
  EXPECT_DOUBLE_EQ(o.fraction(), 1.0);
  EXPECT_EQ(o.limit, OccupancyLimit::kWarps);  // ties go to the warp slots
}

TEST(Occupancy, SixtyFourRegistersHalveIt) {
  const Occupancy o = compute_occupancy(h100(), kernel(64), 256);
  EXPECT_EQ(o.blocks_by_registers, 4u);
  EXPECT_EQ(o.active_blocks, 4u);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
  EXPECT_EQ(o.limit, OccupancyLimit::kRegisters);
  EXPECT_EQ(o.registers_per_block, 64u * 256u);
}

TEST(Occupancy, RegistersAreAllocatedPerWarpInUnitsOf256) {
  // 33 registers × 32 threads = 1056, rounded up to 1280 a warp: 12 warps per quarter of the
  // register file, 48 per SM, 6 blocks of 8 warps.
  const Occupancy o = compute_occupancy(h100(), kernel(33), 256);
  EXPECT_EQ(o.blocks_by_registers, 6u);
  EXPECT_EQ(o.active_warps, 48u);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.75);
}

// Registers come from four partitions of the register file (16384 registers each on an H100), one
// per warp scheduler, and a warp's registers never straddle two: the warps that fit are counted per
// partition, rounded down there, then times four. Where the remainders of the four partitions would
// together hold another warp, counting over the whole register file gives one block too many.
TEST(Occupancy, RegistersAreCountedPerPartitionNotOverTheWholeFile) {
  // 40 registers × 32 threads = 1280 a warp (already a multiple of 256). Per partition:
  // 16384 / 1280 = 12.8 → 12 warps, 48 per SM. Over the whole file it would be 65536 / 1280 = 51.2
  // → 51 warps.
  const Occupancy two_warps = compute_occupancy(h100(), kernel(40), 64);
  EXPECT_EQ(two_warps.blocks_by_registers, 24u);  // 48 / 2; the whole file would say 25
  EXPECT_EQ(two_warps.active_blocks, 24u);        // below the 32 block slots and 32 by warps
  EXPECT_EQ(two_warps.limit, OccupancyLimit::kRegisters);
  EXPECT_DOUBLE_EQ(two_warps.fraction(), 0.75);
  const Occupancy three_warps = compute_occupancy(h100(), kernel(40), 96);
  EXPECT_EQ(three_warps.blocks_by_registers, 16u);  // 48 / 3; the whole file would say 17
  EXPECT_EQ(three_warps.active_blocks, 16u);        // warp slots allow 21
  EXPECT_EQ(three_warps.limit, OccupancyLimit::kRegisters);
}

TEST(Occupancy, SmallBlocksRunOutOfBlockSlots) {
  const Occupancy o = compute_occupancy(h100(), kernel(16), 32);
  EXPECT_EQ(o.blocks_by_warps, 64u);
  EXPECT_EQ(o.active_blocks, 32u);
  EXPECT_EQ(o.limit, OccupancyLimit::kBlocks);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
}

TEST(Occupancy, SharedMemoryCountsTheSystemReserveAndItsGranularity) {
  // 40 KiB + the 1 KiB reserve = 41 KiB a block: 5 fit in 228 KiB.
  const Occupancy o = compute_occupancy(h100(), kernel(32, 40 * 1024), 128);
  EXPECT_EQ(o.shared_bytes_per_block, 41u * 1024u);
  EXPECT_EQ(o.blocks_by_shared_memory, 5u);
  EXPECT_EQ(o.active_blocks, 5u);
  EXPECT_EQ(o.active_warps, 20u);
  EXPECT_EQ(o.limit, OccupancyLimit::kSharedMemory);
  // 100 bytes still take a whole 128-byte unit beside the reserve.
  EXPECT_EQ(compute_occupancy(h100(), kernel(32, 100), 128).shared_bytes_per_block, 1024u + 128u);
}

TEST(Occupancy, DynamicSharedMemoryAddsToTheStatic) {
  const Occupancy o = compute_occupancy(h100(), kernel(32, 20 * 1024), 128, 20 * 1024);
  EXPECT_EQ(o.blocks_by_shared_memory, 5u);
}

TEST(Occupancy, TheKernelsOwnDynamicSharedMemoryCounts) {
  // The dense layer's GEMM: 33 KiB of pipeline stages at every launch, 117 registers.
  KernelResources gemm = kernel(117);
  gemm.dynamic_shared_bytes = 33 * 1024;
  const Occupancy o = compute_occupancy(h100(), gemm, 256);
  EXPECT_EQ(o.shared_bytes_per_block, 34u * 1024u);  // with the 1 KiB the system reserves a block
  EXPECT_EQ(o.blocks_by_shared_memory, 6u);           // 228 KiB / 34 KiB
  EXPECT_EQ(o.blocks_by_registers, 2u);
  EXPECT_EQ(o.active_blocks, 2u);
  EXPECT_EQ(o.limit, OccupancyLimit::kRegisters);
  // More asked for at launch comes on top: 33 + 40 + 1 KiB a block, 3 per SM.
  EXPECT_EQ(compute_occupancy(h100(), gemm, 256, 40 * 1024).blocks_by_shared_memory, 3u);
}

TEST(Occupancy, PartialWarpsTakeAWholeWarpSlot) {
  const Occupancy o = compute_occupancy(h100(), kernel(32), 100);
  EXPECT_EQ(o.warps_per_block, 4u);
  EXPECT_EQ(o.blocks_by_warps, 16u);
}

TEST(Occupancy, ABlockBeyondTheKernelsLimitCannotLaunch) {
  const Occupancy o = compute_occupancy(h100(), kernel(80, 0, 768), 1024);
  EXPECT_EQ(o.active_blocks, 0u);
  EXPECT_EQ(o.limit, OccupancyLimit::kBlockTooLarge);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.0);
  EXPECT_EQ(compute_occupancy(h100(), kernel(32), 0).active_blocks, 0u);
}

TEST(Occupancy, TheEmulatorHasNoSmsToFill) {
  DeviceInfo emulator;
  emulator.max_threads_per_multiprocessor = 1024;
  EXPECT_FALSE(can_compute_occupancy(emulator));
  EXPECT_TRUE(can_compute_occupancy(h100()));
  EXPECT_EQ(compute_occupancy(emulator, kernel(32), 256).active_blocks, 0u);
}

TEST(Occupancy, TheChartCoversEveryWarpMultipleUpToTheKernelsLimit) {
  const auto chart = occupancy_by_block_size(h100(), kernel(64, 0, 512));
  ASSERT_EQ(chart.size(), 16u);  // 32, 64, ..., 512
  EXPECT_EQ(chart.front().block_threads, 32u);
  EXPECT_EQ(chart.back().block_threads, 512u);
  for (const Occupancy& o : chart) {
    EXPECT_GT(o.active_blocks, 0u) << o.block_threads;
    EXPECT_LE(o.active_warps, o.max_warps) << o.block_threads;
  }
}

TEST(Occupancy, LimitsHaveNames) {
  EXPECT_EQ(to_string(OccupancyLimit::kRegisters), "registers");
  EXPECT_EQ(to_string(OccupancyLimit::kSharedMemory), "shared memory");
}

}  // namespace
}  // namespace tl
