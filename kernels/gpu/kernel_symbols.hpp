#pragma once
// Each lesson's compiled kernels by name, as host-side handles for the CUDA runtime's function
// queries (cudaFuncGetAttributes, the occupancy API). Each *_gpu.cu lists its own, because a kernel
// can only be named in the file that compiles it.

#include <span>
#include <string_view>

namespace tl::kernels {

struct KernelSymbol {
  std::string_view name;
  const void* function;
  // Dynamic shared memory the kernel is always launched with: part of its resources, as its
  // static shared memory is. None if null.
  int (*dynamic_shared_bytes)() = nullptr;
};

std::span<const KernelSymbol> vector_add_gpu_symbols();
std::span<const KernelSymbol> thread_hierarchy_gpu_symbols();
std::span<const KernelSymbol> matrix_add_gpu_symbols();
std::span<const KernelSymbol> matmul_gpu_symbols();
std::span<const KernelSymbol> dense_layer_gpu_symbols();

}  // namespace tl::kernels
