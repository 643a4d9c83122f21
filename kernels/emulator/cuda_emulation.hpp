#pragma once
// Lets CUDA kernels compile with the host compiler, so the very same source runs on the CPU
// emulator: the lessons' kernels in kernels/*.cuh and the Lab's learner kernels alike. It supplies
// what nvcc would: the built-in index variables, dim3 and the vector types, the function
// qualifiers, __shared__, __syncthreads(), warp shuffles and votes, the atomics, the cache-hinted
// loads and the device math functions kernels use.
//
// What it lacks stays a compile error (an unknown name), never a silently wrong kernel; a few
// things are refused by name with a static_assert or an error value (see warp_operation).
//
// Only emulator translation units include this, never one compiled by nvcc.

#if defined(__CUDACC__)
#error "cuda_emulation.hpp is for the host compiler; nvcc provides the real CUDA built-ins"
#endif

#include <assert.h>  // assert() and printf() in device code need no header under nvcc: nor here
#include <math.h>    // expf, sqrtf, fminf, ... in the global namespace, as CUDA code calls them
#include <stdio.h>
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tl::emu {

struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3() = default;
  constexpr dim3(unsigned int vx, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};

// CUDA's vector types, with the alignment CUDA gives them: a float4 load or store is one 16-byte
// access on the GPU. Kernels reinterpret float arrays as float4 only at 16-byte-aligned addresses,
// which holds here too.
struct alignas(8) float2 {
  float x, y;
};
struct float3 {
  float x, y, z;
};
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(8) int2 {
  int x, y;
};
struct int3 {
  int x, y, z;
};
struct alignas(16) int4 {
  int x, y, z, w;
};
struct alignas(8) uint2 {
  unsigned int x, y;
};
struct alignas(16) uint4 {
  unsigned int x, y, z, w;
};
inline float2 make_float2(float x, float y) {
  return {x, y};
}
inline float3 make_float3(float x, float y, float z) {
  return {x, y, z};
}
inline float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}
inline int2 make_int2(int x, int y) {
  return {x, y};
}
inline int3 make_int3(int x, int y, int z) {
  return {x, y, z};
}
inline int4 make_int4(int x, int y, int z, int w) {
  return {x, y, z, w};
}
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) {
  return {x, y, z};
}

// How the emulator's thread-locals (the index variables below and __shared__ arrays) are
// addressed: with the initial-exec model, an offset from %fs, where they sit in the static TLS
// block, as in every executable. The -fPIC default is a call to __tls_get_addr, which the linker
// rewrites into that offset in an executable, but only after the compiler has saved every
// caller-saved register, all the XMM registers, around each access: a kernel's floats went to the
// stack and back at every read of threadIdx or of shared memory. A learner's kernel, a shared
// object the Lab loads with dlopen, is compiled with TL_EMU_LOADED_OBJECT (learner_compiler.cpp)
// and keeps the default, which is what such an object needs.
#if defined(TL_EMU_LOADED_OBJECT)
#define TL_EMU_TLS_MODEL
#else
#define TL_EMU_TLS_MODEL __attribute__((tls_model("initial-exec")))
#endif

// Set by the grid executor before it runs each emulated thread. They are per OS thread: all the
// threads of one block run on the same worker, one after another or as fibers.
inline thread_local uint3 threadIdx TL_EMU_TLS_MODEL;
inline thread_local uint3 blockIdx TL_EMU_TLS_MODEL;
inline thread_local dim3 blockDim TL_EMU_TLS_MODEL;
inline thread_local dim3 gridDim TL_EMU_TLS_MODEL;
inline constexpr int warpSize = 32;

// Runs `body` once for every thread of the block the calling worker is in, one after another, with
// threadIdx set: x fastest, then y, then z (the linear order of a block's threads, which is also
// the order of its warps' lanes). The grid executor's barrier-free path, per thread and per block,
// is this loop (grid_executor.hpp).
template <class Body>
[[gnu::always_inline]] inline void for_each_thread_of_block(Body&& body) {
  const dim3 block = blockDim;
  // Each index is written where it changes: a kernel cannot assign threadIdx (it is read-only in
  // CUDA), so the inner loop stores x alone, through an address taken once.
  unsigned& x_index = threadIdx.x;
  if (block.y == 1 && block.z == 1) {
    // One-dimensional blocks, most kernels': one loop, which leaves the compiler registers for
    // the kernel's values.
    threadIdx.y = 0;
    threadIdx.z = 0;
    for (unsigned x = 0; x < block.x; ++x) {
      x_index = x;
      body();
    }
    return;
  }
  for (unsigned z = 0; z < block.z; ++z) {
    for (unsigned y = 0; y < block.y; ++y) {
      threadIdx.y = y;
      threadIdx.z = z;
      for (unsigned x = 0; x < block.x; ++x) {
        x_index = x;
        body();
      }
    }
  }
}

