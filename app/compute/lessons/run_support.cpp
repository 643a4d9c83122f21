#include "run_support.hpp"

#include <string>

#include "core/format.hpp"

namespace tl::compute {
namespace {

// The grid's thread count, saturating instead of wrapping around: six 32-bit factors can exceed 64
// bits.
std::uint64_t saturating_thread_count(const LaunchConfig& config) {
  const std::uint32_t factors[] = {config.grid.x,  config.grid.y,  config.grid.z,
                                   config.block.x, config.block.y, config.block.z};
  std::uint64_t threads = 1;
  for (std::uint32_t factor : factors) {
    if (__builtin_mul_overflow(threads, std::uint64_t{factor}, &threads)) {
      return std::numeric_limits<std::uint64_t>::max();
    }
  }
  return threads;
}

}  // namespace

Status check_emulator_budget(const Device& device, const LaunchConfig& config, bool traced) {
  if (device.is_gpu() || !validate(config, device.info().limits).empty()) return Status::ok();
  const std::uint64_t threads = saturating_thread_count(config);
  const std::uint64_t limit = traced ? kEmulatorMaxTracedThreads : kEmulatorMaxThreads;
  if (threads <= limit) return Status::ok();
  return Error{ErrorKind::kTooSlow,
               config.to_string() + " launches " + format_count(threads) +
                   " threads; the CPU emulator runs them one by one and stops at " +
                   format_count(limit) + (traced ? " for a traced launch" : "") +
                   ". On a GPU it would be quick; here, use fewer blocks (with a "
                   "grid-stride loop where the kernel has one)."};
}

}  // namespace tl::compute
