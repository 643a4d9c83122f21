// The vector-add kernels on a real GPU: results, traces, and the error paths a student will hit.

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "compute/trace_sink.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"

namespace tl::testing {
namespace {

using compute::HostTraceSink;
using compute::VectorAddRequest;

class VectorAddGpu : public GpuTest {};

using compute::allocate_array;
using compute::Device;

// vector_add_vectorized against a float64 reference (the sum of two floats, rounded once, as the
// kernel's float add rounds it) on sizes that are not multiples of 4 or of the block, with A, B and
// C shifted by 0-3 floats, so that float4 accesses are misaligned and the element-wise path runs.
// The floats on either side of C must stay as they were.
void expect_vectorized_matches_float64(Device& device) {
  for (const int n : {1, 3, 4, 5, 255, 1001, 4099, (1 << 20) + 7}) {
    for (const int shift : {0, 1, 2, 3}) {
      const std::size_t count = static_cast<std::size_t>(n) + 8;
      std::vector<float> a(count), b(count), c(count, -7.0f);
      lessons::fill_random(a, 3u + static_cast<unsigned>(n));
      lessons::fill_random(b, 5u + static_cast<unsigned>(n));
      auto da = allocate_array<float>(device, count);
      auto db = allocate_array<float>(device, count);
      auto dc = allocate_array<float>(device, count);
      ASSERT_TRUE(da.is_ok() && db.is_ok() && dc.is_ok());
      ASSERT_TRUE(device.copy_to_device(da->data(), a.data(), count * 4).is_ok());
      ASSERT_TRUE(device.copy_to_device(db->data(), b.data(), count * 4).is_ok());
      ASSERT_TRUE(device.copy_to_device(dc->data(), c.data(), count * 4).is_ok());
      const Status launched = device.kernels().get<kernels::VectorAddKernels>().add_vectorized(
          lessons::vectorized_vector_add_config(static_cast<std::uint64_t>(n)), da->data() + shift,
          db->data() + shift, dc->data() + shift, n);
      ASSERT_TRUE(launched.is_ok()) << launched.message();
      ASSERT_TRUE(device.synchronize().is_ok());
      ASSERT_TRUE(device.copy_to_host(c.data(), dc->data(), count * 4).is_ok());
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

// CUDA refuses an oversized block at launch; the wording depends on the CUDA version
// (cudaErrorInvalidConfiguration, or cudaErrorInvalidValue as CUDA 13 reports it).
void expect_refused_launch(const Error& error) {
  EXPECT_EQ(error.kind, ErrorKind::kCudaError);
  EXPECT_NE(error.message.find("failed to launch"), std::string::npos) << error.message;
  EXPECT_TRUE(error.message.find("cudaErrorInvalidConfiguration") != std::string::npos ||
              error.message.find("cudaErrorInvalidValue") != std::string::npos)
      << error.message;
}

VectorAddRequest quick(std::uint64_t n, LaunchConfig config) {
  VectorAddRequest request;
  request.n = n;
  request.config = config;
  request.repeats = 2;
  request.time_cpu = false;
  return request;
}

TEST_F(VectorAddGpu, MatchesTheCpuReference) {
  for (auto [n, config] : std::vector<std::pair<std::uint64_t, LaunchConfig>>{
           {1, {{1, 1, 1}, {1, 1, 1}}},
           {1000, {{1, 1, 1}, {1000, 1, 1}}},
           {4097, {{17, 1, 1}, {256, 1, 1}}},
           {12345, {{13, 1, 1}, {1000, 1, 1}}},
           {std::uint64_t{1} << 24, lessons::covering_config(std::uint64_t{1} << 24, 256)}}) {
    auto report = compute::run_vector_add(device(), quick(n, config));
    ASSERT_TRUE(report.is_ok()) << report.message();
    EXPECT_TRUE(report->on_gpu);
    EXPECT_TRUE(report->check->passed)
        << n << " " << config.to_string() << ": " << report->check->describe();
  }
}

TEST_F(VectorAddGpu, VectorizedKernelMatchesAFloat64ReferenceOnAwkwardSizesAndShiftedPointers) {
  expect_vectorized_matches_float64(device());
}

// The runner times and checks the vectorized kernel beside the lesson's, on the same inputs.
TEST_F(VectorAddGpu, TheRunnerChecksTheVectorizedKernelToo) {
  for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{4099}, std::uint64_t{1} << 22}) {
    auto report = compute::run_vector_add(device(), quick(n, lessons::covering_config(n, 256)));
    ASSERT_TRUE(report.is_ok()) << report.message();
    ASSERT_TRUE(report->check_vectorized.has_value());
    EXPECT_TRUE(report->check_vectorized->passed)
        << n << ": " << report->check_vectorized->describe();
    EXPECT_EQ(report->kernel_vectorized.repeats, 2);
  }
}

// The second end-to-end series: the same copies from and to cudaMallocHost memory.
TEST_F(VectorAddGpu, TimesTheCopiesFromPinnedMemoryToo) {
  const std::uint64_t n = std::uint64_t{1} << 22;
  auto report = compute::run_vector_add(device(), quick(n, lessons::covering_config(n, 256)));
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->has_pinned()) << report->pinned_unavailable;
  EXPECT_EQ(report->host_to_device_pinned.repeats, 2);
  EXPECT_EQ(report->device_to_host_pinned.repeats, 2);
  EXPECT_GT(report->host_to_device_pinned.median_ms, 0.0);
  EXPECT_TRUE(report->check->passed) << report->check->describe();
}

TEST_F(VectorAddGpu, GridTooSmallLeavesTheTailUnwritten) {
  auto report = compute::run_vector_add(device(), quick(1000, {{3, 1, 1}, {256, 1, 1}}));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->check->passed);
  EXPECT_EQ(report->check->first_wrong, 768u);
  EXPECT_EQ(report->check->wrong_count, 232u);
}

TEST_F(VectorAddGpu, TheArticlesOneBlockOfHalfAMillionFailsWithCudasOwnErrorAndTheDeviceRecovers) {
  auto failed =
      compute::run_vector_add(device(), quick(500000, lessons::single_block_config(500000)));
  ASSERT_FALSE(failed.is_ok());
  expect_refused_launch(failed.error());
  auto again =
      compute::run_vector_add(device(), quick(500000, lessons::covering_config(500000, 256)));
  ASSERT_TRUE(again.is_ok()) << again.message();
  EXPECT_TRUE(again->check->passed);
}

TEST_F(VectorAddGpu, AllocationBeyondFreeMemoryIsAClearErrorAndTheDeviceRecovers) {
  compute::Device& gpu = device();
  auto memory = gpu.memory_info();
  ASSERT_TRUE(memory.is_ok());
  auto too_big = gpu.allocate(memory->total_bytes * 2);
  ASSERT_FALSE(too_big.is_ok());
  EXPECT_EQ(too_big.error().kind, ErrorKind::kOutOfMemory) << too_big.message();
  auto report =
      compute::run_vector_add(gpu, quick(1 << 20, lessons::covering_config(1 << 20, 256)));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->check->passed);
}

