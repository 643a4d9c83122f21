// Kernels that exercise the emulator's warp operations, atomics, dynamic shared memory and device
// functions, written as a learner writes CUDA. Included inside a namespace by the test, after
// cuda_emulation.hpp, exactly as the lesson kernels are.

__device__ __forceinline__ float warp_sum_down(float value) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffff, value, offset);
  }
  return value;
}

// Each warp's sum lands in lane 0, which writes it to sums[global warp].
__global__ void warp_sums(const float* __restrict__ in, float* __restrict__ sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float total = warp_sum_down(__ldg(&in[i]));
  if (threadIdx.x % warpSize == 0) sums[i / warpSize] = total;
}

// Butterfly: every lane ends with the warp's sum.
__global__ void butterfly_sums(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[i];
  for (int mask = 16; mask > 0; mask >>= 1) value += __shfl_xor_sync(0xffffffff, value, mask);
  out[i] = value;
}

// Inclusive prefix sums within each warp.
__global__ void warp_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  int value = in[i];
  for (int delta = 1; delta < 32; delta *= 2) {
    const int from_below = __shfl_up_sync(0xffffffff, value, delta);
    if (lane >= delta) value += from_below;
  }
  out[i] = value;
}

// Every lane takes the value of lane `source` of its segment of `width` lanes.
__global__ void segment_broadcast(const int* in, int* out, int source, int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __shfl_sync(0xffffffff, in[i], source, width);
}

// Votes on lane % 3 == 0 and on lane < 32 (always true).
__global__ void votes(unsigned* ballots, int* all_of, int* any_of, int* all_true) {
  const int lane = threadIdx.x % 32;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const unsigned ballot = __ballot_sync(0xffffffff, lane % 3 == 0);
  const int all = __all_sync(0xffffffff, lane % 3 == 0);
  const int any = __any_sync(0xffffffff, lane % 3 == 0);
  const int all_lanes_small = __all_sync(0xffffffff, lane < 32);
  __syncwarp();
  if (lane == 0) {
    ballots[warp] = ballot;
    all_of[warp] = all;
    any_of[warp] = any;
    all_true[warp] = all_lanes_small;
  }
}

// Lanes below `active` ask who is active, then sum among themselves with that mask.
__global__ void active_mask_sum(unsigned* masks, int* sums, int active) {
  const int lane = threadIdx.x % 32;
  if (lane < active) {
    const unsigned mask = __activemask();
    int total = 0;
    for (int other = 0; other < 32; ++other) {
      if ((mask & (1u << other)) != 0) total += __shfl_sync(mask, lane, other);
    }
    masks[lane] = mask;
    sums[lane] = total;
  }
}

// Lane 5 returns early; the others then shuffle with a mask that names it.
__global__ void shuffle_with_exited_lane(int* out) {
  if (threadIdx.x == 5) return;
  out[threadIdx.x] = __shfl_down_sync(0xffffffff, static_cast<int>(threadIdx.x), 1);
}

// Half the warp shuffles with mask 0x0000ffff, the other half with 0xffffffff.
__global__ void mismatched_masks(int* out) {
  const unsigned mask = threadIdx.x < 16 ? 0x0000ffffu : 0xffffffffu;
  out[threadIdx.x] = __shfl_xor_sync(mask, static_cast<int>(threadIdx.x), 1);
}

// Lanes 0–15 shuffle among themselves, lanes 16–31 among themselves: two groups, both defined.
__global__ void split_warp_shuffles(int* out) {
  const unsigned mask = threadIdx.x < 16 ? 0x0000ffffu : 0xffff0000u;
  out[threadIdx.x] = __shfl_xor_sync(mask, static_cast<int>(threadIdx.x), 1);
}

__global__ void atomics(const int* values, int* int_sum, unsigned* unsigned_sum, float* float_sum,
                        double* double_sum, int* largest, int* smallest, unsigned* cas_count,
                        int* exchange_slot, int* exchanged) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = values[i];
  atomicAdd(int_sum, v);
  atomicAdd(unsigned_sum, 1u);
  atomicAdd(float_sum, 1.0f);
  atomicAdd(double_sum, 0.5);
  atomicMax(largest, v);
  atomicMin(smallest, v);
  // An increment built from compare-and-swap, retried until no other thread got in between.
  unsigned seen = *cas_count;
  while (true) {
    const unsigned old = atomicCAS(cas_count, seen, seen + 1);
    if (old == seen) break;
    seen = old;
  }
  exchanged[i] = atomicExch(exchange_slot, i);
}

// A shared-memory histogram of values % 16, then merged into the global one with atomics.
__global__ void shared_histogram(const int* values, int n, unsigned* histogram) {
  __shared__ unsigned bins[16];
  if (threadIdx.x < 16) bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&bins[values[i] % 16], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&histogram[threadIdx.x], bins[threadIdx.x]);
}

