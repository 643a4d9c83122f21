#pragma once
// What ThreadLab knows about the device that runs the kernels: a real CUDA GPU or the CPU emulator.

#include <cstdint>
#include <string>

#include "dim3.hpp"

namespace tl {

enum class BackendKind {
  kCudaInterop,  // CUDA on the GPU that also runs OpenGL: traces are written straight into GL
                 // buffers
  kCudaCopy,     // CUDA works but OpenGL runs elsewhere: traces are copied to the host and uploaded
  kEmulator,     // no usable CUDA device: kernels run on the CPU emulator
};

const char* to_string(BackendKind kind);

// The first clause of a backend's reason, for a status line with the whole reason on hover:
// "No NVIDIA GPU or driver found" out of "No NVIDIA GPU or driver found (cudaError...); kernels
// run on the CPU emulator".
[[nodiscard]] std::string reason_headline(const std::string& reason);
[[nodiscard]] inline bool is_gpu(BackendKind kind) {
  return kind != BackendKind::kEmulator;
}

struct DeviceLimits {
  std::uint32_t max_threads_per_block = 1024;
  Dim3 max_block_dim{1024, 1024, 64};
  Dim3 max_grid_dim{2147483647u, 65535u, 65535u};
  std::uint32_t warp_size = 32;
};

struct DeviceInfo {
  std::string name;
  int compute_major = 0;  // 0 for the emulator
  int compute_minor = 0;
  int multiprocessors = 0;  // for the emulator: worker threads that run blocks
  DeviceLimits limits;
  std::uint64_t shared_memory_per_block = 48 * 1024;
  std::uint64_t shared_memory_per_multiprocessor = 0;
  std::uint32_t registers_per_block = 0;
  std::uint32_t max_threads_per_multiprocessor = 0;
  // What the occupancy calculation needs beyond the above (0 on the emulator: no SMs to fill).
  std::uint32_t registers_per_multiprocessor = 0;
  std::uint32_t max_blocks_per_multiprocessor = 0;
  std::uint64_t reserved_shared_memory_per_block = 0;  // taken by the system from every block
  std::uint64_t l2_cache_bytes = 0;  // 0 when unknown, and on the emulator (it has no L2)
  std::uint64_t global_memory_total = 0;
  std::uint64_t global_memory_free = 0;
  int clock_khz = 0;
  int memory_bus_width_bits = 0;
  int memory_clock_khz = 0;
  int driver_version = 0;  // e.g. 13000 for CUDA 13.0; 0 when unknown
  // The GPU also drives a display, whose watchdog kills kernels that run for more than a few
  // seconds (cudaDevAttrKernelExecTimeout); false for the emulator and for compute-only GPUs.
  bool kernel_timeout = false;
  int runtime_version = 0;

  // Peak DRAM bandwidth from the memory clock and bus width, or 0 when unknown.
  [[nodiscard]] double theoretical_bandwidth_gbps() const;
};

// The limits CUDA documents for every GPU ThreadLab supports (compute capability 7.5 and newer);
// the emulator enforces the same ones so that what is learned on a laptop holds on a GPU.
DeviceLimits standard_cuda_limits();

}  // namespace tl
