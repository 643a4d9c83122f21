#pragma once
// Runs lesson 2 on a device: out[i] = 2 * in[i] + 1 on any 1D/2D/3D grid of 1D/2D/3D blocks, one
// element per thread or with a grid-stride loop. The timed run measures the untraced kernel; the
// traced run records who computed each element and, per block, which SM ran it and when.

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/stats.hpp"
#include "core/trace_record.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"

namespace tl::compute {

struct ThreadHierarchyRequest {
  lessons::ThreadHierarchyParams params;
  bool check = true;
  bool time_cpu = true;  // also time the single-threaded CPU loop
  int warmup = 1;        // untimed runs before the timed ones
  int repeats = 5;
  std::uint32_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;  // checked between measurements
};

struct ThreadHierarchyReport {
  bool on_gpu = false;
  std::uint64_t n = 0;
  std::uint64_t threads = 0;  // launched: the grid's thread count
  std::uint64_t passes = 0;   // grid-stride trips of the busiest thread; 1 without the loop
  TimingStats kernel;         // the untraced kernel alone (the chosen branch rule's, if any)
  // With a branch rule, both divergence kernels over the same data: the branch on the thread's
  // parity and the branch on its warp's (`kernel` is one of them). Empty without one.
  TimingStats branch_by_thread;
  TimingStats branch_by_warp;
  TimingStats host_to_device;  // copying `in` to the device
  TimingStats device_to_host;  // copying `out` back
  TimingStats cpu_single;      // empty when not requested
  TimingStats cpu_multi;       // the same loop on every hardware thread
  unsigned cpu_threads = 0;    // how many it used
  std::optional<lessons::ElementCheck> check;

  // `in` read and `out` written once per element, over the kernel's median time.
  [[nodiscard]] double kernel_gigabytes_per_second() const;
};

// Validates, uploads random inputs, launches and times. Launch errors (an invalid configuration,
// out of memory) come back as errors carrying CUDA's own message; the emulator refuses launches of
// more threads than it can run in reasonable time (ErrorKind::kTooSlow).
Result<ThreadHierarchyReport> run_thread_hierarchy(Device& device,
                                                   const ThreadHierarchyRequest& request);

struct ThreadHierarchyTrace {
  lessons::ElementCheck check;  // of the traced kernel's output
  // One per block in linear block order (x + gridDim.x * (y + gridDim.y * z)): its SM and its start
  // and end on the GPU's global timer. On the emulator sm is -1 and the times are 0.
  std::vector<BlockRecord> blocks;
};

// Each element of the divergence demo costs 2 * kBranchSteps floating-point operations, which the
// CPU emulator runs one thread at a time: it stops at this many elements.
inline constexpr std::uint64_t kEmulatorMaxBranchElements = std::uint64_t{1} << 20;

// Traced launches hold one BlockRecord per block and at most 2^32 elements (a grid-stride pass
// number is 32 bits).
inline constexpr std::uint64_t kThreadHierarchyMaxTracedBlocks = std::uint64_t{1} << 22;
inline constexpr std::uint64_t kThreadHierarchyMaxTracedN = 0xFFFFFFFFull;

// One traced launch writing its element records (params.n of them) into `sink`; the same inputs
// as run_thread_hierarchy with the same seed.
Result<ThreadHierarchyTrace> trace_thread_hierarchy(Device& device,
                                                    const lessons::ThreadHierarchyParams& params,
                                                    TraceSink& sink, std::uint32_t seed = 1);

}  // namespace tl::compute
