#pragma once
// What the compiler gave each GPU kernel (registers, static shared memory, the largest block it
// can run) and how many of its blocks CUDA says fit on one SM: for the occupancy view. Kernels are
// named as in their source ("matmul_tiled<16>"); these functions exist only in a build with CUDA
// and need a working device.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/occupancy.hpp"
#include "core/result.hpp"

namespace tl::kernels {

// The untraced kernels the lessons time, by name.
std::vector<std::string> gpu_kernel_names();

// The name the Compiled tab's listing gives `kernel` (kernels::listing_name of its registered
// symbol: "matmul_wmma<WmmaFp16>" for "matmul_wmma_fp16"); `kernel` itself where no registered
// kernel has that name.
std::string gpu_kernel_listing_name(std::string_view kernel);

// cudaFuncGetAttributes for `kernel`; kInvalidArgument for an unknown name.
Result<KernelResources> gpu_kernel_resources(std::string_view kernel);

// cudaOccupancyMaxActiveBlocksPerMultiprocessor for `kernel` at this block size, with
// `dynamic_shared_bytes` on top of the dynamic shared memory the kernel always launches with.
Result<std::uint32_t> gpu_active_blocks_per_sm(std::string_view kernel, std::uint32_t block_threads,
                                               std::uint64_t dynamic_shared_bytes = 0);

}  // namespace tl::kernels
