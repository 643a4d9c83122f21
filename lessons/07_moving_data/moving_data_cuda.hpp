#pragma once
// Lesson 7's GPU side that the Device interface does not offer: streams, asynchronous copies,
// events on every operation, managed memory and its prefetches, the copy engines and the PCI bus
// id. Built only with CUDA (cuda/moving_data_cuda.cpp); no CUDA types here, so callers need no
// CUDA headers. Pointers come from the lesson's Device (device and pinned memory) or from
// allocate_managed below.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/stats.hpp"
#include "lessons/07_moving_data/moving_data.hpp"

namespace tl::compute {

struct GpuPipelineBuffers {
  const float* host_in = nullptr;  // pageable, pinned or managed
  float* host_out = nullptr;
  float* device_in = nullptr;  // for managed memory: the same managed buffers as host_in/out
  float* device_out = nullptr;
};

// One run of the pipeline as lessons::plan_pipeline issues it for `schedule`: for each chunk, on
// stream chunk % streams, copy in (or prefetch to the device), the kernel, copy out (or prefetch
// to the host), each between two events; the copy stream, the event waits and the default-stream
// kernel (one block over a scratch buffer, on cudaStreamLegacy or cudaStreamPerThread) where the
// schedule has them. Returns the operations with the events' times (ms since the first), not yet
// corrected for engine queueing (lessons::start_on_engines does that).
Result<std::vector<lessons::TimelineOp>> run_gpu_pipeline(
    const GpuPipelineBuffers& buffers, std::span<const lessons::ChunkRange> chunks,
    std::uint32_t streams, lessons::HostMemory memory, std::uint32_t rounds, std::uint32_t block,
    lessons::Schedule schedule);

// The current device's PCI bus id ("0000:3B:00.0") and copy engines (asyncEngineCount).
Result<std::string> gpu_pci_bus_id();
Result<int> gpu_copy_engines();

// Managed memory (cudaMallocManaged), owned: freed with cudaFree when it goes.
class ManagedBuffer {
 public:
  ManagedBuffer() = default;
  ManagedBuffer(ManagedBuffer&& other) noexcept;
  ManagedBuffer& operator=(ManagedBuffer&& other) noexcept;
  ManagedBuffer(const ManagedBuffer&) = delete;
  ManagedBuffer& operator=(const ManagedBuffer&) = delete;
  ~ManagedBuffer();
  static Result<ManagedBuffer> allocate(std::uint64_t floats);
  [[nodiscard]] float* data() const { return data_; }

 private:
  float* data_ = nullptr;
};

// The kernel over managed memory, the kernel over it timed on the host's first touch and
// after a prefetch to the device.
struct ManagedTimes {
  TimingStats first_touch;
  TimingStats prefetched;
  bool concurrent_managed_access = false;
};
Result<ManagedTimes> time_managed_kernel(std::uint64_t elements, std::uint32_t rounds,
                                         std::uint32_t block, int repeats);

}  // namespace tl::compute
