// Lesson 11's kernels compiled by the host compiler for the CPU emulator, launched as
// lessons/11_convolution/kernels/convolution_launch.inl describes; the tensor-core rung refuses.

#include <string>

#include "kernels/emulator/emulated_launch.hpp"
#include "kernels/kernel_registry.hpp"
#include "lessons/11_convolution/kernels/convolution_kernels.hpp"

namespace tl::emulated {
#include "lessons/11_convolution/kernels/convolution.cuh"
// After the kernels: their description, which names them.
#include "lessons/11_convolution/kernels/convolution_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
namespace registered {
KernelSetEntry convolution_emulated();  // listed in the generated emulator registry
KernelSetEntry convolution_emulated() {
  static const ConvolutionKernels kTable = [] {
    ConvolutionKernels table = emulated::convolution_kernels();
    table.tensor = conv_tensor_emulated;
    return table;
  }();
  return register_set("convolution", "11_convolution", kTable);
}
}  // namespace registered

Status conv_tensor_emulated(const LaunchConfig& config, ConvDims d, const void*, const void*,
                            float*, TraceRecord*) {
  TL_RETURN_IF_ERROR(check_fixed_block("conv_implicit_gemm_fp16", config, kTensorThreads));
  TL_RETURN_IF_ERROR(check_tensor_conv_shape(d));
  return Error{ErrorKind::kNoDevice, kConvTensorNotEmulated};
}

}  // namespace tl::kernels
