// The reductions lesson's kernels compiled by the host compiler for the CPU emulator, launched as
// kernels/reductions_launch.inl describes. CUB has no emulator counterpart: its entry stays null.

#include <cmath>  // expf and INFINITY for the softmax, as nvcc provides them on the device
#include <span>

#include "emulated_launch.hpp"
#include "kernels/reduction_kernels.hpp"
#include "kernels/reduction_trace.cuh"

namespace tl::emulated {
#include "kernels/histogram.cuh"
#include "kernels/softmax.cuh"
#include "kernels/sum_ladder.cuh"
#include "kernels/sum_vectorized.cuh"
// After the kernels: their description, which names them.
#include "kernels/reductions_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {

ReductionKernels reductions_emulated() {
  return emulated::reduction_kernels(nullptr);
}

}  // namespace tl::kernels
