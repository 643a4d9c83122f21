#pragma once
// The reductions' trace policies (kernels/trace.cuh explains the pattern). A reduction reads every
// element once and writes one number, so what a traced launch records per element is the thread
// that read it (the mapping view draws who consumed what); and, for the first block only, every
// add of its tree: at `level`, thread t added partial sum `src` into partial sum `dst`. The
// reductions lesson draws that tree level by level and derives the shared-memory banks from it.

#include "kernels/trace.cuh"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"

namespace tl {

using kernels::kReductionTreeLevels;

// The timed kernels' policy: every call compiles to nothing.
struct ReductionUntraced {
  __device__ __forceinline__ void wrote(unsigned long long, unsigned int = 0) const {}
  __device__ __forceinline__ void added(int, int, int) const {}
};

// The drawn kernels' policy. `tree` holds kReductionTreeLevels × blockDim.x pairs (dst, src), -1
// where a thread added nothing at that level; only block 0 records, so a launch of many blocks
// still draws one small tree.
struct ReductionTraced {
  TraceRecord* records;
  int* tree;
  __device__ __forceinline__ void wrote(unsigned long long element, unsigned int pass = 0) const {
    trace_element(records, element, pass);
  }
  __device__ __forceinline__ void added(int level, int dst, int src) const {
    if (blockIdx.x != 0 || level >= kReductionTreeLevels) return;
    int* pair = tree + 2 * (level * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x));
    pair[0] = dst;
    pair[1] = src;
  }
};

}  // namespace tl
