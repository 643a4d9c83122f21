// The reductions lesson's sum ladder: every kernel adds in[0 .. n) into *out, which the host sets
// to 0 before the launch. Each rung changes one thing. A block has at most kSumMaxBlock threads,
// a power of two for the trees. `trace` records who read each element and, in block 0, the tree's
// adds (lessons/06_reductions/kernels/reduction_trace.cuh); it compiles to nothing in the timed
// kernels.

constexpr int kSumMaxBlock = 1024;

// Rung 1: one atomic per element. Simple and correct, but every thread of the grid waits its turn
// at the same address, and the running sum is one float that every element is added to in turn.
template <class Trace>
__global__ void sum_atomic(const float* in, float* out, int n, Trace trace) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(out, in[i]);
    trace.wrote(i);
  }
}

// Rung 2: a tree in shared memory, interleaved addressing. At step s every thread whose index is a
// multiple of 2s adds its neighbour s away. Half the lanes of every warp idle from the first step
// on (divergence), and `%` is slow. One atomic per block.
template <class Trace>
__global__ void sum_interleaved(const float* in, float* out, int n, Trace trace) {
  __shared__ float partial[kSumMaxBlock];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  if (i < n) trace.wrote(i);
  __syncthreads();
  int level = 0;
  for (int s = 1; s < static_cast<int>(blockDim.x); s *= 2, ++level) {
    if (tid % (2 * s) == 0) {
      partial[tid] += partial[tid + s];
      trace.added(level, tid, tid + s);
    }
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

// Rung 3: the same tree without divergence: thread t works on partial 2·s·t, so the working
// threads are the first ones and whole warps go idle together. But the addresses a warp touches
// now stride by 2s words, and words 32 apart sit in the same shared-memory bank: bank conflicts.
template <class Trace>
__global__ void sum_strided(const float* in, float* out, int n, Trace trace) {
  __shared__ float partial[kSumMaxBlock];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  if (i < n) trace.wrote(i);
  __syncthreads();
  int level = 0;
  for (int s = 1; s < static_cast<int>(blockDim.x); s *= 2, ++level) {
    const int index = 2 * s * tid;
    if (index < static_cast<int>(blockDim.x)) {
      partial[index] += partial[index + s];
      trace.added(level, index, index + s);
    }
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

// Rung 4: sequential addressing. The first half of the block adds the second half onto itself,
// then the first quarter the second quarter, ...: consecutive threads touch consecutive words (no
// bank conflicts) and the working threads stay packed in the first warps.
template <class Trace>
__global__ void sum_sequential(const float* in, float* out, int n, Trace trace) {
  __shared__ float partial[kSumMaxBlock];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  if (i < n) trace.wrote(i);
  __syncthreads();
  int level = 0;
  for (int s = blockDim.x / 2; s > 0; s /= 2, ++level) {
    if (tid < s) {
      partial[tid] += partial[tid + s];
      trace.added(level, tid, tid + s);
    }
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

// Rung 5: first add during load. Half the threads of rung 4 only loaded a value and went idle;
// here each thread loads two elements a block apart and adds them, so a block covers 2·blockDim
// elements and the grid needs half the blocks.
template <class Trace>
__global__ void sum_first_add(const float* in, float* out, int n, Trace trace) {
  __shared__ float partial[kSumMaxBlock];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * (2 * blockDim.x) + tid;
  float sum = 0.0f;
  if (i < n) {
    sum = in[i];
    trace.wrote(i);
  }
  if (i + static_cast<int>(blockDim.x) < n) {
    sum += in[i + blockDim.x];
    trace.wrote(i + blockDim.x);
  }
  partial[tid] = sum;
  __syncthreads();
  int level = 0;
  for (int s = blockDim.x / 2; s > 0; s /= 2, ++level) {
    if (tid < s) {
      partial[tid] += partial[tid + s];
      trace.added(level, tid, tid + s);
    }
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

// Rung 6: a warp-shuffle tail. Once 64 partial sums are left, one warp finishes without shared
// memory or __syncthreads(): __shfl_down_sync hands each lane the register of the lane `offset`
// above it. Lanes at and above `offset` add too, but nobody reads their sums.
template <class Trace>
__global__ void sum_warp_shuffle(const float* in, float* out, int n, Trace trace) {
  __shared__ float partial[kSumMaxBlock];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * (2 * blockDim.x) + tid;
  float sum = 0.0f;
  if (i < n) {
    sum = in[i];
    trace.wrote(i);
  }
  if (i + static_cast<int>(blockDim.x) < n) {
    sum += in[i + blockDim.x];
    trace.wrote(i + blockDim.x);
  }
  partial[tid] = sum;
  __syncthreads();
  int level = 0;
  for (int s = blockDim.x / 2; s > 32; s /= 2, ++level) {
    if (tid < s) {
      partial[tid] += partial[tid + s];
      trace.added(level, tid, tid + s);
    }
    __syncthreads();
  }
  if (tid < 32) {
    sum = partial[tid];
    if (blockDim.x >= 64) {
      sum += partial[tid + 32];
      trace.added(level++, tid, tid + 32);
    }
    for (int offset = 16; offset > 0; offset /= 2, ++level) {
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
      if (tid < offset) trace.added(level, tid, tid + offset);
    }
    if (tid == 0) atomicAdd(out, sum);
  }
}

// Atomic contention, measured apart from the sums: element i is added to out[i % addresses]. With
// one address this is rung 1; with one per thread no two atomics ever meet.
__global__ void add_to_addresses(const float* in, float* out, int n, int addresses) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[i % addresses], in[i]);
}
