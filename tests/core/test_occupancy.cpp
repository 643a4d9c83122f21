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

// Registers come from four partitions of 16384 (one per warp scheduler, sm_70 and later), and a
// warp takes all of its registers from one partition: the SM holds floor(16384 / per-warp) warps
// per partition, times 4, not floor(65536 / per-warp). CUDA's occupancy calculator
// (cudaOccMaxBlocksPerSMRegsLimit in cuda_occupancy.h) counts it so: numWarpsPerSubPartition =
// (regsPerMultiprocessor / numSubPartitions) / regsAllocatedPerWarp, then
// maxBlocks = numWarpsPerSubPartition * numSubPartitions / warpsPerBlock. The cases below are the
// ones where that rounding changes the number of blocks (on the GPU,
// tests/gpu/test_occupancy_gpu.cpp compares the model with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor).

TEST(Occupancy, RegistersArePlacedPerPartitionNotFromOnePool) {
  // 40 registers × 32 threads = 1280 a warp, already a multiple of 256, so only the partitions
  // round: 16384 / 1280 = 12.8, so 12 warps a partition, 48 an SM, 24 blocks of 2 warps. One pool
  // of 65536 would hold 51 warps (65536 / 1280 = 51.2): 25 blocks.
  const Occupancy o = compute_occupancy(h100(), kernel(40), 64);
  EXPECT_EQ(o.warps_per_block, 2u);
  EXPECT_EQ(o.blocks_by_registers, 24u);
  EXPECT_EQ(o.active_blocks, 24u);  // under the 32 block slots and the 32 blocks of warp slots
  EXPECT_EQ(o.limit, OccupancyLimit::kRegisters);
  EXPECT_EQ(o.active_warps, 48u);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.75);
  EXPECT_EQ(o.registers_per_block, 2u * 1280u);
}

TEST(Occupancy, WarpAndPartitionRoundingEachCostBlocks) {
  // One-warp blocks of 81 registers: 81 × 32 = 2592 registers a warp. Unrounded, 65536 / 2592 =
  // 25.3: 25 blocks. Rounded up to 256 per warp: 2816 (11 units); one pool would give 65536 / 2816
  // = 23.3: 23 blocks. Per partition: 16384 / 2816 = 5.8, so 5 warps, 20 an SM: 20 blocks.
  const Occupancy o = compute_occupancy(h100(), kernel(81), 32);
  EXPECT_EQ(o.registers_per_block, 2816u);
  EXPECT_EQ(o.blocks_by_registers, 20u);
  EXPECT_EQ(o.active_blocks, 20u);
  EXPECT_EQ(o.limit, OccupancyLimit::kRegisters);
  EXPECT_EQ(o.active_warps, 20u);
  // 80 registers need 2560 a warp, a multiple of 256: 6 a partition, 24 warps, 24 blocks. One more
  // register costs four blocks, one warp in every partition.
  EXPECT_EQ(compute_occupancy(h100(), kernel(80), 32).blocks_by_registers, 24u);
}

TEST(Occupancy, ABlockWhoseWarpsDoNotFillThePartitionsEvenly) {
  // 6 warps a block, 41 registers: 41 × 32 = 1312, rounded to 1536 a warp. 16384 / 1536 = 10.7,
  // so 10 warps a partition and 40 an SM: 6 blocks (36 warps, 4 slots left idle). One pool:
  // 65536 / 1536 = 42.7, 42 warps, 7 blocks.
  const Occupancy o = compute_occupancy(h100(), kernel(41), 192);
  EXPECT_EQ(o.warps_per_block, 6u);
  EXPECT_EQ(o.blocks_by_warps, 10u);
  EXPECT_EQ(o.blocks_by_registers, 6u);
  EXPECT_EQ(o.active_blocks, 6u);
  EXPECT_EQ(o.limit, OccupancyLimit::kRegisters);
  EXPECT_EQ(o.active_warps, 36u);
  EXPECT_DOUBLE_EQ(o.fraction(), 36.0 / 64.0);
}

