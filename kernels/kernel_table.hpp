#pragma once
// The plain C++ face of the kernels: one table of launch functions per executor. The GPU table
// launches the nvcc-compiled kernels on device pointers; the emulator table runs the very same
// kernel source on the CPU on host pointers. Callers pick a table and never see CUDA types.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct KernelTable {
  // Lesson 1. Launch only: the GPU launches are asynchronous and report configuration errors
  // (cudaGetLastError); faults inside the kernel surface at the next synchronisation.
  Status (*vector_add)(const LaunchConfig& config, const float* a, const float* b, float* c, int n);
  Status (*vector_add_traced)(const LaunchConfig& config, const float* a, const float* b, float* c,
                              int n, TraceRecord* trace);
};

const KernelTable& emulator_kernels();

// Defined only when ThreadLab is built with CUDA (THREADLAB_HAVE_CUDA).
const KernelTable& gpu_kernels();

}  // namespace tl::kernels
