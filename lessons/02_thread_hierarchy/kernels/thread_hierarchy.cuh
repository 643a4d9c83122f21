// Lesson 2: the thread hierarchy. out[i] = 2 * in[i] + 1 over n elements, launched on a 1D, 2D or
// 3D grid of 1D, 2D or 3D blocks.
//
// The same source runs on the GPU (compiled by nvcc) and on ThreadLab's CPU emulator (compiled by
// the host compiler), and the lesson shows it to you exactly as it is here.

// Every thread of the grid gets one number, its global linear index, built from all six built-ins.
// The grid and each block count x fastest, then y, then z, like the digits of a number:
//   1. my block's number in the grid:
//        block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)
//   2. my number inside my block:
//        thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)
//   3. the blocks before mine hold block * (blockDim.x * blockDim.y * blockDim.z) threads, so
//        global index = block * threads_per_block + thread
// The arithmetic is 64-bit: a large 3D grid holds more threads than a 32-bit int can count.
__device__ __forceinline__ unsigned long long block_index_in_grid() {
  return blockIdx.x +
         gridDim.x * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
}

// My number inside my block: threadIdx.x in a 1D block.
__device__ __forceinline__ unsigned int thread_in_block() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ unsigned long long global_thread_index() {
  const unsigned long long threads_per_block =
      static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z;
  return block_index_in_grid() * threads_per_block + thread_in_block();
}

// How many threads the whole grid holds: the step of a grid-stride loop.
__device__ __forceinline__ unsigned long long total_threads_in_grid() {
  return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z * blockDim.x *
         blockDim.y * blockDim.z;
}

// `trace` is how ThreadLab sees the launch: `trace.wrote(i)` records which thread wrote element i,
// and `block_begins()` / `block_ends()` when and on which SM each block ran. In the kernel that is
// timed they are empty calls, compiled away; in the kernel that is drawn they record. Both are this
// very code (kernels/trace.cuh).

// One element per thread: the grid must have at least n threads, and the ones past the end (the
// last block is rarely full) must do nothing, hence the `if (i < n)` guard.
template <class Trace>
__global__ void hierarchy_one_per_thread(const float* in, float* out, unsigned long long n,
                                         Trace trace) {
  trace.block_begins();
  const unsigned long long i = global_thread_index();
  if (i < n) {
    out[i] = 2.0f * in[i] + 1.0f;
    trace.wrote(i);
  }
  trace.block_ends();  // outside the `if`: every thread must reach it (see below)
}

// A grid-stride loop: each thread starts at its global index and jumps ahead by the size of the
// whole grid until it runs off the end. Any grid covers any n, even a single block; a grid sized to
// the GPU (a few blocks per SM) does the same work with fewer, longer-lived threads.
template <class Trace>
__global__ void hierarchy_grid_stride(const float* in, float* out, unsigned long long n,
                                      Trace trace) {
  trace.block_begins();
  const unsigned long long stride = total_threads_in_grid();
  unsigned int pass = 0;  // 0 on the first trip round the loop, 1 on the second, ...
  for (unsigned long long i = global_thread_index(); i < n; i += stride) {
    out[i] = 2.0f * in[i] + 1.0f;
    trace.wrote(i, pass);
    ++pass;
  }
  trace.block_ends();
}

// ---- Warp divergence. A warp executes one instruction at a time for all its 32 lanes. When its
// threads disagree at a branch, it runs one side with the other side's lanes switched off, then
// the other side: both sides' time, each with lanes idle. When every lane of a warp goes the same
// way, the warp runs only its side.
//
// The two sides do the same amount of arithmetic (two floating-point operations a step), written
// differently so that the compiler cannot turn them into one loop with two sets of constants.
// fmaf and a separate multiply round the same on the GPU and the CPU, so the check stays exact.
constexpr int kBranchSteps = 256;

__device__ __forceinline__ float even_side(float x) {
  for (int step = 0; step < kBranchSteps; ++step) x = fmaf(x, 0.5f, 0.25f) * 0.75f;
  return x;
}

__device__ __forceinline__ float odd_side(float x) {
  for (int step = 0; step < kBranchSteps; ++step) x = fmaf(x * x, -0.25f, 0.5f);
  return x;
}

// Both kernels below do exactly this work, element for element; only the condition that picks the
// side differs. Without the grid-stride loop each thread makes one trip (its step is n).
//
// Branch on the thread's own number: even and odd threads sit side by side in every warp, so every
// warp runs both sides, half its lanes idle in each.
template <class Trace>
__global__ void hierarchy_branch_by_thread(const float* in, float* out, unsigned long long n,
                                           bool grid_stride, Trace trace) {
  trace.block_begins();
  const unsigned int thread = thread_in_block();  // threadIdx.x in a 1D block
  const unsigned long long step = grid_stride ? total_threads_in_grid() : n;
  unsigned int pass = 0;
  for (unsigned long long i = global_thread_index(); i < n; i += step) {
    if (thread % 2 == 0) {
      out[i] = even_side(in[i]);
    } else {
      out[i] = odd_side(in[i]);
    }
    trace.wrote(i, pass);
    ++pass;
  }
  trace.block_ends();
}

// Branch on the warp's number (threads 0-31 are warp 0, 32-63 warp 1, ...): the same split, half
// the threads each way, but all 32 lanes of a warp agree, so no lane waits.
template <class Trace>
__global__ void hierarchy_branch_by_warp(const float* in, float* out, unsigned long long n,
                                         bool grid_stride, Trace trace) {
  trace.block_begins();
  const unsigned int thread = thread_in_block();
  const unsigned long long step = grid_stride ? total_threads_in_grid() : n;
  unsigned int pass = 0;
  for (unsigned long long i = global_thread_index(); i < n; i += step) {
    if (thread / 32 % 2 == 0) {
      out[i] = even_side(in[i]);
    } else {
      out[i] = odd_side(in[i]);
    }
    trace.wrote(i, pass);
    ++pass;
  }
  trace.block_ends();
}

// ---- How the drawn kernels record their blocks: thread 0 of a block speaks for the whole block.

__device__ __forceinline__ bool is_first_thread_of_block() {
  return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}

struct TracedWithBlocks {
  tl::TraceRecord* records;
  tl::BlockRecord* blocks;
  unsigned long long start_ns = 0;

  __device__ __forceinline__ void wrote(unsigned long long element, unsigned int pass = 0) const {
    tl::trace_element(records, element, pass);
  }
  __device__ __forceinline__ void block_begins() {
    if (is_first_thread_of_block()) start_ns = tl::global_timer_ns();
  }
  // Called by every thread of the block once its work is done. The barrier makes thread 0 wait for
  // the slowest thread of its block before it reads the end time, so [start, end] spans the block.
  __device__ __forceinline__ void block_ends() {
    __syncthreads();
    if (is_first_thread_of_block()) {
      tl::BlockRecord& record = blocks[block_index_in_grid()];
      record.sm = static_cast<int>(tl::sm_id());  // -1 on the emulator, which has no SMs
      record.reserved = 0;
      record.start_ns = start_ns;
      record.end_ns = tl::global_timer_ns();
    }
  }
};
