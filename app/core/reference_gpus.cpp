#include "core/reference_gpus.hpp"

#include <array>

namespace tl {
namespace {

constexpr std::uint64_t kKiB = 1024;

// The per-SM limits come from NVIDIA's CUDA C++ Programming Guide, "Compute Capabilities",
// table "Technical Specifications per Compute Capability" (registers per SM, shared memory per
// SM and per block, resident warps and blocks per SM), for compute capability 9.0 (H100), 8.0
// (A100), 8.9 (RTX 4090, Ada) and 7.5 (T4, Turing); the SM counts from each product's datasheet
// and whitepaper (NVIDIA H100 Tensor Core GPU Architecture, A100 Tensor Core GPU Architecture,
// Ada Lovelace Architecture, Turing Architecture). The 1 KB reserved per block on 8.x and 9.0 is
// cudaDevAttrReservedSharedMemoryPerBlock on those GPUs; Turing reserves none.
constexpr std::array kReferenceGpus{
    ReferenceGpu{.name = "H100 SXM",
                 .compute_major = 9,
                 .compute_minor = 0,
                 .multiprocessors = 132,
                 .registers_per_multiprocessor = 65536,
                 .shared_memory_per_multiprocessor = 228 * kKiB,
                 .shared_memory_per_block_optin = 227 * kKiB,
                 .reserved_shared_memory_per_block = 1 * kKiB,
                 .max_warps_per_multiprocessor = 64,
                 .max_blocks_per_multiprocessor = 32},
    ReferenceGpu{.name = "A100",
                 .compute_major = 8,
                 .compute_minor = 0,
                 .multiprocessors = 108,
                 .registers_per_multiprocessor = 65536,
                 .shared_memory_per_multiprocessor = 164 * kKiB,
                 .shared_memory_per_block_optin = 163 * kKiB,
                 .reserved_shared_memory_per_block = 1 * kKiB,
                 .max_warps_per_multiprocessor = 64,
                 .max_blocks_per_multiprocessor = 32},
    ReferenceGpu{.name = "RTX 4090",
                 .compute_major = 8,
                 .compute_minor = 9,
                 .multiprocessors = 128,
                 .registers_per_multiprocessor = 65536,
                 .shared_memory_per_multiprocessor = 100 * kKiB,
                 .shared_memory_per_block_optin = 99 * kKiB,
                 .reserved_shared_memory_per_block = 1 * kKiB,
                 .max_warps_per_multiprocessor = 48,
                 .max_blocks_per_multiprocessor = 24},
    ReferenceGpu{.name = "T4",
                 .compute_major = 7,
                 .compute_minor = 5,
                 .multiprocessors = 40,
                 .registers_per_multiprocessor = 65536,
                 .shared_memory_per_multiprocessor = 64 * kKiB,
                 .shared_memory_per_block_optin = 64 * kKiB,
                 .reserved_shared_memory_per_block = 0,
                 .max_warps_per_multiprocessor = 32,
                 .max_blocks_per_multiprocessor = 16},
};

}  // namespace

std::span<const ReferenceGpu> reference_gpus() {
  return kReferenceGpus;
}

std::optional<ReferenceGpu> find_reference_gpu(std::string_view name) {
  for (const ReferenceGpu& gpu : kReferenceGpus) {
    if (gpu.name == name) return gpu;
  }
  return std::nullopt;
}

DeviceInfo reference_device_info(const ReferenceGpu& gpu) {
  DeviceInfo device;
  device.name = std::string(gpu.name);
  device.compute_major = gpu.compute_major;
  device.compute_minor = gpu.compute_minor;
  device.multiprocessors = gpu.multiprocessors;
  device.limits = standard_cuda_limits();
  device.shared_memory_per_block = gpu.shared_memory_per_block_optin;
  device.shared_memory_per_multiprocessor = gpu.shared_memory_per_multiprocessor;
  device.registers_per_block = 65536;  // the same on every compute capability from 7.5 to 9.0
  device.max_threads_per_multiprocessor =
      gpu.max_warps_per_multiprocessor * device.limits.warp_size;
  device.registers_per_multiprocessor = gpu.registers_per_multiprocessor;
  device.max_blocks_per_multiprocessor = gpu.max_blocks_per_multiprocessor;
  device.reserved_shared_memory_per_block = gpu.reserved_shared_memory_per_block;
  return device;
}

std::string occupancy_model_label(const ReferenceGpu& gpu) {
  return "a model of " + std::string(gpu.name) + ", not measured";
}

}  // namespace tl
