#pragma once
// Real GPUs whose per-SM limits the Occupancy tab can model where there is no GPU to ask (the
// emulator): the user picks one, and the occupancy of the current launch is computed against its
// limits, labelled as a model. On a GPU the tab reads the device itself instead.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/device_info.hpp"
#include "core/occupancy.hpp"

namespace tl {

struct ReferenceGpu {
  std::string_view name;  // "H100 SXM"
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  std::uint32_t registers_per_multiprocessor = 0;      // 32-bit registers
  std::uint64_t shared_memory_per_multiprocessor = 0;  // the most a kernel can be given, bytes
  std::uint64_t shared_memory_per_block_optin = 0;     // the most one block can opt in to
  std::uint64_t reserved_shared_memory_per_block = 0;  // the system's share of every block
  std::uint32_t max_warps_per_multiprocessor = 0;
  std::uint32_t max_blocks_per_multiprocessor = 0;
};

// The reference GPUs, the first being the default: H100 SXM, A100, RTX 4090, T4.
[[nodiscard]] std::span<const ReferenceGpu> reference_gpus();
// The one named `name` (as in reference_gpus()), if any.
[[nodiscard]] std::optional<ReferenceGpu> find_reference_gpu(std::string_view name);

// `gpu` as a DeviceInfo that compute_occupancy() accepts: its limits, CUDA's standard launch
// limits and 32-thread warps. Nothing else of it is known (no memory sizes, no clocks).
[[nodiscard]] DeviceInfo reference_device_info(const ReferenceGpu& gpu);

// The label every modelled figure carries: "a model of H100 SXM, not measured".
[[nodiscard]] std::string occupancy_model_label(const ReferenceGpu& gpu);

// What the kernel is assumed to use where no compiler output can be read (the emulator: nvcc's
// register count exists only in a GPU build run on a GPU): 32 registers a thread, a common figure
// for simple kernels, and no shared memory. The user changes both in the Occupancy tab.
inline constexpr std::uint32_t kAssumedRegistersPerThread = 32;
// The most registers a thread can have on every GPU ThreadLab supports.
inline constexpr std::uint32_t kMaxRegistersPerThread = 255;

}  // namespace tl
