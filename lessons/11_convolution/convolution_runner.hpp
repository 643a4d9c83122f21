#pragma once
// Lesson 11's runs on a device: the inputs, each rung's launch (lesson 4's pipelined GEMM for
// im2col + GEMM), cuDNN, the checks against the float64 reference.

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/trace_sink.hpp"
#include "core/stats.hpp"
#include "lessons/11_convolution/convolution.hpp"

namespace tl::compute {

// What the tensor rung's choice of form depends on: its resident form runs one block per
// multiprocessor and needs a block's opted-in shared memory. Zeros on the emulator, and where no
// device is known yet (then the rung shows its tile form's launch).
struct ConvTarget {
  int multiprocessors = 0;
  std::uint64_t shared_per_block_optin = 0;
  friend bool operator==(const ConvTarget&, const ConvTarget&) = default;
};
[[nodiscard]] ConvTarget conv_target(const Device& device);
// Whether the tensor rung launches its resident form (lessons/11_convolution/kernels/
// convolution_resident.cuh, one block per multiprocessor) for `shape` on `target`; otherwise its
// tile.
[[nodiscard]] bool conv_tensor_resident(const lessons::ConvShape& shape, const ConvTarget& target);
// The name of the kernel the tensor rung launches, as the occupancy view and the listing know it.
[[nodiscard]] std::string conv_tensor_kernel(const lessons::ConvShape& shape,
                                             const ConvTarget& target);

// The launch a rung makes for `shape` (for im2col + GEMM: the GEMM's, one image's for NCHW);
// `block` is the direct kernel's and im2col's block; `target` picks the tensor rung's form.
[[nodiscard]] LaunchConfig conv_launch_config(const lessons::ConvShape& shape,
                                              lessons::ConvRung rung, Dim3 block,
                                              const ConvTarget& target = {});

// im2col's own launch: one thread per element of the unfolded matrix, 1D blocks of `block`.
[[nodiscard]] LaunchConfig conv_im2col_config(const lessons::ConvShape& shape, Dim3 block);

// Why `rung` cannot run `shape` on `device` (the emulator's thread budget, the tensor cores, the
// tiled kernel's grid), or "" when it can.
[[nodiscard]] std::string conv_rung_unavailable(const Device& device,
                                                const lessons::ConvShape& shape,
                                                lessons::ConvRung rung, Dim3 block);

struct ConvRungResult {
  lessons::ConvRung rung;
  std::string not_timed;  // why it did not run; empty when it did
  TimingStats time;
  std::optional<lessons::ConvCheck> check;
  // im2col + GEMM only: its two steps, timed alone.
  TimingStats im2col_step, gemm_step;
};

struct ConvLibraryResult {
  bool fp16 = false;
  // Through the graph (backend) API's timed plans, or the legacy Find API's fastest algorithm.
  bool graph = false;
  std::string not_timed;
  std::string algorithm;  // what cuDNN chose, with its workspace
  std::string details;    // graph: how many plans were timed, what was left out, the knobs
  TimingStats time;
  std::optional<lessons::ConvCheck> check;
};

struct ConvRequest {
  lessons::ConvShape shape;
  Dim3 block{256, 1, 1};
  std::vector<lessons::ConvRung> rungs;  // every rung that is to be timed, in order
  int repeats = 5;
  bool time_cpu = true;
  bool cudnn = true;
  const std::atomic<bool>* cancel = nullptr;
};

struct ConvReport {
  bool on_gpu = false;
  std::vector<ConvRungResult> rungs;
  // FP32 through the graph API, FP32 through Find, then the same in FP16.
  std::vector<ConvLibraryResult> cudnn;
  std::string cudnn_library;  // the loaded cuDNN, or why none
  TimingStats host_to_device, device_to_host;
  TimingStats cpu_reference;  // the float64 reference on every thread
  std::string cpu_skipped;
  unsigned cpu_threads = 0;
};

Result<ConvReport> run_convolution(Device& device, const ConvRequest& request);

// One traced launch of `rung` into `sink`, checked.
Result<std::optional<lessons::ConvCheck>> trace_convolution(Device& device,
                                                            const lessons::ConvShape& shape,
                                                            lessons::ConvRung rung, Dim3 block,
                                                            TraceSink& sink);

}  // namespace tl::compute
