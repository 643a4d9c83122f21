#pragma once
// Runs one kernel on the emulator, wording a refused configuration as CUDA does so that a lesson
// reads the same on a laptop as on a GPU.

#include <functional>
#include <string>
#include <vector>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "grid_executor.hpp"

namespace tl::emu {

Status emulate(const char* kernel, const LaunchConfig& config, const GridOptions& options,
               const std::function<void()>& body);
// With the per-block loop run_grid takes for barrier-free grids (grid_executor.hpp).
Status emulate(const char* kernel, const LaunchConfig& config, const GridOptions& options,
               const std::function<void()>& body, const std::function<void()>& block_body);

// While one lives, every emulate() on this thread runs its grid with `after_step` (on this thread,
// one emulated thread at a time) and records the kernel's name. The mapping probe uses it to watch
// the lessons' own launch functions, exactly as the lessons call them, thread by thread.
class WatchLaunches {
 public:
  explicit WatchLaunches(AfterThreadStep after_step);
  ~WatchLaunches();
  WatchLaunches(const WatchLaunches&) = delete;
  WatchLaunches& operator=(const WatchLaunches&) = delete;

  // The kernels launched so far, in order, as their launch errors name them.
  [[nodiscard]] const std::vector<std::string>& kernels() const { return kernels_; }

 private:
  friend Status emulate(const char*, const LaunchConfig&, const GridOptions&,
                        const std::function<void()>&, const std::function<void()>&);
  AfterThreadStep after_step_;
  std::vector<std::string> kernels_;
  WatchLaunches* outer_;
};

}  // namespace tl::emu
