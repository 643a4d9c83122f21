#pragma once
// The plain C++ face of the kernels: one table of launch functions per executor, one entry per
// lesson. The GPU table launches the nvcc-compiled kernels on device pointers; the emulator table
// runs the very same kernel source on the CPU on host pointers. Callers pick a table through their
// Device and never see CUDA types.
//
// GPU launches are asynchronous: a launch function reports configuration errors at once
// (cudaGetLastError), while faults inside the kernel surface at the next synchronisation.

#include "kernels/dense_layer_kernels.hpp"
#include "kernels/matmul_kernels.hpp"
#include "kernels/matrix_add_kernels.hpp"
#include "kernels/moving_data_kernels.hpp"
#include "kernels/precision_kernels.hpp"
#include "kernels/mlp_kernels.hpp"
#include "kernels/reduction_kernels.hpp"
#include "kernels/thread_hierarchy_kernels.hpp"
#include "kernels/vector_add_kernels.hpp"

namespace tl::kernels {

struct KernelTable {
  VectorAddKernels vector_add;
  MatmulKernels matmul;
  ThreadHierarchyKernels thread_hierarchy;
  MatrixAddKernels matrix_add;
  DenseLayerKernels dense_layer;
  ReductionKernels reductions;
  MovingDataKernels moving_data;
  PrecisionKernels precision;
  MlpKernels mlp;  // the capstone: training a network
};

const KernelTable& emulator_kernels();

// Defined only when ThreadLab is built with CUDA (THREADLAB_HAVE_CUDA).
const KernelTable& gpu_kernels();

}  // namespace tl::kernels
