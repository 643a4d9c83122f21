// The precision lesson's kernels compiled by the host compiler for the CPU emulator, launched as
// kernels/precision_launch.inl describes, on the emulator's bit-exact __half and __nv_bfloat16.

#include <span>

#include "emulated_launch.hpp"
#include "kernels/precision_kernels.hpp"
#include "low_precision_emulation.hpp"

namespace tl::emulated {
using emu::__bfloat162float;
using emu::__float2bfloat16_rn;
using emu::__float2half_rn;
using emu::__hadd;
using emu::__half;
using emu::__half2float;
using emu::__hfma;
using emu::__hmul;
using emu::__nv_bfloat16;
using emu::float_to_tf32;
#include "kernels/precision.cuh"
// After the kernels: their description, which names them.
#include "kernels/precision_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {

PrecisionKernels precision_emulated() {
  return emulated::precision_kernels();
}

}  // namespace tl::kernels
