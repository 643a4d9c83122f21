#include "emulate.hpp"

#include <string>

namespace tl::emu {

Status emulate(const char* kernel, const LaunchConfig& config, const GridOptions& options,
               const std::function<void()>& body) {
  auto problems = validate(config, standard_cuda_limits());
  if (!problems.empty()) {
    return Error{ErrorKind::kCudaError, std::string(kernel) + config.to_string() +
                                            " failed to launch: invalid configuration argument "
                                            "(emulated CUDA limits: " +
                                            problems.front().message + ")"};
  }
  return run_grid(config, options, body);
}

}  // namespace tl::emu
