// The emulator's ways of running a block give the same results, bit for bit, and the same trace:
//   - the barrier-free block loop (one call per block, the kernel inlined: emulated_launch.hpp),
//   - the barrier-free path one std::function call per thread,
//   - fibers chained warp after warp (what every synchronising launch runs),
//   - fibers with a step callback, which return to the scheduler after every step and so run the
//     block in rounds of every thread in thread order (the order all fibers ran in before warps
//     ran one after another).
// Each kernel is run every way it can be on the same inputs, and the outputs and trace records are
// compared as bytes.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "compute/device.hpp"
#include "core/launch_config.hpp"
#include "core/trace_record.hpp"
#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/emulator/grid_executor.hpp"
#include "kernels/kernel_registry.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"

#include "kernels/trace.cuh"
#include "lessons/06_reductions/kernels/reduction_trace.cuh"

// Inside tl, as the lessons' executor files include them, so that Traced and ReductionUntraced
// are found by the kernels' unqualified names.
namespace tl::fast_path_kernels {
#include "lessons/01_vector_add/kernels/vector_add.cuh"
#include "lessons/06_reductions/kernels/sum_vectorized.cuh"

// Blocks with an odd index reverse their slice through shared memory, behind a barrier; the others
// add one, with none: a kernel that reaches __syncthreads() in some blocks only.
__global__ void barrier_in_odd_blocks(const float* in, float* out, tl::Traced trace) {
  __shared__ float tile[256];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (blockIdx.x % 2 == 1) {
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[blockDim.x - 1 - t] * 0.5f;
  } else {
    out[i] = in[i] + 1.0f;
  }
  trace.wrote(static_cast<unsigned long long>(i));
}

// Each warp sums its 32 values with shuffles (the result depends on the order of the adds, so a
// lane reading the wrong partner changes bits), broadcasts lane 0's sum, and votes on its sign.
__global__ void warp_shuffles(const float* in, float* out, unsigned* votes, tl::Traced trace) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  const float first = __shfl_sync(0xffffffffu, in[i], 0);
  const float up = __shfl_up_sync(0xffffffffu, in[i], 3);
  out[i] = v * 0.25f + first - up;
  votes[i] = __ballot_sync(0xffffffffu, in[i] > 0.0f);
  trace.wrote(static_cast<unsigned long long>(i));
}
// Every kind of shuffle with a source, delta or lane mask that differs from lane to lane, and with
// widths below 32: each result in an array of its own (five per thread).
__global__ void lane_dependent_shuffles(const float* in, float* out, tl::Traced trace) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const float v = in[i];
  out[5 * i + 0] = __shfl_sync(0xffffffffu, v, (lane * 7 + 3) % 32);
  out[5 * i + 1] = __shfl_down_sync(0xffffffffu, v, static_cast<unsigned>(lane % 5));
  out[5 * i + 2] = __shfl_up_sync(0xffffffffu, v, static_cast<unsigned>((lane / 4) % 3), 8);
  out[5 * i + 3] = __shfl_xor_sync(0xffffffffu, v, lane % 16, 16);
  out[5 * i + 4] = __shfl_down_sync(0xffffffffu, v, 3u, 16);
  trace.wrote(static_cast<unsigned long long>(i));
}
// Shuffles whose arguments are the same in every lane, at the edges of their ranges (no move, the
// farthest move, a delta of a whole warp, a source lane past the warp) and with widths below 32,
// and the votes: each result in an array of its own (kEdgeResults per thread).
constexpr int kEdgeResults = 14;
__global__ void uniform_edge_warp_operations(const float* in, float* out, tl::Traced trace) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[i];
  float* mine = out + kEdgeResults * i;
  mine[0] = __shfl_down_sync(0xffffffffu, v, 0u);
  mine[1] = __shfl_down_sync(0xffffffffu, v, 31u);
  mine[2] = __shfl_down_sync(0xffffffffu, v, 32u);
  mine[3] = __shfl_up_sync(0xffffffffu, v, 0u);
  mine[4] = __shfl_up_sync(0xffffffffu, v, 31u);
  mine[5] = __shfl_up_sync(0xffffffffu, v, 32u);
  mine[6] = __shfl_xor_sync(0xffffffffu, v, 0);
  mine[7] = __shfl_xor_sync(0xffffffffu, v, 31);
  mine[8] = __shfl_sync(0xffffffffu, v, 33);
  mine[9] = __shfl_sync(0xffffffffu, v, 31);
  mine[10] = __shfl_down_sync(0xffffffffu, v, 3u, 8);
  mine[11] = __shfl_xor_sync(0xffffffffu, v, 3, 4);
  mine[12] = static_cast<float>(__all_sync(0xffffffffu, v > -1000.0f) +
                                2 * __any_sync(0xffffffffu, v > 1000.0f));
  __syncwarp();
  mine[13] = static_cast<float>(__ballot_sync(0xffffffffu, v > 0.0f) & 0xffffu);
  trace.wrote(static_cast<unsigned long long>(i));
}
// Each thread takes the next number of its block's counter: the order the threads of a block ran
// in (one worker runs a whole block, so the counter needs no atomic).
__global__ void thread_order(unsigned* counters, unsigned* order, tl::Traced trace) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned i = block * threads + t;
  order[i] = counters[block]++;
  trace.wrote(i);
}
}  // namespace tl::fast_path_kernels

