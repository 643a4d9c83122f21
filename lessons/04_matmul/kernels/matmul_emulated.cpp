// Lesson 4's kernels compiled by the host compiler for the CPU emulator, launched as
// lessons/04_matmul/kernels/matmul_launch.inl describes.

#include <string>
#include "kernels/emulator/emulated_launch.hpp"
#include "kernels/kernel_registry.hpp"

#include "lessons/04_matmul/kernels/matmul_kernels.hpp"

namespace tl::emulated {
#include "kernels/matmul_tile_io.cuh"
#include "lessons/04_matmul/kernels/matmul.cuh"
#include "lessons/04_matmul/kernels/matmul_pipelined.cuh"
#include "lessons/04_matmul/kernels/matmul_regtile_1d.cuh"
#include "lessons/04_matmul/kernels/matmul_regtile_2d.cuh"
#include "lessons/04_matmul/kernels/matmul_vectorized.cuh"
#include "lessons/04_matmul/kernels/matmul_warptile.cuh"
// After the kernels: their description, which names them.
#include "lessons/04_matmul/kernels/matmul_launch.inl"
}  // namespace tl::emulated

namespace tl::kernels {
namespace registered {
KernelSetEntry matmul_emulated();  // listed in the generated emulator registry
KernelSetEntry matmul_emulated() {
  static const MatmulKernels kTable = [] {
    MatmulKernels table = emulated::matmul_kernels();
    table.tensor = matmul_tensor_emulated;
    table.tensor_layout_probe = matmul_tensor_layout_probe_emulated;
    return table;
  }();
  return register_set("matmul", "04_matmul", kTable);
}
}  // namespace registered

// The CPU has no tensor cores, and the emulator does not imitate them: the rungs are greyed with
// the reason (see kTensorRungsNotEmulated).
Status matmul_tensor_emulated(const LaunchConfig& config, MatmulKernel kernel, const void*,
                              const void*, float*, int, int, int, TraceRecord*) {
  TL_RETURN_IF_ERROR(check_block_tile_launch(kernel, config));
  return Error{ErrorKind::kNoDevice,
               "the " + std::string(to_string(kernel)) +
                   " rung needs a GPU's tensor cores: " + kTensorRungsNotEmulated};
}
Status matmul_tensor_layout_probe_emulated(float*, float*, float*) {
  return Error{ErrorKind::kNoDevice, std::string("the layout probe runs ldmatrix and mma.sync: ") +
                                         kTensorRungsNotEmulated};
}

}  // namespace tl::kernels
