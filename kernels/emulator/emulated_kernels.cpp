// The lesson kernels compiled by the host compiler for the CPU emulator. The kernel sources are
// included inside a namespace of their own so their names cannot collide with the nvcc-compiled
// kernels of the same name in the GPU table.

#include "cuda_emulation.hpp"
#include "grid_executor.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/trace.cuh"

namespace tl::emulated {
#include "kernels/vector_add.cuh"
}  // namespace tl::emulated

namespace tl::kernels {
namespace {

// Runs a kernel on the emulator, wording a refused configuration as CUDA does so that the lesson
// reads the same on a laptop as on a GPU.
Status emulate(const char* kernel, const LaunchConfig& config, const emu::GridOptions& options,
               const std::function<void()>& body) {
  auto problems = validate(config, standard_cuda_limits());
  if (!problems.empty()) {
    return Error{ErrorKind::kCudaError, std::string(kernel) + config.to_string() +
                                            " failed to launch: invalid configuration argument "
                                            "(emulated CUDA limits: " +
                                            problems.front().message + ")"};
  }
  return emu::run_grid(config, options, body);
}

Status emulate_vector_add(const LaunchConfig& config, const float* a, const float* b, float* c,
                          int n) {
  return emulate("vector_add", config, {}, [=] { emulated::vector_add(a, b, c, n); });
}

Status emulate_vector_add_traced(const LaunchConfig& config, const float* a, const float* b,
                                 float* c, int n, TraceRecord* trace) {
  return emulate("vector_add_traced", config, {},
                 [=] { emulated::vector_add_traced(a, b, c, n, trace); });
}

}  // namespace

const KernelTable& emulator_kernels() {
  static const KernelTable table{emulate_vector_add, emulate_vector_add_traced};
  return table;
}

}  // namespace tl::kernels