namespace tl::emu {
namespace {

namespace k = tl::fast_path_kernels;

std::vector<float> values(std::size_t n, std::uint32_t seed) {
  std::vector<float> v(n);
  std::uint32_t x = seed;
  for (float& f : v) {
    x = x * 1664525u + 1013904223u;
    f = static_cast<float>(static_cast<int>(x >> 8) - (1 << 23)) / 4096.0f;  // signs, many bits
  }
  return v;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

enum class Way { kBlockLoop, kPerThread, kFibers, kFibersInRounds };
constexpr Way kAllWays[] = {Way::kBlockLoop, Way::kPerThread, Way::kFibers, Way::kFibersInRounds};
constexpr Way kFiberWays[] = {Way::kFibers, Way::kFibersInRounds};

// Runs `thread` (one emulated thread's kernel call) over `config` the given way.
Status run(Way way, const LaunchConfig& config, const std::function<void()>& thread) {
  GridOptions options;
  options.barriers =
      way == Way::kBlockLoop || way == Way::kPerThread ? Barriers::kNone : Barriers::kUsed;
  if (way == Way::kFibersInRounds) options.after_step = [](std::uint64_t, std::uint32_t) {};
  if (way == Way::kBlockLoop) {
    return run_grid(config, options, thread,
                    [&thread] { for_each_thread_of_block([&thread] { thread(); }); });
  }
  return run_grid(config, options, thread);
}

// Lesson 1's traced kernel over a partial last block, every way: the same sums and, per element,
// the same block, thread and write count.
TEST(EmulatorFastPath, VectorAddIsTheSameEveryWayWithTheSameTrace) {
  const int n = 5000;
  const std::vector<float> a = values(n, 1), b = values(n, 2);
  const LaunchConfig config{{(n + 127) / 128, 1, 1}, {128, 1, 1}};
  std::vector<float> first_c;
  std::vector<TraceRecord> first_trace;
  for (const Way way : kAllWays) {
    std::vector<float> c(n, -1.0f);
    std::vector<TraceRecord> trace(n, TraceRecord{});
    const tl::Traced traced{trace.data()};
    ASSERT_TRUE(
        run(way, config, [&] { k::vector_add(a.data(), b.data(), c.data(), n, traced); }).is_ok());
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
    ASSERT_EQ(trace[4999].block, 39u);
    ASSERT_EQ(trace[4999].writes, 1u);
    if (first_c.empty()) {
      first_c = c;
      first_trace = trace;
      continue;
    }
    EXPECT_TRUE(same_bytes(c, first_c)) << static_cast<int>(way);
    EXPECT_TRUE(same_bytes(trace, first_trace)) << static_cast<int>(way);
  }
}

// One- and three-dimensional blocks run their threads in the same order every way: x fastest,
// then y, then z, the linear order a block's warps are cut from; the traces agree too.
TEST(EmulatorFastPath, EveryWayRunsABlocksThreadsInLinearOrder) {
  for (const LaunchConfig& config :
       {LaunchConfig{{3, 2, 1}, {4, 3, 2}}, LaunchConfig{{5, 1, 1}, {96, 1, 1}}}) {
    const std::size_t blocks = config.grid.volume();
    const std::size_t threads = config.block.volume();
    std::vector<TraceRecord> first_trace;
    for (const Way way : kAllWays) {
      std::vector<unsigned> counters(blocks, 0), order(blocks * threads, 0xffffffffu);
      std::vector<TraceRecord> trace(blocks * threads, TraceRecord{});
      const tl::Traced traced{trace.data()};
      ASSERT_TRUE(run(way, config, [&] {
                    k::thread_order(counters.data(), order.data(), traced);
                  }).is_ok());
      for (std::size_t i = 0; i < order.size(); ++i) {
        ASSERT_EQ(order[i], i % threads) << "way " << static_cast<int>(way) << ", thread " << i;
      }
      if (first_trace.empty()) {
        first_trace = trace;
      } else {
        EXPECT_TRUE(same_bytes(trace, first_trace)) << static_cast<int>(way);
      }
    }
  }
}

// The launch the lesson makes (the kernel table's block loop, flattened) writes what a fiber run
// of the same kernel writes, traced and untraced, and its trace names the same threads.
TEST(EmulatorFastPath, TheLessonsLaunchMatchesAFiberRunOfTheSameKernel) {
  const int n = 3 * 256 + 17;
  const std::vector<float> a = values(n, 3), b = values(n, 4);
  const LaunchConfig config{{(n + 255) / 256, 1, 1}, {256, 1, 1}};
  auto device = compute::make_emulator_device();
  const auto& table = device->kernels().get<kernels::VectorAddKernels>();

  std::vector<float> launched(n, 0.0f), launched_traced(n, 0.0f), fibers(n, 0.0f);
  std::vector<TraceRecord> launched_trace(n, TraceRecord{}), fiber_trace(n, TraceRecord{});
  ASSERT_TRUE(table.add(config, a.data(), b.data(), launched.data(), n).is_ok());
  ASSERT_TRUE(
      table.add_traced(config, a.data(), b.data(), launched_traced.data(), n, launched_trace.data())
          .is_ok());
  const tl::Traced traced{fiber_trace.data()};
  ASSERT_TRUE(run(Way::kFibers, config, [&] {
                k::vector_add(a.data(), b.data(), fibers.data(), n, traced);
              }).is_ok());
  EXPECT_TRUE(same_bytes(launched, fibers));
  EXPECT_TRUE(same_bytes(launched_traced, fibers));
  EXPECT_TRUE(same_bytes(launched_trace, fiber_trace));
}

// A kernel with __syncthreads() in its odd blocks only: run as fibers (both orders) it gives
// what the barrier-free paths give for the even blocks, and the barrier-free paths refuse it,
// naming the barrier, as before.
TEST(EmulatorFastPath, ABarrierInSomeBlocksOnlyIsTheSameEitherFiberOrderAndRefusedWithout) {
  const int n = 6 * 256;
  const std::vector<float> in = values(n, 5);
  const LaunchConfig config{{6, 1, 1}, {256, 1, 1}};
  std::vector<std::vector<float>> outs;
  std::vector<std::vector<TraceRecord>> traces;
  for (const Way way : kFiberWays) {
    std::vector<float> out(n, 0.0f);
    std::vector<TraceRecord> trace(n, TraceRecord{});
    const tl::Traced traced{trace.data()};
    ASSERT_TRUE(
        run(way, config, [&] { k::barrier_in_odd_blocks(in.data(), out.data(), traced); }).is_ok());
    for (int i = 0; i < n; ++i) {
      const int block = i / 256, t = i % 256;
      const float expected = block % 2 == 1 ? in[block * 256 + 255 - t] * 0.5f : in[i] + 1.0f;
      ASSERT_EQ(out[i], expected) << i;
    }
    outs.push_back(out);
    traces.push_back(trace);
  }
  EXPECT_TRUE(same_bytes(outs[0], outs[1]));
  EXPECT_TRUE(same_bytes(traces[0], traces[1]));
  for (const Way way : {Way::kBlockLoop, Way::kPerThread}) {
    std::vector<float> out(n, 0.0f);
    std::vector<TraceRecord> trace(n, TraceRecord{});
    const tl::Traced traced{trace.data()};
    const Status refused =
        run(way, config, [&] { k::barrier_in_odd_blocks(in.data(), out.data(), traced); });
    ASSERT_FALSE(refused.is_ok());
    EXPECT_NE(refused.message().find("__syncthreads()"), std::string::npos) << refused.message();
  }
}

// Shuffles, a broadcast, a shift and a ballot, over 3 blocks of 3 warps: both fiber orders give
// the same bits, and the ballot is the warp's own.
TEST(EmulatorFastPath, ShufflesGiveTheSameBitsInEitherFiberOrder) {
  const int n = 3 * 96;
  const std::vector<float> in = values(n, 6);
  const LaunchConfig config{{3, 1, 1}, {96, 1, 1}};
  std::vector<std::vector<float>> outs;
  std::vector<std::vector<unsigned>> all_votes;
  std::vector<std::vector<TraceRecord>> traces;
  for (const Way way : kFiberWays) {
    std::vector<float> out(n, 0.0f);
    std::vector<unsigned> votes(n, 0);
    std::vector<TraceRecord> trace(n, TraceRecord{});
    const tl::Traced traced{trace.data()};
    ASSERT_TRUE(run(way, config, [&] {
                  k::warp_shuffles(in.data(), out.data(), votes.data(), traced);
                }).is_ok());
    outs.push_back(out);
    all_votes.push_back(votes);
    traces.push_back(trace);
  }
  EXPECT_TRUE(same_bytes(outs[0], outs[1]));
  EXPECT_TRUE(same_bytes(all_votes[0], all_votes[1]));
  EXPECT_TRUE(same_bytes(traces[0], traces[1]));
  // Lane 0 of warp 1 of block 2: its xor tree, the lane's own value (lane 0 broadcasts itself)
  // and, shifted up by 3 from lane 0, its own value again.
  const int base = 2 * 96 + 32;
  unsigned ballot = 0;
  for (int l = 0; l < 32; ++l) ballot |= (in[base + l] > 0.0f ? 1u : 0u) << l;
  EXPECT_EQ(all_votes[0][base + 7], ballot);
}

// CUDA's shuffle rules written out on the host: the value of the lane `lane` reads within its
// segment of `width` lanes, its own where the source falls outside the segment.
float shuffled(const float* warp, int lane, int source, int width) {
  const int segment = lane & ~(width - 1);
  return source < segment || source >= segment + width ? warp[lane] : warp[source];
}

// Shuffles whose arguments differ from lane to lane (a warp whose every lane waits at the same
// shuffle, so the whole-warp release takes it, one source per lane) give CUDA's values, and the
// same bits as the general release that the stepping order uses.
TEST(EmulatorFastPath, LaneDependentShufflesGiveCudasValuesInEitherFiberOrder) {
  const int n = 2 * 96;
  const std::vector<float> in = values(n, 8);
  const LaunchConfig config{{2, 1, 1}, {96, 1, 1}};
  std::vector<float> expected(5 * n);
  for (int i = 0; i < n; ++i) {
    const float* warp = &in[i - i % 32];
    const int lane = i % 32;
    expected[5 * i + 0] = warp[(lane * 7 + 3) % 32];
    expected[5 * i + 1] = shuffled(warp, lane, lane + lane % 5, 32);
    expected[5 * i + 2] = shuffled(warp, lane, lane - (lane / 4) % 3, 8);
    expected[5 * i + 3] = shuffled(warp, lane, lane ^ (lane % 16), 16);
    expected[5 * i + 4] = shuffled(warp, lane, lane + 3, 16);
  }
  std::vector<TraceRecord> first_trace;
  for (const Way way : kFiberWays) {
    std::vector<float> out(5 * n, 0.0f);
    std::vector<TraceRecord> trace(n, TraceRecord{});
    const tl::Traced traced{trace.data()};
    ASSERT_TRUE(run(way, config, [&] {
                  k::lane_dependent_shuffles(in.data(), out.data(), traced);
                }).is_ok());
    EXPECT_TRUE(same_bytes(out, expected)) << static_cast<int>(way);
    if (first_trace.empty()) {
      first_trace = trace;
    } else {
      EXPECT_TRUE(same_bytes(trace, first_trace));
    }
  }
}

// Shuffles and votes whose arguments are the same in every lane (the chained order releases them
// with sources known per operation, the stepping order with the general formula) give CUDA's
// values at the edges of their ranges, and the same bits either way.
TEST(EmulatorFastPath, UniformWarpOperationsAtTheirEdgesGiveCudasValuesInEitherFiberOrder) {
  const int n = 2 * 64;
  const std::vector<float> in = values(n, 9);
  const LaunchConfig config{{2, 1, 1}, {64, 1, 1}};
  std::vector<float> expected(k::kEdgeResults * n);
  for (int i = 0; i < n; ++i) {
    const float* warp = &in[i - i % 32];
    const int lane = i % 32;
    float* e = &expected[k::kEdgeResults * i];
    e[0] = warp[lane];
    e[1] = shuffled(warp, lane, lane + 31, 32);
    e[2] = warp[lane];
    e[3] = warp[lane];
    e[4] = shuffled(warp, lane, lane - 31, 32);
    e[5] = warp[lane];
    e[6] = warp[lane];
    e[7] = warp[lane ^ 31];
    e[8] = warp[1];
    e[9] = warp[31];
    e[10] = shuffled(warp, lane, lane + 3, 8);
    e[11] = shuffled(warp, lane, lane ^ 3, 4);
    bool all = true, any = false;
    unsigned ballot = 0;
    for (int l = 0; l < 32; ++l) {
      all = all && warp[l] > -1000.0f;
      any = any || warp[l] > 1000.0f;
      if (warp[l] > 0.0f) ballot |= 1u << l;
    }
    e[12] = static_cast<float>((all ? 1 : 0) + 2 * (any ? 1 : 0));
    e[13] = static_cast<float>(ballot & 0xffffu);
  }
  std::vector<TraceRecord> first_trace;
  for (const Way way : kFiberWays) {
    std::vector<float> out(k::kEdgeResults * n, 0.0f);
    std::vector<TraceRecord> trace(n, TraceRecord{});
    const tl::Traced traced{trace.data()};
    ASSERT_TRUE(run(way, config, [&] {
                  k::uniform_edge_warp_operations(in.data(), out.data(), traced);
                }).is_ok());
    EXPECT_TRUE(same_bytes(out, expected)) << static_cast<int>(way);
    if (first_trace.empty()) {
      first_trace = trace;
    } else {
      EXPECT_TRUE(same_bytes(trace, first_trace));
    }
  }
}

// Lesson 6's vectorized sum (float4 grid-stride loop, shuffles, two barriers, the last block
// finishing): both fiber orders give the same result bits, the same block sums and the same trace
// and tree; and the lesson's own launch gives the same result.
TEST(EmulatorFastPath, TheVectorizedSumIsTheSameInEitherFiberOrderAndAsTheLessonLaunches) {
  const int n = (1 << 16) + 3;
  const std::vector<float> in = values(n, 7);
  const LaunchConfig config{{24, 1, 1}, {128, 1, 1}};
  std::vector<float> results, first_sums;
  std::vector<TraceRecord> first_trace;
  std::vector<int> first_tree;
  for (const Way way : kFiberWays) {
    float out = 0.0f;
    std::vector<float> block_sums(config.grid.x, 0.0f);
    unsigned blocks_done = 0;
    std::vector<TraceRecord> trace(n, TraceRecord{});
    std::vector<int> tree(2 * kernels::kReductionTreeLevels * config.block.x, -1);
    const tl::ReductionTraced traced{trace.data(), tree.data()};
    ASSERT_TRUE(run(way, config, [&] {
                  k::sum_vectorized(in.data(), &out, n, block_sums.data(), &blocks_done, traced);
                }).is_ok());
    EXPECT_EQ(blocks_done, 0u);
    results.push_back(out);
    if (first_sums.empty()) {
      first_sums = block_sums;
      first_trace = trace;
      first_tree = tree;
      continue;
    }
    EXPECT_TRUE(same_bytes(block_sums, first_sums));
    EXPECT_TRUE(same_bytes(trace, first_trace));
    EXPECT_TRUE(same_bytes(tree, first_tree));
  }
  EXPECT_EQ(std::memcmp(&results[0], &results[1], sizeof(float)), 0);

  auto device = compute::make_emulator_device();
  const auto& table = device->kernels().get<kernels::ReductionKernels>();
  float out = 0.0f;
  std::vector<float> block_sums(config.grid.x, 0.0f);
  unsigned blocks_done = 0;
  ASSERT_TRUE(table
                  .sum(kernels::SumRung::kVectorized, config, in.data(), n,
                       {&out, block_sums.data(), &blocks_done})
                  .is_ok());
  EXPECT_EQ(std::memcmp(&out, &results[0], sizeof(float)), 0);
  EXPECT_TRUE(same_bytes(block_sums, first_sums));
}

}  // namespace
}  // namespace tl::emu
