// Lesson 1's kernels compiled by the host compiler for the CPU emulator. The kernel source is
// included inside a namespace of its own so its names cannot collide with the nvcc-compiled kernels
// of the same name.

#include "cuda_emulation.hpp"
#include "emulate.hpp"
#include "kernels/trace.cuh"
#include "kernels/vector_add_kernels.hpp"

namespace tl::emulated {
#include "kernels/vector_add.cuh"
}  // namespace tl::emulated

namespace tl::kernels {
namespace {

Status add(const LaunchConfig& config, const float* a, const float* b, float* c, int n) {
  return emu::emulate("vector_add", config, {}, [=] { emulated::vector_add(a, b, c, n); });
}

Status add_traced(const LaunchConfig& config, const float* a, const float* b, float* c, int n,
                  TraceRecord* trace) {
  return emu::emulate("vector_add_traced", config, {},
                      [=] { emulated::vector_add_traced(a, b, c, n, trace); });
}

}  // namespace

VectorAddKernels vector_add_emulated() {
  return {add, add_traced};
}

}  // namespace tl::kernels
