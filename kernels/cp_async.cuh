#pragma once
// cp.async, the copy from global to shared memory that does not pass through registers (compute
// capability 8.0 on): the thread issues it and goes on at once, commits its copies in groups, and
// later waits until at most N groups are still in flight. The pipelined GEMMs of lessons 4 and 5
// (matmul_pipelined.cuh, dense_gemm_pipelined.cuh) overlap the next tiles' copies with the
// multiply-adds of this one with it.
//
// What differs between nvcc and the host compiler, all in one place. On the GPU from 8.0 a shared
// address is a 32-bit byte offset (what cp.async takes) and a copy is one instruction; on Turing
// (7.5, which the build also targets) and on the emulator it is a plain pointer and the copy goes
// through a register at once, just as correctly, and committing and waiting do nothing.
//
// With a source size of 0 a copy reads nothing and writes zeros: a value outside the matrix becomes
// a zero, which adds nothing to any sum, without a branch.

#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define TL_CP_ASYNC 1
#endif

#if defined(TL_CP_ASYNC)
// A shared-memory address as cp.async takes it; adding floats moves it along.
struct CpAsyncSharedAddress {
  unsigned bytes;
  __device__ __forceinline__ CpAsyncSharedAddress operator+(int floats) const {
    return {bytes + 4u * static_cast<unsigned>(floats)};
  }
};
__device__ __forceinline__ CpAsyncSharedAddress cp_async_shared_address(float* p) {
  return {static_cast<unsigned>(__cvta_generic_to_shared(p))};
}
// One float, through L1 (.ca); zero when `inside` is false.
__device__ __forceinline__ void cp_async_4(CpAsyncSharedAddress to, const float* from,
                                           bool inside) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(to.bytes), "l"(from),
               "r"(inside ? 4 : 0)
               : "memory");
}
// One float at constant offsets (in floats) from both addresses, always inside: the offsets are
// immediates of the instruction, so an unrolled loop keeps one address register for many copies.
template <int kToOffset, int kFromOffset>
__device__ __forceinline__ void cp_async_4_at(CpAsyncSharedAddress to, const float* from) {
  asm volatile("cp.async.ca.shared.global [%0+%2], [%1+%3], 4;\n" ::"r"(to.bytes), "l"(from),
               "n"(kToOffset * 4), "n"(kFromOffset * 4)
               : "memory");
}
// Four floats (16 bytes, both addresses 16-byte aligned), past L1 (.cg); zeros when not `inside`.
__device__ __forceinline__ void cp_async_16(CpAsyncSharedAddress to, const float* from,
                                            bool inside) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to.bytes), "l"(from),
               "r"(inside ? 16 : 0)
               : "memory");
}
// Closes this thread's group of copies issued since the last commit.
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
// Waits until at most `kPending` committed groups of this thread's copies are still travelling.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}
#else
using CpAsyncSharedAddress = float*;
__host__ __device__ inline CpAsyncSharedAddress cp_async_shared_address(float* p) {
  return p;
}
__host__ __device__ inline void cp_async_4(CpAsyncSharedAddress to, const float* from,
                                           bool inside) {
  *to = inside ? *from : 0.0f;
}
template <int kToOffset, int kFromOffset>
__host__ __device__ inline void cp_async_4_at(CpAsyncSharedAddress to, const float* from) {
  to[kToOffset] = from[kFromOffset];
}
__host__ __device__ inline void cp_async_16(CpAsyncSharedAddress to, const float* from,
                                            bool inside) {
  for (int i = 0; i < 4; ++i) to[i] = inside ? from[i] : 0.0f;
}
__host__ __device__ inline void cp_async_commit() {}
template <int kPending>
__host__ __device__ inline void cp_async_wait() {}
#endif
