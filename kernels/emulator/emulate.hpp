#pragma once
// Runs one kernel on the emulator, wording a refused configuration as CUDA does so that a lesson
// reads the same on a laptop as on a GPU.

#include <functional>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "grid_executor.hpp"

namespace tl::emu {

Status emulate(const char* kernel, const LaunchConfig& config, const GridOptions& options,
               const std::function<void()>& body);

}  // namespace tl::emu
