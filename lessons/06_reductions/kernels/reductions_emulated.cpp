// The reductions lesson's kernels compiled by the host compiler for the CPU emulator, launched as
// lessons/06_reductions/kernels/reductions_launch.inl describes. CUB has no emulator counterpart:
// its entry stays null.

#include <cmath>  // expf and INFINITY for the softmax, as nvcc provides them on the device
#include <span>

#include "kernels/emulator/emulated_launch.hpp"
#include "kernels/kernel_registry.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"
#include "lessons/06_reductions/kernels/reduction_trace.cuh"

namespace tl::emulated {
#include "lessons/06_reductions/kernels/histogram.cuh"
#include "lessons/06_reductions/kernels/softmax.cuh"
#include "lessons/06_reductions/kernels/sum_ladder.cuh"
#include "lessons/06_reductions/kernels/sum_vectorized.cuh"
// After the kernels: their description, which names them.
#include "lessons/06_reductions/kernels/reductions_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {

namespace registered {
KernelSetEntry reductions_emulated();  // listed in the generated emulator registry
KernelSetEntry reductions_emulated() {
  static const ReductionKernels kTable = emulated::reduction_kernels(nullptr);
  return register_set("reductions", "06_reductions", kTable);
}
}  // namespace registered

}  // namespace tl::kernels