// Suspends the calling emulated thread until every thread of its block has arrived
// (grid_executor.cpp).
void syncthreads();

// ---------------------------------------------------------------------------------------------
// Warp-level operations. The lanes of a warp are the block's threads 32·w … 32·w + 31 in linear
// order (x fastest), as on a GPU. Every lane a mask names must reach the same operation with the
// same mask before any of them goes on: the executor suspends each lane (a fiber) until its group
// is complete, then computes every lane's result at once. Lanes that diverged meet at the next
// operation of the same kind and mask, wherever it is in the code (independent thread scheduling,
// since Volta). When nothing in the block can move any more, a group whose mask names a lane that
// has exited, waits at __syncthreads() or at another warp operation is an error naming the warp,
// the mask and those lanes; so is, at once, a shuffle from a lane that is not taking part, a
// calling lane missing from its own mask, or a width that is not a power of two up to 32. Launches
// that use these need fibers (Barriers::kUsed), as for __syncthreads().
enum class WarpOp : std::uint8_t {
  kShuffleIndex,  // __shfl_sync: lane_arg is the source lane
  kShuffleUp,     // __shfl_up_sync: lane_arg is delta
  kShuffleDown,   // __shfl_down_sync: lane_arg is delta
  kShuffleXor,    // __shfl_xor_sync: lane_arg is the lane mask
  kAll,           // __all_sync: value is the predicate
  kAny,           // __any_sync
  kBallot,        // __ballot_sync
  kActiveMask,    // __activemask: the lanes waiting there once no other group can complete
  kSyncWarp,      // __syncwarp
};
// Waits for the group, then returns this lane's result (the raw bits of a shuffled value, a vote,
// a ballot or the active mask).
std::uint64_t warp_operation(WarpOp op, unsigned mask, std::uint64_t value, int lane_arg,
                             int width);

namespace detail {
template <class T>
T shuffle(WarpOp op, unsigned mask, T var, int lane_arg, int width) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "the emulator shuffles values of up to 8 bytes (int, unsigned, long long, float, "
                "double, ...), as CUDA's __shfl_*_sync overloads do; shuffle a struct member by "
                "member");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &var, sizeof(T));
  bits = warp_operation(op, mask, bits, lane_arg, width);
  T result;
  std::memcpy(&result, &bits, sizeof(T));
  return result;
}
}  // namespace detail

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  return detail::shuffle(WarpOp::kShuffleIndex, mask, var, src_lane, width);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize) {
  return detail::shuffle(WarpOp::kShuffleUp, mask, var, static_cast<int>(delta), width);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize) {
  return detail::shuffle(WarpOp::kShuffleDown, mask, var, static_cast<int>(delta), width);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  return detail::shuffle(WarpOp::kShuffleXor, mask, var, lane_mask, width);
}
inline int __all_sync(unsigned mask, int predicate) {
  return static_cast<int>(warp_operation(WarpOp::kAll, mask, predicate != 0, 0, warpSize));
}
inline int __any_sync(unsigned mask, int predicate) {
  return static_cast<int>(warp_operation(WarpOp::kAny, mask, predicate != 0, 0, warpSize));
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return static_cast<unsigned>(warp_operation(WarpOp::kBallot, mask, predicate != 0, 0, warpSize));
}
// The lanes that reach this call together: released only when no other warp group of the block can
// complete, with the lanes then waiting here as the mask (those converged at the call). It
// synchronizes nothing: on a GPU, too, the lanes it names need not still be together afterwards.
inline unsigned __activemask() {
  return static_cast<unsigned>(warp_operation(WarpOp::kActiveMask, 0, 0, 0, warpSize));
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  warp_operation(WarpOp::kSyncWarp, mask, 0, 0, warpSize);
}

