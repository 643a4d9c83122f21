// Lesson 10: finding bugs in kernels. One small job, done right once and wrong five ways.
//
// The job is the adjacent difference, out[i] = in[i] - in[i - 1] (out[0] = in[0]): a block loads
// its stretch of `in` into shared memory, one element per thread, plus the element just before the
// stretch (the "halo", loaded by thread 0), waits for the whole tile, then each thread subtracts
// its left neighbour. Every bug below is one a CUDA programmer meets in the first weeks, planted
// in this kernel. Each is a separate kernel, so that a tool's report names which one it caught.
//
// `trace.wrote(i)` records which thread wrote element i in the traced build and compiles to
// nothing in the timed one (kernels/trace.cuh). The trace holds n records: a kernel that writes
// past the end of `out` records only its writes inside it, and the lesson finds the others in the
// guard zone it allocates after `out` on the emulator.

// The largest block CUDA allows: the tile is sized for it, plus the halo.
constexpr int kMostThreads = 1024;

// Right: every load and store guarded, one barrier that every thread of the block reaches.
template <class Trace>
__global__ void difference(int n, const float* in, float* out, Trace trace) {
  __shared__ float tile[kMostThreads + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (i < n) tile[t + 1] = in[i];
  if (t == 0) tile[0] = (i > 0 && i <= n) ? in[i - 1] : 0.0f;  // the halo
  __syncthreads();  // every thread's load is in the tile before anyone reads a neighbour
  if (i < n) {
    out[i] = tile[t + 1] - tile[t];
    trace.wrote(i);
  }
}

// Bug 1, the index: written for blocks of 32 threads. With any other block size the blocks
// overlap (or leave gaps): some elements are written twice, the last ones never.
template <class Trace>
__global__ void difference_wrong_index(int n, const float* in, float* out, Trace trace) {
  __shared__ float tile[kMostThreads + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * 32 + t;  // BUG: blockDim.x, not 32
  if (i < n) tile[t + 1] = in[i];
  if (t == 0) tile[0] = (i > 0 && i <= n) ? in[i - 1] : 0.0f;
  __syncthreads();
  if (i < n) {
    out[i] = tile[t + 1] - tile[t];
    trace.wrote(i);
  }
}

// Bug 2, no guard: the spare threads of the last block read `in` and write `out` past their ends.
template <class Trace>
__global__ void difference_no_guard(int n, const float* in, float* out, Trace trace) {
  __shared__ float tile[kMostThreads + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  tile[t + 1] = in[i];  // BUG: i may be n or more
  if (t == 0) tile[0] = i > 0 ? in[i - 1] : 0.0f;
  __syncthreads();
  out[i] = tile[t + 1] - tile[t];  // BUG: so may this store
  if (i < n) trace.wrote(i);       // the trace has n records: the guard zone names the rest
}

// Bug 3, no barrier: a thread reads tile[t], which its left neighbour writes. Nothing makes the
// neighbour's store come first when the two are in different warps.
template <class Trace>
__global__ void difference_no_barrier(int n, const float* in, float* out, Trace trace) {
  __shared__ float tile[kMostThreads + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (i < n) tile[t + 1] = in[i];
  if (t == 0) tile[0] = (i > 0 && i <= n) ? in[i - 1] : 0.0f;
  // BUG: no __syncthreads() here
  if (i < n) {
    out[i] = tile[t + 1] - tile[t];
    trace.wrote(i);
  }
}

// Bug 4, a divergent barrier: the barrier moved inside the guard. The spare threads of the last
// block never reach it, and CUDA leaves a barrier that only part of the block reaches undefined.
template <class Trace>
__global__ void difference_divergent_barrier(int n, const float* in, float* out, Trace trace) {
  __shared__ float tile[kMostThreads + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    tile[t + 1] = in[i];
    if (t == 0) tile[0] = i > 0 ? in[i - 1] : 0.0f;
    __syncthreads();  // BUG: inside a branch that some threads of the block skip
    out[i] = tile[t + 1] - tile[t];
    trace.wrote(i);
  }
}

// Bug 5, an uninitialised read: the kernel adds its difference to `out` instead of storing it,
// as if `out` had been cleared. Nothing cleared it: the sum starts from whatever the memory held.
template <class Trace>
__global__ void difference_accumulates(int n, const float* in, float* out, Trace trace) {
  __shared__ float tile[kMostThreads + 1];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (i < n) tile[t + 1] = in[i];
  if (t == 0) tile[0] = (i > 0 && i <= n) ? in[i - 1] : 0.0f;
  __syncthreads();
  if (i < n) {
    out[i] += tile[t + 1] - tile[t];  // BUG: reads out[i], which no one wrote
    trace.wrote(i);
  }
}