TEST(Occupancy, SmallBlocksRunOutOfBlockSlots) {
  const Occupancy o = compute_occupancy(h100(), kernel(16), 32);
  EXPECT_EQ(o.blocks_by_warps, 64u);
  EXPECT_EQ(o.active_blocks, 32u);
  EXPECT_EQ(o.limit, OccupancyLimit::kBlocks);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
}

// The lesson's block-size sweep on the GPUs people own: an SM's block slots and thread slots differ
// by generation, and so does the block size below which the block slots bite.
DeviceInfo with_slots(std::uint32_t threads_per_sm, std::uint32_t blocks_per_sm) {
  DeviceInfo d = h100();
  d.max_threads_per_multiprocessor = threads_per_sm;
  d.max_blocks_per_multiprocessor = blocks_per_sm;
  d.shared_memory_per_multiprocessor = 100 * 1024;
  return d;
}

TEST(Occupancy, BlockSlotsBiteBelowThreadsPerSmOverBlocksPerSm) {
  // Ada (RTX 40): 1536 threads and 24 blocks per SM. 32 threads a block: 24 blocks, 768 threads.
  const DeviceInfo ada = with_slots(1536, 24);
  const Occupancy ada_32 = compute_occupancy(ada, kernel(16), 32);
  EXPECT_EQ(ada_32.active_blocks, 24u);
  EXPECT_EQ(ada_32.limit, OccupancyLimit::kBlocks);
  EXPECT_DOUBLE_EQ(ada_32.fraction(), 0.5);
  // 64 threads a block: 24 blocks fill all 48 warp slots, a tie the warp slots take.
  const Occupancy ada_64 = compute_occupancy(ada, kernel(16), 64);
  EXPECT_EQ(ada_64.active_blocks, 24u);
  EXPECT_EQ(ada_64.limit, OccupancyLimit::kWarps);
  EXPECT_DOUBLE_EQ(ada_64.fraction(), 1.0);
  // Turing: 1024 threads and 16 blocks per SM. 32 threads a block: half full.
  const Occupancy turing_32 = compute_occupancy(with_slots(1024, 16), kernel(16), 32);
  EXPECT_EQ(turing_32.active_blocks, 16u);
  EXPECT_EQ(turing_32.limit, OccupancyLimit::kBlocks);
  EXPECT_DOUBLE_EQ(turing_32.fraction(), 0.5);
  // Blocks of 1024 threads: one per SM on Ada (its 1536 threads hold one and a half).
  const Occupancy ada_1024 = compute_occupancy(ada, kernel(16), 1024);
  EXPECT_EQ(ada_1024.active_blocks, 1u);
  EXPECT_EQ(ada_1024.limit, OccupancyLimit::kWarps);
  EXPECT_DOUBLE_EQ(ada_1024.fraction(), 32.0 / 48.0);
}

// The Occupancy tab's sentence: the limit, in the device's figures.
TEST(Occupancy, TheLimitIsDescribedInTheDevicesFigures) {
  const DeviceInfo ada = with_slots(1536, 24);
  EXPECT_EQ(describe_limit(compute_occupancy(ada, kernel(16), 32), ada),
            "an SM holds at most 24 blocks however small, so 24 blocks of 32 threads fill 768 of "
            "its 1536 thread slots");
  EXPECT_EQ(describe_limit(compute_occupancy(h100(), kernel(32), 256), h100()),
            "8 blocks of 8 warps take 64 of the SM's 64 warp slots (2048 threads), and one more "
            "block would not fit");
  const Occupancy registers = compute_occupancy(h100(), kernel(64), 256);
  ASSERT_EQ(registers.limit, OccupancyLimit::kRegisters);
  EXPECT_EQ(describe_limit(registers, h100()), "16,384 registers a block against 65,536 per SM");
  const Occupancy shared = compute_occupancy(h100(), kernel(16, 100 * 1024), 128);
  ASSERT_EQ(shared.limit, OccupancyLimit::kSharedMemory);
  EXPECT_NE(describe_limit(shared, h100()).find("of shared memory a block against 228.00 KiB"),
            std::string::npos)
      << describe_limit(shared, h100());
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
  EXPECT_EQ(o.blocks_by_shared_memory, 6u);          // 228 KiB / 34 KiB
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