// ---------------------------------------------------------------------------------------------
// Dynamic shared memory: the bytes the launch asked for (GridOptions::dynamic_shared_bytes), one
// buffer per worker, aligned to 128 bytes, with an inaccessible page right after its end so that an
// overrun faults instead of corrupting. Null when the launch asked for none. The host compiler has
// no `extern __shared__ T name[];`: the Lab rewrites it to `auto& name =
// ::tl::emu::dynamic_shared_array<T>();` (dynamic_shared_rewrite.hpp) on the same line.
unsigned char* dynamic_shared_memory();
// Its size in bytes (0 when the launch asked for none).
std::size_t dynamic_shared_memory_bytes();
template <class T>
T (&dynamic_shared_array())
[] {
  return *reinterpret_cast<T(*)[]>(dynamic_shared_memory());
}

// ---------------------------------------------------------------------------------------------
// Atomics: blocks run in parallel on several worker threads, so these are real atomic operations
// on global memory (relaxed, as CUDA's are). On shared memory they are atomic too, trivially: a
// block's threads take turns on one worker. They use the compiler's __atomic builtins inside
// functions the race check leaves alone (TL_EMU_NOT_RACE_CHECKED): an atomic access is never a
// race.
// The Lab's memory recording build is instrumented the same way and leaves atomics alone too.
#if defined(THREADLAB_RACE_CHECK) || defined(THREADLAB_MEMORY_RECORD)
#define TL_EMU_NOT_RACE_CHECKED __attribute__((no_sanitize("thread"), noinline))
#else
#define TL_EMU_NOT_RACE_CHECKED
#endif
namespace detail {
template <class T, class Update>
TL_EMU_NOT_RACE_CHECKED inline T atomic_update(T* address, Update update) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired = update(old);
  while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
    desired = update(old);
  }
  return old;
}
}  // namespace detail

#define TL_EMU_ATOMIC_INTEGER(T)                                                                 \
  TL_EMU_NOT_RACE_CHECKED inline T atomicAdd(T* address, T value) {                              \
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);                                 \
  }                                                                                              \
  TL_EMU_NOT_RACE_CHECKED inline T atomicSub(T* address, T value) {                              \
    return __atomic_fetch_sub(address, value, __ATOMIC_RELAXED);                                 \
  }                                                                                              \
  TL_EMU_NOT_RACE_CHECKED inline T atomicAnd(T* address, T value) {                              \
    return __atomic_fetch_and(address, value, __ATOMIC_RELAXED);                                 \
  }                                                                                              \
  TL_EMU_NOT_RACE_CHECKED inline T atomicOr(T* address, T value) {                               \
    return __atomic_fetch_or(address, value, __ATOMIC_RELAXED);                                  \
  }                                                                                              \
  TL_EMU_NOT_RACE_CHECKED inline T atomicXor(T* address, T value) {                              \
    return __atomic_fetch_xor(address, value, __ATOMIC_RELAXED);                                 \
  }                                                                                              \
  TL_EMU_NOT_RACE_CHECKED inline T atomicExch(T* address, T value) {                             \
    return __atomic_exchange_n(address, value, __ATOMIC_RELAXED);                                \
  }                                                                                              \
  TL_EMU_NOT_RACE_CHECKED inline T atomicCAS(T* address, T compare, T value) {                   \
    __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_RELAXED,               \
                                __ATOMIC_RELAXED);                                               \
    return compare; /* the old value either way */                                               \
  }                                                                                              \
  inline T atomicMax(T* address, T value) {                                                      \
    return detail::atomic_update(address, [value](T old) { return old < value ? value : old; }); \
  }                                                                                              \
  inline T atomicMin(T* address, T value) {                                                      \
    return detail::atomic_update(address, [value](T old) { return value < old ? value : old; }); \
  }
TL_EMU_ATOMIC_INTEGER(int)
TL_EMU_ATOMIC_INTEGER(unsigned int)
TL_EMU_ATOMIC_INTEGER(unsigned long long)
#undef TL_EMU_ATOMIC_INTEGER

#define TL_EMU_ATOMIC_FLOATING(T)                                                  \
  inline T atomicAdd(T* address, T value) {                                        \
    return detail::atomic_update(address, [value](T old) { return old + value; }); \
  }                                                                                \
  TL_EMU_NOT_RACE_CHECKED inline T atomicExch(T* address, T value) {               \
    T old;                                                                         \
    __atomic_exchange(address, &value, &old, __ATOMIC_RELAXED);                    \
    return old;                                                                    \
  }
