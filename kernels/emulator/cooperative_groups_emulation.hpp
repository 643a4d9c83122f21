#pragma once
// The part of CUDA's cooperative groups (<cooperative_groups.h>, <cooperative_groups/reduce.h>,
// <cooperative_groups/scan.h>) that ThreadLab's kernels use, for the CPU emulator: the thread
// block, its static partition into tiles of a power of two up to 32 threads
// (tiled_partition<N>), a tile's shuffles, votes and sync, and cg::reduce and cg::inclusive_scan
// over a tile with cg::plus. Everything is built on the emulator's warp operations
// (cuda_emulation.hpp), so a tile's lanes meet as fibers and a wrong use is the same named error.
// CUDA's own header cannot be used here: it is device code (inline PTX, __activemask-based
// coalesced groups) that only nvcc compiles. What is missing (grid groups, clusters, coalesced
// and dynamically sized tiles, memcpy_async) stays a compile error.
//
// Included after cuda_emulation.hpp by the emulator files of the kernel sets that use it
// (lessons/06_reductions/kernels/reductions_emulated.cpp) and by the emulator's tests; like CUDA's
// header it defines the global namespace cooperative_groups, which kernels alias as `cg`.

#include <type_traits>

#include "cuda_emulation.hpp"

namespace cooperative_groups {

class thread_block {
 public:
  static void sync() { __syncthreads(); }
  static unsigned int thread_rank() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  }
  static unsigned int num_threads() { return blockDim.x * blockDim.y * blockDim.z; }
  static unsigned int size() { return num_threads(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
};

inline thread_block this_thread_block() {
  return {};
}

// Tiles of Size consecutive threads of the block (by thread_rank), each inside one warp. The
// emulator's warp operations take the tile's lanes as their mask and the tile's size as their
// width, which is what CUDA's tile operations pass to the same intrinsics.
template <unsigned int Size>
class thread_block_tile {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                "the emulator's tiles are a power of two up to 32 threads, as CUDA's "
                "tiled_partition<N> of a thread block with N <= 32 is");

 public:
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  static unsigned int thread_rank() { return thread_block::thread_rank() & (Size - 1); }
  static unsigned int meta_group_rank() { return thread_block::thread_rank() / Size; }
  static unsigned int meta_group_size() { return (thread_block::num_threads() + Size - 1) / Size; }
  // The lanes of this tile within its warp.
  static unsigned int mask() {
    const unsigned int lanes = Size == 32 ? 0xffffffffu : (1u << Size) - 1;
    const unsigned int first_lane = thread_block::thread_rank() % 32 & ~(Size - 1);
    return lanes << first_lane;
  }
  static void sync() { __syncwarp(mask()); }

  template <class T>
  T shfl(T var, unsigned int src_rank) const {
    return __shfl_sync(mask(), var, static_cast<int>(src_rank), Size);
  }
  template <class T>
  T shfl_down(T var, unsigned int delta) const {
    return __shfl_down_sync(mask(), var, delta, Size);
  }
  template <class T>
  T shfl_up(T var, unsigned int delta) const {
    return __shfl_up_sync(mask(), var, delta, Size);
  }
  template <class T>
  T shfl_xor(T var, unsigned int lane_mask) const {
    return __shfl_xor_sync(mask(), var, static_cast<int>(lane_mask), Size);
  }
  int any(int predicate) const { return __any_sync(mask(), predicate); }
  int all(int predicate) const { return __all_sync(mask(), predicate); }
  // Bit r set for each thread of rank r whose predicate holds (the warp's ballot, shifted to the
  // tile's first lane).
  unsigned int ballot(int predicate) const {
    const unsigned int first_lane = thread_block::thread_rank() % 32 & ~(Size - 1);
    return __ballot_sync(mask(), predicate) >> first_lane;
  }
};

template <unsigned int Size>
thread_block_tile<Size> tiled_partition(const thread_block&) {
  return {};
}

template <class T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct greater {
  T operator()(const T& a, const T& b) const { return a > b ? a : b; }
};
template <class T>
struct less {
  T operator()(const T& a, const T& b) const { return a < b ? a : b; }
};

// Every thread of the tile gets op over the tile's values. CUDA leaves the order of the
// operations unspecified; this one is a butterfly (xor shuffles), so every rank holds the result
// without a broadcast, and a float sum may round differently from the GPU's in the last bits.
template <unsigned int Size, class T, class Op>
T reduce(const thread_block_tile<Size>& tile, T value, Op op) {
  for (unsigned int lane_mask = Size / 2; lane_mask > 0; lane_mask /= 2) {
    value = op(value, tile.shfl_xor(value, lane_mask));
  }
  return value;
}

// Rank r gets op over the values of ranks 0 .. r.
template <unsigned int Size, class T, class Op>
T inclusive_scan(const thread_block_tile<Size>& tile, T value, Op op) {
  for (unsigned int delta = 1; delta < Size; delta *= 2) {
    const T below = tile.shfl_up(value, delta);
    if (tile.thread_rank() >= delta) value = op(value, below);
  }
  return value;
}
template <unsigned int Size, class T>
T inclusive_scan(const thread_block_tile<Size>& tile, T value) {
  return inclusive_scan(tile, value, plus<T>());
}

}  // namespace cooperative_groups
