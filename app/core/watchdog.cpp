#include "core/watchdog.hpp"

#include <algorithm>

#include "core/format.hpp"

namespace tl {
namespace {

// FP32 lanes per SM: 64 on Turing (7.5) and the A100 (8.0), 128 on the consumer Ampere, Ada,
// Hopper and later parts.
int fp32_lanes_per_sm(const DeviceInfo& device) {
  if (device.compute_major == 7 || (device.compute_major == 8 && device.compute_minor == 0)) {
    return 64;
  }
  return 128;
}

}  // namespace

double peak_fp32_flops(const DeviceInfo& device) {
  if (device.multiprocessors <= 0 || device.clock_khz <= 0 || device.compute_major == 0) return 0;
  return static_cast<double>(device.multiprocessors) * fp32_lanes_per_sm(device) * 2.0 *
         static_cast<double>(device.clock_khz) * 1e3;
}

double pessimistic_kernel_seconds(const DeviceInfo& device, double flops, double bytes,
                                  KernelEfficiency efficiency) {
  double seconds = 0;
  const double compute = peak_fp32_flops(device) * efficiency.compute;
  if (compute > 0 && flops > 0) seconds = std::max(seconds, flops / compute);
  const double bandwidth = device.theoretical_bandwidth_gbps() * 1e9 * efficiency.bandwidth;
  if (bandwidth > 0 && bytes > 0) seconds = std::max(seconds, bytes / bandwidth);
  return seconds;
}

Status check_watchdog(const DeviceInfo& device, double predicted_seconds,
                      const std::string& kernel) {
  if (!device.kernel_timeout || predicted_seconds <= kWatchdogBudgetSeconds) return Status::ok();
  return Error{ErrorKind::kTooSlow,
               kernel + " could run for about " + format_milliseconds(predicted_seconds * 1e3) +
                   " in one launch on " + device.name +
                   ", which also drives a display: its watchdog stops kernels after a few "
                   "seconds and would take the GPU context with it. Use a smaller size or a faster "
                   "kernel here, or a GPU without a display."};
}

}  // namespace tl
