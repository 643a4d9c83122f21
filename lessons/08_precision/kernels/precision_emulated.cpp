// The precision lesson's kernels compiled by the host compiler for the CPU emulator, launched as
// lessons/08_precision/kernels/precision_launch.inl describes, on the emulator's bit-exact __half
// and __nv_bfloat16.

#include <span>

#include "kernels/emulator/emulated_launch.hpp"
#include "kernels/emulator/low_precision_emulation.hpp"
#include "kernels/kernel_registry.hpp"
#include "lessons/08_precision/kernels/precision_kernels.hpp"

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
#include "lessons/08_precision/kernels/precision.cuh"
// After the kernels: their description, which names them.
#include "lessons/08_precision/kernels/precision_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {

namespace registered {
KernelSetEntry precision_emulated();  // listed in the generated emulator registry
KernelSetEntry precision_emulated() {
  static const PrecisionKernels kTable = emulated::precision_kernels();
  return register_set("precision", "08_precision", kTable);
}
}  // namespace registered

}  // namespace tl::kernels
