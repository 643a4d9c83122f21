#pragma once
// Runs a grid of emulated CUDA threads on the CPU with CUDA's semantics: every (block, thread) pair
// runs the kernel body once with blockIdx/threadIdx/blockDim/gridDim set. Blocks are spread over
// worker threads; within a block, threads run one after another, or, for kernels that call
// __syncthreads(), as fibers that all reach each barrier before any passes it.

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/launch_config.hpp"
#include "core/result.hpp"

namespace tl::emu {

enum class Barriers {
  kNone,  // the kernel never waits for other threads: the fast path
  kUsed,  // the kernel calls __syncthreads() or warp operations (shuffles, votes, __syncwarp,
          // __activemask): threads of a block run as fibers
};

// CUDA's dynamic shared memory per block without cudaFuncSetAttribute's opt-in.
inline constexpr std::size_t kMaxDynamicSharedBytes = 48 * 1024;

// Called on the worker after every step of every emulated thread, with the block's linear index
// (x + gridDim.x * (y + gridDim.y * z)) and the thread's linear index in its block: after the
// thread has run, or, for kernels with barriers, after each stretch of it up to a barrier or its
// end. Whatever memory changed since the previous call was written by that thread, which is how
// the mapping probe (kernels/mapping_probe.hpp) learns who wrote what without touching the kernel.
// A grid with a step callback runs on one worker, the calling thread.
using AfterThreadStep = std::function<void(std::uint64_t block, std::uint32_t thread)>;

struct GridOptions {
  Barriers barriers = Barriers::kNone;
  // What `extern __shared__` arrays get (dynamic_shared_memory() in cuda_emulation.hpp).
  std::size_t dynamic_shared_bytes = 0;
  unsigned workers = 0;        // 0: one per hardware thread
  AfterThreadStep after_step;  // none if empty
};

// Checks the configuration against CUDA's limits (the emulator refuses what a GPU would), then runs
// `thread_body` for every thread of the grid. Returns an error if a thread called __syncthreads()
// or a warp operation without Barriers::kUsed, if the threads of a block did not all reach the
// same barriers, or if a warp operation is undefined on a GPU (a lane its mask names has exited
// or waits elsewhere when nothing else can move, a shuffle reads a lane that takes no part; the
// message names the warp, the mask and the lanes): the first block with an error stops the grid.
Status run_grid(const LaunchConfig& config, const GridOptions& options,
                const std::function<void()>& thread_body);
// The same, with `block_body`: for a barrier-free grid without a step callback the executor calls
// it once per block instead of `thread_body` once per thread. It must run thread_body's code for
// every thread of the block in for_each_thread_of_block's order (cuda_emulation.hpp); written as
// that loop around the kernel, the compiler inlines the kernel into it, which leaves no indirect
// call per thread (a plain kernel like lesson 1's spent most of its time in those calls). Grids
// with barriers, and watched grids (the step callback comes between threads), use `thread_body` as
// above.
Status run_grid(const LaunchConfig& config, const GridOptions& options,
                const std::function<void()>& thread_body, const std::function<void()>& block_body);

// Worker threads the emulator uses for `options` (what the device table shows as its "SMs").
unsigned worker_count(const GridOptions& options = {});

}  // namespace tl::emu
