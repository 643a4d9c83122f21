#include "emulate.hpp"

#include <string>
#include <utility>

namespace tl::emu {
namespace {

thread_local WatchLaunches* g_watch = nullptr;

}  // namespace

WatchLaunches::WatchLaunches(AfterThreadStep after_step)
    : after_step_(std::move(after_step)), outer_(g_watch) {
  g_watch = this;
}

WatchLaunches::~WatchLaunches() {
  g_watch = outer_;
}

Status emulate(const char* kernel, const LaunchConfig& config, const GridOptions& options,
               const std::function<void()>& body) {
  return emulate(kernel, config, options, body, {});
}

Status emulate(const char* kernel, const LaunchConfig& config, const GridOptions& options,
               const std::function<void()>& body, const std::function<void()>& block_body) {
  auto problems = validate(config, standard_cuda_limits());
  if (!problems.empty()) {
    return Error{ErrorKind::kCudaError, std::string(kernel) + config.to_string() +
                                            " failed to launch: invalid configuration argument "
                                            "(emulated CUDA limits: " +
                                            problems.front().message + ")"};
  }
  if (g_watch != nullptr) {
    g_watch->kernels_.emplace_back(kernel);
    GridOptions watched = options;
    watched.after_step = g_watch->after_step_;
    return run_grid(config, watched, body, block_body);
  }
  return run_grid(config, options, body, block_body);
}

}  // namespace tl::emu
