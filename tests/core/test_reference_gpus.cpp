// The occupancy model of a reference GPU (the Occupancy tab on the emulator), against occupancies
// worked out by hand from the published per-SM limits: one case for each resource that can run out.

#include "core/reference_gpus.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tl {
namespace {

DeviceInfo model_of(std::string_view name) {
  const auto gpu = find_reference_gpu(name);
  EXPECT_TRUE(gpu.has_value()) << name;
  return gpu ? reference_device_info(*gpu) : DeviceInfo{};
}

KernelResources kernel(std::uint32_t registers, std::uint64_t shared = 0) {
  KernelResources resources;
  resources.registers_per_thread = registers;
  resources.static_shared_bytes = shared;
  return resources;
}

TEST(ReferenceGpus, EachIsComplete_NamedOnce_AndAcceptedByTheCalculation) {
  std::set<std::string> names;
  for (const ReferenceGpu& gpu : reference_gpus()) {
    EXPECT_TRUE(names.insert(std::string(gpu.name)).second) << gpu.name;
    const DeviceInfo device = reference_device_info(gpu);
    EXPECT_TRUE(can_compute_occupancy(device)) << gpu.name;
    EXPECT_EQ(device.max_threads_per_multiprocessor, gpu.max_warps_per_multiprocessor * 32);
    EXPECT_EQ(find_reference_gpu(gpu.name)->name, gpu.name);
  }
  EXPECT_EQ(reference_gpus().front().name, "H100 SXM");
  EXPECT_FALSE(find_reference_gpu("GeForce 256").has_value());
}

TEST(ReferenceGpus, TheLabelSaysItIsAModel) {
  EXPECT_EQ(occupancy_model_label(*find_reference_gpu("A100")), "a model of A100, not measured");
}

// H100, 256 threads of 32 registers: 8 warps a block; 64 warp slots hold 8 blocks; a warp's
// 1024 registers, 16 warps per quarter of the 65536, also 8 blocks: full, the warps named first.
TEST(ReferenceGpus, H100_256Threads_FillsTheWarpSlots) {
  const Occupancy o = compute_occupancy(model_of("H100 SXM"), kernel(32), 256);
  EXPECT_EQ(o.active_blocks, 8u);
  EXPECT_EQ(o.active_warps, 64u);
  EXPECT_EQ(o.max_warps, 64u);
  EXPECT_EQ(o.limit, OccupancyLimit::kWarps);
}

// 32-thread blocks: the warps would allow 64 blocks on an H100 and 32 on a T4, but an SM holds
// 32 blocks (H100) or 16 (T4): half the warp slots either way.
TEST(ReferenceGpus, SmallBlocks_RunOutOfBlockSlots) {
  const Occupancy h100 = compute_occupancy(model_of("H100 SXM"), kernel(16), 32);
  EXPECT_EQ(h100.active_blocks, 32u);
  EXPECT_EQ(h100.active_warps, 32u);
  EXPECT_EQ(h100.limit, OccupancyLimit::kBlocks);
  EXPECT_DOUBLE_EQ(h100.fraction(), 0.5);
  const Occupancy t4 = compute_occupancy(model_of("T4"), kernel(16), 32);
  EXPECT_EQ(t4.active_blocks, 16u);
  EXPECT_EQ(t4.max_warps, 32u);
  EXPECT_EQ(t4.limit, OccupancyLimit::kBlocks);
  EXPECT_DOUBLE_EQ(t4.fraction(), 0.5);
}

// A100, 256 threads of 128 registers: 4096 registers a warp, 4 warps in each 16384-register
// quarter, 16 warps: 2 blocks of 8 warps, a quarter of the 64 slots.
TEST(ReferenceGpus, A100_128RegistersAThread_RunsOutOfRegisters) {
  const Occupancy o = compute_occupancy(model_of("A100"), kernel(128), 256);
  EXPECT_EQ(o.blocks_by_registers, 2u);
  EXPECT_EQ(o.registers_per_block, 32768u);
  EXPECT_EQ(o.active_blocks, 2u);
  EXPECT_EQ(o.limit, OccupancyLimit::kRegisters);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.25);
}

// RTX 4090, 128 threads with 48 KB of shared memory: 49152 + 1024 reserved = 50176 bytes a block,
// two of them in the SM's 100 KB; the 48 warp slots would take 12 blocks, the 24 block slots 24.
TEST(ReferenceGpus, Rtx4090_48KiBShared_RunsOutOfSharedMemory) {
  const Occupancy o = compute_occupancy(model_of("RTX 4090"), kernel(32, 48 * 1024), 128);
  EXPECT_EQ(o.shared_bytes_per_block, 50176u);
  EXPECT_EQ(o.blocks_by_shared_memory, 2u);
  EXPECT_EQ(o.blocks_by_warps, 12u);
  EXPECT_EQ(o.blocks_by_block_slots, 24u);
  EXPECT_EQ(o.active_blocks, 2u);
  EXPECT_EQ(o.active_warps, 8u);
  EXPECT_EQ(o.max_warps, 48u);
  EXPECT_EQ(o.limit, OccupancyLimit::kSharedMemory);
}

// The same kernel on a T4: no reserve, 49152 bytes a block, one in its 64 KB; 4 warps of 32.
TEST(ReferenceGpus, T4_48KiBShared_HoldsOneBlock) {
  const Occupancy o = compute_occupancy(model_of("T4"), kernel(32, 48 * 1024), 128);
  EXPECT_EQ(o.shared_bytes_per_block, 49152u);
  EXPECT_EQ(o.active_blocks, 1u);
  EXPECT_EQ(o.active_warps, 4u);
  EXPECT_EQ(o.limit, OccupancyLimit::kSharedMemory);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.125);
}

// 1024-thread blocks on an RTX 4090: 32 warps, and 48 slots hold one such block, two thirds full.
TEST(ReferenceGpus, Rtx4090_1024Threads_LeavesAThirdOfTheWarpSlots) {
  const Occupancy o = compute_occupancy(model_of("RTX 4090"), kernel(32), 1024);
  EXPECT_EQ(o.active_blocks, 1u);
  EXPECT_EQ(o.active_warps, 32u);
  EXPECT_EQ(o.limit, OccupancyLimit::kWarps);
  EXPECT_NEAR(o.fraction(), 2.0 / 3.0, 1e-12);
}

}  // namespace
}  // namespace tl