TL_EMU_ATOMIC_FLOATING(float)
TL_EMU_ATOMIC_FLOATING(double)
#undef TL_EMU_ATOMIC_FLOATING

inline long long atomicMax(long long* address, long long value) {
  return detail::atomic_update(address,
                               [value](long long old) { return old < value ? value : old; });
}
inline long long atomicMin(long long* address, long long value) {
  return detail::atomic_update(address,
                               [value](long long old) { return value < old ? value : old; });
}
// ((old >= limit) ? 0 : old + 1) and (((old == 0) || (old > limit)) ? limit : old - 1), as in CUDA.
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  return detail::atomic_update(address,
                               [limit](unsigned old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  return detail::atomic_update(
      address, [limit](unsigned old) { return old == 0 || old > limit ? limit : old - 1; });
}

inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// ---------------------------------------------------------------------------------------------
// Loads with a cache hint (__ldg: read-only cache; __ldcg: L2 only). The hints are about the GPU's
// caches; the value is the same.
template <class T>
T __ldg(const T* address) {
  return *address;
}
template <class T>
T __ldcg(const T* address) {
  return *address;
}
// Streaming (evict-first) load and store: the data is used once.
template <class T>
T __ldcs(const T* address) {
  return *address;
}
template <class T>
void __stcs(T* address, T value) {
  *address = value;
}

// ---------------------------------------------------------------------------------------------
// Device math beyond <math.h>: the fast intrinsics compute the accurate function here (the GPU's
// approximations differ in the last bits; checks compare with a tolerance). __expf, __logf,
// __sinf, __cosf, __tanf and __powf are macros at the end: glibc's <math.h> declares functions of
// those names that it does not export.
inline float rsqrtf(float x) {
  return 1.0f / sqrtf(x);
}
inline double rsqrt(double x) {
  return 1.0 / sqrt(x);
}
inline float __fdividef(float x, float y) {
  return x / y;
}
inline float __frcp_rn(float x) {
  return 1.0f / x;
}
inline float __fsqrt_rn(float x) {
  return sqrtf(x);
}
inline float __fmaf_rn(float x, float y, float z) {
  return fmaf(x, y, z);
}
inline float __fmul_rn(float x, float y) {
  return x * y;
}
inline float __fadd_rn(float x, float y) {
  return x + y;
}
inline float __saturatef(float x) {
  return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}
inline int __float2int_rn(float x) {
  return static_cast<int>(nearbyintf(x));
}
inline int __float2int_rz(float x) {
  return static_cast<int>(x);
}
inline float __int2float_rn(int x) {
  return static_cast<float>(x);
}
inline int __popc(unsigned x) {
  return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
inline int __clz(unsigned x) {
  return x == 0 ? 32 : __builtin_clz(x);
}
inline int __clzll(unsigned long long x) {
  return x == 0 ? 64 : __builtin_clzll(x);
}
inline int __ffs(unsigned x) {
  return __builtin_ffs(static_cast<int>(x));
}
inline int __ffsll(unsigned long long x) {
  return __builtin_ffsll(static_cast<long long>(x));
}
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned __umulhi(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline int __mulhi(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) * y) >> 32);
}

// CUDA's min and max overloads (integer, mixed signedness as unsigned, float, double).
#define TL_EMU_MIN_MAX(T)  \
  inline T min(T a, T b) { \
    return b < a ? b : a;  \
  }                        \
  inline T max(T a, T b) { \
    return a < b ? b : a;  \
  }
TL_EMU_MIN_MAX(int)
TL_EMU_MIN_MAX(unsigned int)
TL_EMU_MIN_MAX(long)
TL_EMU_MIN_MAX(unsigned long)
TL_EMU_MIN_MAX(long long)
TL_EMU_MIN_MAX(unsigned long long)
TL_EMU_MIN_MAX(float)
TL_EMU_MIN_MAX(double)
#undef TL_EMU_MIN_MAX
inline unsigned int min(int a, unsigned int b) {
  return min(static_cast<unsigned int>(a), b);
}
inline unsigned int min(unsigned int a, int b) {
  return min(a, static_cast<unsigned int>(b));
}
inline unsigned int max(int a, unsigned int b) {
  return max(static_cast<unsigned int>(a), b);
}
inline unsigned int max(unsigned int a, int b) {
  return max(a, static_cast<unsigned int>(b));
}
inline float min(float a, int b) {
  return fminf(a, static_cast<float>(b));
}
inline float min(int a, float b) {
  return fminf(static_cast<float>(a), b);
}
inline float max(float a, int b) {
  return fmaxf(a, static_cast<float>(b));
}
inline float max(int a, float b) {
  return fmaxf(static_cast<float>(a), b);
}

}  // namespace tl::emu

