#pragma once
// A GPU that also drives a display has a watchdog: a kernel that runs for more than a few seconds
// is killed, the CUDA context with it, and on some systems the desktop freezes until then. A naive
// matrix multiply of 16384³ on a laptop GPU is such a kernel. ThreadLab predicts a launch's time
// pessimistically before it starts and refuses one that could reach the watchdog, with a message
// saying what to do instead. Compute-only GPUs (no watchdog) run everything.

#include <string>

#include "core/device_info.hpp"
#include "core/result.hpp"

namespace tl {

// Well under the shortest common watchdog (about 2 s on Windows, a few seconds under X), because
// the prediction is a model, not a measurement.
inline constexpr double kWatchdogBudgetSeconds = 1.0;

// Peak float32 multiply-add rate (FLOP/s) from the SM count, FP32 lanes per SM for the compute
// capability, and the clock; 0 when the device does not say.
[[nodiscard]] double peak_fp32_flops(const DeviceInfo& device);

// How fast a kernel is assumed to run, as a share of the peaks: low, so that the prediction errs
// towards "too slow". A naive kernel reaches a few per cent of the FP32 peak; a tiled one more.
struct KernelEfficiency {
  double compute = 0.02;    // share of peak_fp32_flops
  double bandwidth = 0.25;  // share of the theoretical DRAM bandwidth
};

// The longest this kernel is expected to run: its flops and bytes at the pessimistic rates, the
// slower of the two. 0 when the device gives no peaks (then nothing is refused).
[[nodiscard]] double pessimistic_kernel_seconds(const DeviceInfo& device, double flops,
                                                double bytes, KernelEfficiency efficiency = {});

// kTooSlow, naming the kernel and the predicted time, when `device` has a watchdog and the
// prediction exceeds kWatchdogBudgetSeconds; ok otherwise.
Status check_watchdog(const DeviceInfo& device, double predicted_seconds,
                      const std::string& kernel);

}  // namespace tl