TEST_F(VectorAddGpu, TraceEqualsTheAnalyticMappingAndNamesRealSms) {
  const std::uint64_t n = 100000;
  const LaunchConfig config{{103, 1, 1},
                            {1000, 1, 1}};  // 3000 idle threads, block not a multiple of 32
  HostTraceSink sink;
  auto check = compute::trace_vector_add(device(), n, config, sink);
  ASSERT_TRUE(check.is_ok()) << check.message();
  EXPECT_TRUE(check->passed);
  std::set<std::int64_t> sms;
  for (std::uint64_t i = 0; i < n; ++i) {
    const DecodedTrace d = decode(sink.records()[i], i, {1, n}, config);
    ASSERT_EQ(d.writes, 1u) << i;
    ASSERT_EQ(d.block.x, i / 1000) << i;
    ASSERT_EQ(d.thread.x, i % 1000) << i;
    ASSERT_EQ(d.lane, static_cast<std::int64_t>((i % 1000) % 32)) << i;
    ASSERT_GE(d.sm, 0) << i;
    ASSERT_LT(d.sm, device().info().multiprocessors) << i;
    sms.insert(d.sm);
  }
  // 97 blocks spread over the GPU: more than one SM must have taken part.
  EXPECT_GT(sms.size(), 1u);
  const TraceSummary summary = summarize(sink.records(), config);
  EXPECT_EQ(summary.idle_threads, 103u * 1000u - n);
  EXPECT_EQ(summary.unwritten, 0u);
}

}  // namespace
}  // namespace tl::testing