// What the Lab makes of `extern __shared__ float tile[];` (dynamic_shared_rewrite.hpp): reverses
// each block's slice through launch-sized shared memory.
__global__ void reverse_through_dynamic_shared(const float* in, float* out) {
  auto& tile = ::tl::emu::dynamic_shared_array<float>();
  const int t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}

__device__ float clamp_unit(float x) {
  return fminf(fmaxf(x, 0.0f), 1.0f);
}

// Device math as kernels call it, unqualified.
__global__ void device_math(const float* x, float* out, int* ints) {
  const int i = threadIdx.x;
  const float v = x[i];
  out[i * 6 + 0] = rsqrtf(v);
  out[i * 6 + 1] = __expf(-v) - expf(-v);
  out[i * 6 + 2] = clamp_unit(v - 1.0f);
  out[i * 6 + 3] = max(v, 2.0f) + min(v, 2.0f);
  out[i * 6 + 4] = __saturatef(v - 1.5f);
  out[i * 6 + 5] = __fdividef(v, 2.0f);
  ints[i * 3 + 0] = min(i, 3);
  ints[i * 3 + 1] = max(i, 3);
  ints[i * 3 + 2] = __popc(static_cast<unsigned>(i)) + __ffs(static_cast<unsigned>(i));
}

// The guide's bug: only lanes 0–15 shuffle, but with the full mask; lanes 16–31 return.
__global__ void full_mask_in_half_warp_branch(int* out) {
  const int lane = threadIdx.x % 32;
  if (lane < 16) out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, lane, 1);
}

// The same branch, but lanes 16–31 go on to __syncthreads() instead of returning.
__global__ void full_mask_against_a_barrier(int* out) {
  const int lane = threadIdx.x % 32;
  if (lane < 16) out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, lane, 1);
  __syncthreads();
}

// The two halves of the warp take different branches and meet at a shuffle of the same kind with
// the same mask in each: since Volta the lanes wait for each other there (independent thread
// scheduling), wherever the call is in the code.
__global__ void diverged_halves_meet(int* out) {
  const int lane = threadIdx.x % 32;
  int value;
  if (lane < 16) {
    value = __shfl_xor_sync(0xffffffffu, lane, 16);
  } else {
    value = __shfl_xor_sync(0xffffffffu, 100 + lane, 16);
  }
  out[threadIdx.x] = value;
}

// Lanes 16–31 first shuffle among themselves, then the whole warp shuffles: the half-warp group
// completes first and its lanes then join the full one.
__global__ void half_group_then_full_group(int* out) {
  const int lane = threadIdx.x % 32;
  int value = lane;
  if (lane >= 16) value += __shfl_xor_sync(0xffff0000u, value, 1);
  value += __shfl_xor_sync(0xffffffffu, value, 16);
  out[threadIdx.x] = value;
}

// Lanes below `active` ask who is active while the others wait at __syncthreads().
__global__ void active_mask_beside_a_barrier(unsigned* masks, int active) {
  const int lane = threadIdx.x % 32;
  if (lane < active) masks[threadIdx.x] = __activemask();
  __syncthreads();
}

// The count of values above `threshold` per warp, with the mask of the lanes that hold a value
// taken by a ballot before the branch (the lesson's count_above_ballot, per warp).
__global__ void count_above_per_warp(const float* in, int n, float threshold, int* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned has_element = __ballot_sync(0xffffffffu, i < n);
  if (i < n) {
    const unsigned above = __ballot_sync(has_element, in[i] > threshold);
    if (threadIdx.x % 32 == static_cast<unsigned>(__ffs(has_element) - 1)) {
      counts[i / 32] = __popc(above);
    }
  }
}

namespace cg = cooperative_groups;

// Every warp's sum with a tile's shuffles, then with cg::reduce; each warp's inclusive scan with
// cg::inclusive_scan; and tiles of 8 summing among themselves.
__global__ void cooperative_group_tiles(const int* in, int* shuffled, int* reduced, int* scanned,
                                        int* eights, unsigned* ballots, int* ranks) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = static_cast<int>(block.thread_rank());
  int sum = in[i];
  for (unsigned offset = warp.size() / 2; offset > 0; offset /= 2) {
    sum += warp.shfl_down(sum, offset);
  }
  if (warp.thread_rank() == 0) shuffled[warp.meta_group_rank()] = sum;
  reduced[i] = cg::reduce(warp, in[i], cg::plus<int>());
  scanned[i] = cg::inclusive_scan(warp, in[i]);
  const cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  eights[i] = cg::reduce(eight, in[i], cg::plus<int>());
  ballots[i] = eight.ballot(in[i] % 2 == 0);
  ranks[i] = static_cast<int>(eight.thread_rank() + 100 * eight.meta_group_rank());
  block.sync();
}
