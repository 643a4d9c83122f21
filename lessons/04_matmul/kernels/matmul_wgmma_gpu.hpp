#pragma once
// The wgmma rung's launch (lessons/04_matmul/kernels/matmul_wgmma_gpu.cu), compiled only where the
// build targets compute capability 9.0 (THREADLAB_HAVE_SM90A);
// lessons/04_matmul/kernels/matmul_tensor_gpu.cu calls it after its own checks (a tensor rung, the
// block tile, the device).

#include <vector>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "kernels/kernel_description.hpp"

namespace tl::kernels {

// a and b are __half; trace null for the timed kernel.
Status matmul_wgmma_gpu(const LaunchConfig& config, const void* a, const void* b, float* c, int m,
                        int n, int k, TraceRecord* trace);
// The TMA rung: a and b are __half, or __nv_bfloat16 with `bf16`.
Status matmul_wgmma_tma_gpu(const LaunchConfig& config, bool bf16, const void* a, const void* b,
                            float* c, int m, int n, int k, TraceRecord* trace);
// Rung 13, then the TMA rung for FP16 and for BF16 (for the occupancy view and the listings).
std::vector<KernelSymbol> matmul_wgmma_gpu_symbols();

}  // namespace tl::kernels
