#pragma once
// Lets the CUDA kernels in kernels/*.cuh compile with the host compiler, so the very same source
// runs on the CPU emulator. It supplies what nvcc would: the built-in index variables, dim3,
// float4, the function qualifiers, __shared__, __syncthreads(), the atomics and the cache-hinted
// load the kernels use.
//
// Only emulator translation units include this, never one compiled by nvcc.

#if defined(__CUDACC__)
#error "cuda_emulation.hpp is for the host compiler; nvcc provides the real CUDA built-ins"
#endif

#include <cstdint>

namespace tl::emu {

struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3() = default;
  constexpr dim3(unsigned int vx, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};

// CUDA's vector type: four floats, aligned to 16 bytes, so that a float4 load or store is one
// 16-byte access on the GPU. Kernels reinterpret float arrays as float4 only at 16-byte-aligned
// addresses, which holds here too.
struct alignas(16) float4 {
  float x, y, z, w;
};
inline float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}

// Set by the grid executor before it runs each emulated thread. They are per OS thread: all the
// threads of one block run on the same worker, one after another or as fibers.
inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
inline constexpr int warpSize = 32;

// Suspends the calling emulated thread until every thread of its block has arrived
// (grid_executor.cpp).
void syncthreads();

inline unsigned int atomicAdd(unsigned int* address, unsigned int value) {
  return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}
inline int atomicAdd(int* address, int value) {
  return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}
inline unsigned long long atomicAdd(unsigned long long* address, unsigned long long value) {
  return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}

// Loads with a cache hint (__ldcg: cache in L2 only). The hint is about the GPU's caches; the value
// is the same.
inline float4 __ldcg(const float4* address) {
  return *address;
}

}  // namespace tl::emu

// Kernels name these unqualified, as in CUDA.
using tl::emu::__ldcg;
using tl::emu::atomicAdd;
using tl::emu::blockDim;
using tl::emu::blockIdx;
using tl::emu::dim3;
using tl::emu::float4;
using tl::emu::gridDim;
using tl::emu::make_float4;
using tl::emu::threadIdx;
using tl::emu::uint3;
using tl::emu::warpSize;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
// Occupancy hints for nvcc's register allocation: nothing to do on the CPU.
#define __launch_bounds__(...)
#define __align__(bytes) __attribute__((aligned(bytes)))
// One instance per worker OS thread: a block's threads all run on one worker, so they share it, and
// blocks on other workers get their own. The executor zero-fills nothing: like real shared memory,
// its contents are undefined at block start.
#define __shared__ static thread_local
#define __syncthreads() ::tl::emu::syncthreads()
