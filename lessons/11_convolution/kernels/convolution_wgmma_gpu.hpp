#pragma once
// The tensor rung's wgmma form (lessons/11_convolution/kernels/convolution_wgmma.cuh), compiled in
// lessons/11_convolution/kernels/convolution_wgmma_gpu.cu for sm_90a alone, where the build targets
// compute capability 9.0 (THREADLAB_HAVE_SM90A); lessons/11_convolution/kernels/convolution_gpu.cu
// calls it after its own checks for the shapes kernels::conv_wgmma_applies accepts.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "kernels/kernel_description.hpp"
#include "lessons/11_convolution/kernels/convolution_shapes.hpp"

namespace tl::kernels {

// `in` and `wg` are __half (NHWC input, the (R·S·C) × K weights); trace null for the timed kernel.
Status conv_wgmma_gpu(const LaunchConfig& config, const ConvDims& d, const void* in, const void* wg,
                      float* out, TraceRecord* trace);
// For the occupancy view and the listings.
KernelSymbol conv_wgmma_gpu_symbol();

}  // namespace tl::kernels
