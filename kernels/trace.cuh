#pragma once
// Device-side half of the tracing contract (app/core/trace_record.hpp): traced kernels call
// trace_element() for every element they compute. Compiled by nvcc for the GPU and by the host
// compiler for the emulator, where sm_id() has no meaning and reports "unknown".
//
// A lesson's kernel is written once, as a template over a trace policy, and says what it did:
// `trace.wrote(i)` after computing element i. ThreadLab compiles it twice: with `Untraced`, whose
// calls are empty and vanish from the compiled kernel (that one is timed), and with `Traced`, which
// records who wrote each element (that one is drawn). Both run the same source line for line, so
// the picture cannot show a mapping of threads to elements that the timed kernel does not have.

#include "core/trace_record.hpp"

namespace tl {

// The streaming multiprocessor running the calling thread, read from the %smid special register.
__device__ __forceinline__ unsigned int sm_id() {
#if defined(__CUDA_ARCH__)
  unsigned int id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
#else
  return 0xFFFFFFFFu;  // +1 below makes it 0: "unknown"
#endif
}

// Nanoseconds on the GPU's global timer (%globaltimer): one clock shared by every SM, so block
// start and end times compare across SMs. The emulator has no such clock and reports 0.
__device__ __forceinline__ unsigned long long global_timer_ns() {
#if defined(__CUDA_ARCH__)
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
#else
  return 0;
#endif
}

__device__ __forceinline__ void trace_element(TraceRecord* trace, unsigned long long element,
                                              unsigned int iteration) {
  const unsigned int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  TraceRecord& record = trace[element];
  // Two threads writing one element is a bug the view must show, so the count is atomic; the last
  // writer's identity wins.
  record.block = block;
  record.thread_and_sm = (thread & kTraceThreadMask) | ((sm_id() + 1u) << kTraceSmShift);
  record.iteration = iteration;
  atomicAdd(&record.writes, 1u);
}

// The timed kernels' policy: every call compiles to nothing. The block hooks exist for kernels
// that also time their blocks (thread_hierarchy.cuh); here they do nothing either.
struct Untraced {
  __device__ __forceinline__ void wrote(unsigned long long, unsigned int = 0) const {}
  __device__ __forceinline__ void block_begins() {}
  __device__ __forceinline__ void block_ends() {}
};

// The drawn kernels' policy: one TraceRecord per element, at the element's index. `pass` is the
// trip round a grid-stride loop that wrote it (0 without one).
struct Traced {
  TraceRecord* records;
  __device__ __forceinline__ void wrote(unsigned long long element, unsigned int pass = 0) const {
    trace_element(records, element, pass);
  }
};

}  // namespace tl
