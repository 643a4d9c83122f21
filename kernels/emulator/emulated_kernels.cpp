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

Status emulate_vector_add(const LaunchConfig& config, const float* a, const float* b, float* c, int n) {
  return emu::run_grid(config, {}, [=] { emulated::vector_add(a, b, c, n); });
}

Status emulate_vector_add_traced(const LaunchConfig& config, const float* a, const float* b, float* c,
                                 int n, TraceRecord* trace) {
  return emu::run_grid(config, {}, [=] { emulated::vector_add_traced(a, b, c, n, trace); });
}

}  // namespace

const KernelTable& emulator_kernels() {
  static const KernelTable table{emulate_vector_add, emulate_vector_add_traced};
  return table;
}

}  // namespace tl::kernels
