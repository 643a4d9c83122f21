// The CUDA runtime's function queries over the kernels the lessons compile.

#include <cuda_runtime.h>

#include <string>

#include "kernels/kernel_inspector.hpp"
#include "kernels/kernel_registry.hpp"

namespace tl::kernels {
namespace {

// Every registered set's timed kernels, in the lessons' order.
Result<const KernelSymbol*> find_symbol(std::string_view kernel) {
  for (const KernelSetEntry& set : gpu_kernels().sets()) {
    for (const KernelSymbol& symbol : set.symbols()) {
      if (symbol.name == kernel) return &symbol;
    }
  }
  return invalid_argument("no GPU kernel named '" + std::string(kernel) + "'");
}

int launch_shared_bytes(const KernelSymbol& symbol) {
  return symbol.dynamic_shared_bytes ? symbol.dynamic_shared_bytes() : 0;
}

Error cuda_error(const char* call, std::string_view kernel, cudaError_t error) {
  return Error{ErrorKind::kCudaError, std::string(call) + "(" + std::string(kernel) +
                                          "): " + cudaGetErrorString(error) + " (" +
                                          cudaGetErrorName(error) + ")"};
}

}  // namespace

std::vector<std::string> gpu_kernel_names() {
  std::vector<std::string> names;
  for (const KernelSetEntry& set : gpu_kernels().sets()) {
    for (const KernelSymbol& symbol : set.symbols()) names.emplace_back(symbol.name);
  }
  return names;
}

std::string gpu_kernel_listing_name(std::string_view kernel) {
  auto symbol = find_symbol(kernel);
  return std::string(symbol ? listing_name(**symbol) : kernel);
}

Result<KernelResources> gpu_kernel_resources(std::string_view kernel) {
  auto symbol = find_symbol(kernel);
  if (!symbol) return symbol.error();
  cudaFuncAttributes attributes{};
  const cudaError_t error = cudaFuncGetAttributes(&attributes, (*symbol)->function);
  if (error != cudaSuccess) return cuda_error("cudaFuncGetAttributes", kernel, error);
  KernelResources resources;
  resources.registers_per_thread = static_cast<std::uint32_t>(attributes.numRegs);
  resources.static_shared_bytes = attributes.sharedSizeBytes;
  resources.dynamic_shared_bytes = launch_shared_bytes(**symbol);
  resources.max_threads_per_block = static_cast<std::uint32_t>(attributes.maxThreadsPerBlock);
  return resources;
}

Result<std::uint32_t> gpu_active_blocks_per_sm(std::string_view kernel, std::uint32_t block_threads,
                                               std::uint64_t dynamic_shared_bytes) {
  auto symbol = find_symbol(kernel);
  if (!symbol) return symbol.error();
  // The kernel's own launch-time shared memory comes on top.
  const std::uint64_t shared = launch_shared_bytes(**symbol) + dynamic_shared_bytes;
  int blocks = 0;
  const cudaError_t error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, (*symbol)->function, static_cast<int>(block_threads), shared);
  if (error != cudaSuccess) {
    return cuda_error("cudaOccupancyMaxActiveBlocksPerMultiprocessor", kernel, error);
  }
  return static_cast<std::uint32_t>(blocks);
}

}  // namespace tl::kernels
