// The reductions lesson's kernels compiled by the host compiler for the CPU emulator, launched as
// lessons/06_reductions/kernels/reductions_launch.inl describes. CUB has no emulator counterpart:
// its entries stay null. The cooperative-groups rung gets the emulator's cooperative groups
// (kernels/emulator/cooperative_groups_emulation.hpp) where nvcc has CUDA's.

#include <cmath>  // expf and INFINITY for the softmax, as nvcc provides them on the device
#include <span>

#include "kernels/emulator/cooperative_groups_emulation.hpp"
#include "kernels/emulator/emulated_launch.hpp"
#include "kernels/kernel_registry.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"
#include "lessons/06_reductions/kernels/reduction_trace.cuh"

namespace tl::emulated {
namespace cg = cooperative_groups;
#include "lessons/06_reductions/kernels/histogram.cuh"
#include "lessons/06_reductions/kernels/scan.cuh"
#include "lessons/06_reductions/kernels/softmax.cuh"
#include "lessons/06_reductions/kernels/sum_ladder.cuh"
#include "lessons/06_reductions/kernels/sum_vectorized.cuh"
#include "lessons/06_reductions/kernels/warp_level.cuh"
// After the kernels: their description, which names them.
#include "lessons/06_reductions/kernels/reductions_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {

namespace registered {
KernelSetEntry reductions_emulated();  // listed in the generated emulator registry
KernelSetEntry reductions_emulated() {
  static const ReductionKernels kTable = emulated::reduction_kernels(nullptr, nullptr);
  return register_set("reductions", "06_reductions", kTable);
}
}  // namespace registered

}  // namespace tl::kernels
