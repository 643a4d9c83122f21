#pragma once
// The compiled forms of the lessons' GPU kernels, made at build time by the CUDA toolkit's own
// tools and embedded in the program (cmake/ExtractCompiledKernels.cmake), so that a machine
// without a GPU or a toolkit still shows what nvcc made of every lesson kernel. One unit per
// translation unit of a lesson's kernel set and architecture built: the SASS with its source
// lines (nvdisasm -g -c), the PTX where the build kept it, and ptxas's resources per kernel
// (cuobjdump -res-usage). Parsed by core/compiled/.

#include <span>
#include <string_view>

namespace tl::compiled_kernels {

struct CompiledUnit {
  std::string_view lesson;     // the lesson's folder: "03_2d_blocks"
  std::string_view unit;       // the translation unit: "matrix_add_gpu"
  std::string_view arch;       // "sm_90", "sm_90a"
  std::string_view sass;       // nvdisasm's listing, paths relative to the project root
  std::string_view ptx;        // empty where the build kept no PTX of this architecture
  std::string_view resources;  // cuobjdump -res-usage
};

// Every unit of this build; empty where the build had no CUDA toolkit or no disassembler.
[[nodiscard]] std::span<const CompiledUnit> units();
// Why there are none, for people; empty when there are.
[[nodiscard]] std::string_view unavailable();

}  // namespace tl::compiled_kernels