// Kernels name these unqualified, as in CUDA.
using tl::emu::__activemask;
using tl::emu::__all_sync;
using tl::emu::__any_sync;
using tl::emu::__ballot_sync;
using tl::emu::__brev;
using tl::emu::__clz;
using tl::emu::__clzll;
using tl::emu::__fadd_rn;
using tl::emu::__fdividef;
using tl::emu::__ffs;
using tl::emu::__ffsll;
using tl::emu::__float2int_rn;
using tl::emu::__float2int_rz;
using tl::emu::__fmaf_rn;
using tl::emu::__fmul_rn;
using tl::emu::__frcp_rn;
using tl::emu::__fsqrt_rn;
using tl::emu::__int2float_rn;
using tl::emu::__ldcg;
using tl::emu::__ldcs;
using tl::emu::__ldg;
using tl::emu::__mulhi;
using tl::emu::__popc;
using tl::emu::__popcll;
using tl::emu::__saturatef;
using tl::emu::__shfl_down_sync;
using tl::emu::__shfl_sync;
using tl::emu::__shfl_up_sync;
using tl::emu::__shfl_xor_sync;
using tl::emu::__stcs;
using tl::emu::__syncwarp;
using tl::emu::__threadfence;
using tl::emu::__threadfence_block;
using tl::emu::__umulhi;
using tl::emu::atomicAdd;
using tl::emu::atomicAnd;
using tl::emu::atomicCAS;
using tl::emu::atomicDec;
using tl::emu::atomicExch;
using tl::emu::atomicInc;
using tl::emu::atomicMax;
using tl::emu::atomicMin;
using tl::emu::atomicOr;
using tl::emu::atomicSub;
using tl::emu::atomicXor;
using tl::emu::blockDim;
using tl::emu::blockIdx;
using tl::emu::dim3;
using tl::emu::float2;
using tl::emu::float3;
using tl::emu::float4;
using tl::emu::gridDim;
using tl::emu::int2;
using tl::emu::int3;
using tl::emu::int4;
using tl::emu::make_float2;
using tl::emu::make_float3;
using tl::emu::make_float4;
using tl::emu::make_int2;
using tl::emu::make_int3;
using tl::emu::make_int4;
using tl::emu::make_uint3;
using tl::emu::max;
using tl::emu::min;
using tl::emu::rsqrt;
using tl::emu::rsqrtf;
using tl::emu::threadIdx;
using tl::emu::uint2;
using tl::emu::uint3;
using tl::emu::uint4;
using tl::emu::warpSize;

#define __expf(x) expf(x)
#define __logf(x) logf(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __powf(x, y) powf(x, y)

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
// Constant memory is read-only global memory to the kernel; the emulator has only one kind.
#define __constant__
// Occupancy hints for nvcc's register allocation: nothing to do on the CPU.
#define __launch_bounds__(...)
#define __maxnreg__(...)
#define __align__(bytes) __attribute__((aligned(bytes)))
// __restrict__ is a keyword of GCC and Clang already.
// One instance per worker OS thread: a block's threads all run on one worker, so they share it, and
// blocks on other workers get their own. The executor zero-fills nothing: like real shared memory,
// its contents are undefined at block start.
#define __shared__ static thread_local TL_EMU_TLS_MODEL
// A GPU ends the kernel with an error at __trap() ("an illegal instruction was encountered"), and
// the context with it; here the worker ends, saying why, and the Lab reports its death.
namespace tl::emu {
[[noreturn]] inline void trap() {
  fputs("__trap() called: the kernel stopped itself\n", stderr);
  fflush(stdout);
  fflush(stderr);
  abort();
}
}  // namespace tl::emu
#define __trap() ::tl::emu::trap()
#define __syncthreads() ::tl::emu::syncthreads()
