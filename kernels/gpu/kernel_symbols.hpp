#pragma once
// Each lesson's compiled kernels by name, as host-side handles for the CUDA runtime's function
// queries (cudaFuncGetAttributes, the occupancy API). Each set's description
// (kernels/<set>_launch.inl) lists its own, because a kernel can only be named in the file that
// compiles it.

#include <span>

#include "kernels/kernel_description.hpp"  // KernelSymbol

namespace tl::kernels {

std::span<const KernelSymbol> vector_add_gpu_symbols();
std::span<const KernelSymbol> thread_hierarchy_gpu_symbols();
std::span<const KernelSymbol> matrix_add_gpu_symbols();
std::span<const KernelSymbol> matmul_gpu_symbols();
std::span<const KernelSymbol> dense_layer_gpu_symbols();
std::span<const KernelSymbol> reductions_gpu_symbols();
std::span<const KernelSymbol> moving_data_gpu_symbols();
std::span<const KernelSymbol> precision_gpu_symbols();
std::span<const KernelSymbol> mlp_gpu_symbols();

}  // namespace tl::kernels
