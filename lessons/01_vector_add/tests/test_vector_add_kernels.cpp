// The vector-add kernels, on the emulator and on a GPU alike (tests/devices/device_under_test.hpp):
// through the runner the app uses, and vector_add_vectorized by its own launch on awkward sizes.

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "compute/trace_sink.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/trace.hpp"
#include "device_under_test.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"

namespace tl::testing {
namespace {

using compute::allocate_array;
using compute::HostTraceSink;
using compute::VectorAddRequest;

class VectorAddKernels : public OnEveryDevice {};

VectorAddRequest quick(std::uint64_t n, LaunchConfig config) {
  VectorAddRequest request;
  request.n = n;
  request.config = config;
  request.repeats = 1;
  request.warmup = 0;
  request.time_cpu = false;
  return request;
}

// Sizes and grids a student picks: the smallest launch, the article's <<<1, 1000>>>, idle threads,
// a grid too small, odd N, a grid far too large, a block that is not a multiple of 32.
struct Case {
  std::uint64_t n;
  LaunchConfig config;
};
const Case kCases[] = {
    {1, {{1, 1, 1}, {1, 1, 1}}},         {1000, {{1, 1, 1}, {1000, 1, 1}}},
    {1000, {{4, 1, 1}, {256, 1, 1}}},    {1000, {{3, 1, 1}, {256, 1, 1}}},
    {4097, {{17, 1, 1}, {256, 1, 1}}},   {999, {{1000, 1, 1}, {1, 1, 1}}},
    {12345, {{13, 1, 1}, {1000, 1, 1}}}, {100000, {{64, 1, 1}, {1024, 1, 1}}},
};

TEST_P(VectorAddKernels, MatchTheCpuReferenceWhereTheGridCoversNAndLeaveTheRestUnwritten) {
  for (const Case& c : kCases) {
    auto report = compute::run_vector_add(device(), quick(c.n, c.config));
    ASSERT_TRUE(report.is_ok()) << c.config.to_string() << ": " << report.message();
    EXPECT_EQ(report->on_gpu, on_gpu());
    ASSERT_TRUE(report->check.has_value());
    const bool covers = c.config.total_threads() >= c.n;
    EXPECT_EQ(report->check->passed, covers)
        << c.n << " " << c.config.to_string() << ": " << report->check->describe();
    if (!covers) {
      // The first element no thread reached is the first one past the grid.
      EXPECT_EQ(report->check->first_wrong, c.config.total_threads());
      EXPECT_EQ(report->check->wrong_count, c.n - c.config.total_threads());
    }
    // The vectorized kernel runs on its own grid, which always covers N.
    ASSERT_TRUE(report->check_vectorized.has_value());
    EXPECT_TRUE(report->check_vectorized->passed) << report->check_vectorized->describe();
  }
}

TEST_P(VectorAddKernels, TraceEqualsTheAnalyticMapping) {
  for (const Case& c : kCases) {
    HostTraceSink sink;
    auto check = compute::trace_vector_add(device(), c.n, c.config, sink);
    ASSERT_TRUE(check.is_ok()) << check.message();
    const auto records = sink.records();
    ASSERT_EQ(records.size(), c.n);
    const std::uint64_t per_block = c.config.block.x;
    std::set<std::int64_t> sms;
    for (std::uint64_t i = 0; i < c.n; ++i) {
      const DecodedTrace d = decode(records[i], i, {1, c.n}, c.config);
      if (i >= c.config.total_threads()) {
        ASSERT_EQ(d.writes, 0u) << i;
        continue;
      }
      // i = blockIdx.x * blockDim.x + threadIdx.x
      ASSERT_EQ(d.writes, 1u) << i;
      ASSERT_EQ(d.block.x, i / per_block) << i;
      ASSERT_EQ(d.thread.x, i % per_block) << i;
      ASSERT_EQ(d.warp, static_cast<std::int64_t>((i % per_block) / 32)) << i;
      ASSERT_EQ(d.lane, static_cast<std::int64_t>((i % per_block) % 32)) << i;
      // A GPU names the SM that ran the block; the emulator has none to name.
      if (on_gpu()) {
        ASSERT_GE(d.sm, 0) << i;
        ASSERT_LT(d.sm, device().info().multiprocessors) << i;
        sms.insert(d.sm);
      } else {
        ASSERT_EQ(d.sm, -1) << i;
      }
    }
    // 64 blocks and more spread over a GPU: more than one SM takes part.
    if (on_gpu() && c.config.grid.x >= 64) EXPECT_GT(sms.size(), 1u) << c.config.to_string();
    const TraceSummary summary = summarize(records, c.config);
    const std::uint64_t threads = c.config.total_threads();
    EXPECT_EQ(summary.unwritten, threads >= c.n ? 0 : c.n - threads);
    EXPECT_EQ(summary.idle_threads, threads > c.n ? threads - c.n : 0);
    EXPECT_EQ(summary.written_more, 0u);
  }
}

// vector_add_vectorized against a float64 reference (the sum of two floats, rounded once, as the
// kernel's float add rounds it) on sizes that are not multiples of 4 or of the block, with A, B and
// C shifted by 0-3 floats, so that float4 accesses are misaligned and the element-wise path runs.
// The floats on either side of C must stay as they were.
TEST_P(VectorAddKernels, VectorizedMatchesAFloat64ReferenceOnAwkwardSizesAndShiftedPointers) {
  compute::Device& gpu_or_emulator = device();
  for (const int n : {1, 3, 4, 5, 255, 1001, 4099, (1 << 20) + 7}) {
    for (const int shift : {0, 1, 2, 3}) {
      const std::size_t count = static_cast<std::size_t>(n) + 8;
      std::vector<float> a(count), b(count), c(count, -7.0f);
      lessons::fill_random(a, 3u + static_cast<unsigned>(n));
      lessons::fill_random(b, 5u + static_cast<unsigned>(n));
      auto da = allocate_array<float>(gpu_or_emulator, count);
      auto db = allocate_array<float>(gpu_or_emulator, count);
      auto dc = allocate_array<float>(gpu_or_emulator, count);
      ASSERT_TRUE(da.is_ok() && db.is_ok() && dc.is_ok());
      ASSERT_TRUE(gpu_or_emulator.copy_to_device(da->data(), a.data(), count * 4).is_ok());
      ASSERT_TRUE(gpu_or_emulator.copy_to_device(db->data(), b.data(), count * 4).is_ok());
      ASSERT_TRUE(gpu_or_emulator.copy_to_device(dc->data(), c.data(), count * 4).is_ok());
      const Status launched =
          gpu_or_emulator.kernels().get<kernels::VectorAddKernels>().add_vectorized(
              lessons::vectorized_vector_add_config(static_cast<std::uint64_t>(n)),
              da->data() + shift, db->data() + shift, dc->data() + shift, n);
      ASSERT_TRUE(launched.is_ok()) << launched.message();
      ASSERT_TRUE(gpu_or_emulator.synchronize().is_ok());
      ASSERT_TRUE(gpu_or_emulator.copy_to_host(c.data(), dc->data(), count * 4).is_ok());
      long wrong = 0;
      for (std::size_t i = 0; i < count; ++i) {
        const bool inside = i >= static_cast<std::size_t>(shift) &&
                            i < static_cast<std::size_t>(shift) + static_cast<std::size_t>(n);
        const float expected =
            inside ? static_cast<float>(static_cast<double>(a[i]) + static_cast<double>(b[i]))
                   : -7.0f;
        if (!(c[i] == expected)) ++wrong;
      }
      EXPECT_EQ(wrong, 0) << "n = " << n << ", shifted by " << shift << " floats";
    }
  }
}

THREADLAB_ON_EVERY_DEVICE(VectorAddKernels);

}  // namespace
}  // namespace tl::testing
