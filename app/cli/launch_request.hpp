#pragma once
// Turns the launch options shared by run, bench and render into a validated size and configuration.

#include "commands.hpp"
#include "core/launch_config.hpp"
#include "core/result.hpp"

namespace tl::cli {

struct LaunchRequest {
  std::uint64_t n = 0;
  LaunchConfig config;
};

Result<LaunchRequest> resolve_launch(const LaunchOptions& options);

// A lesson the command line can run in this version, or why not.
Status check_lesson(const std::string& id);

}  // namespace tl::cli
