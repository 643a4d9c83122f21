#pragma once
// Device-side half of the tracing contract (app/core/trace_record.hpp): traced kernels call
// trace_element() for every element they compute. Compiled by nvcc for the GPU and by the host
// compiler for the emulator, where sm_id() has no meaning and reports "unknown".

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

}  // namespace tl
