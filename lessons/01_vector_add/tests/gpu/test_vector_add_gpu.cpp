// The vector-add runner on a real GPU: the error paths a student will hit, a large launch and the
// pinned copies. The kernels' results and traces on every device are
// lessons/01_vector_add/tests/test_vector_add_kernels.cpp.

#include <gtest/gtest.h>

#include <vector>

#include "gpu_test_environment.hpp"
#include "lessons/01_vector_add/vector_add_runner.hpp"

namespace tl::testing {
namespace {

using compute::VectorAddRequest;

class VectorAddGpu : public GpuTest {};

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

TEST_F(VectorAddGpu, MatchesTheCpuReferenceAt2To24Elements) {
  const std::uint64_t n = std::uint64_t{1} << 24;
  auto report = compute::run_vector_add(device(), quick(n, lessons::covering_config(n, 256)));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->on_gpu);
  EXPECT_TRUE(report->check->passed) << report->check->describe();
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

}  // namespace
}  // namespace tl::testing
