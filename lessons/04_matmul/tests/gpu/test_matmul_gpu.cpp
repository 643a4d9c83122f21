// The matmul kernels and cuBLAS on a real GPU: results against the CPU reference and against each
// other, traces, a large run, and the error paths a student will hit.

#include <gtest/gtest.h>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/04_matmul/matmul_reference.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"

namespace tl::testing {
namespace {

using compute::HostTraceSink;
using compute::MatmulRequest;
using compute::MatmulTiming;
using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

const MatmulVariant kNaive16{MatmulKernel::kNaive, 16, {16, 16, 1}};
const MatmulVariant kNaiveOdd{MatmulKernel::kNaive, 16, {7, 3, 1}};
const MatmulVariant kTiled8{MatmulKernel::kTiled, 8, {}};
const MatmulVariant kTiled16{MatmulKernel::kTiled, 16, {}};
const MatmulVariant kTiled32{MatmulKernel::kTiled, 32, {}};

class MatmulGpu : public GpuTest {};

MatmulRequest quick(MatmulSize size, std::vector<MatmulVariant> variants) {
  MatmulRequest request;
  request.size = size;
  request.variants = std::move(variants);
  request.warmup = 1;
  request.repeats = 2;
  request.time_cpu = false;
  return request;
}

void expect_all_passed(const compute::MatmulReport& report) {
  for (const MatmulTiming& row : report.kernels) {
    ASSERT_TRUE(row.ran()) << row.name << ": " << row.skipped;
    ASSERT_TRUE(row.check.has_value()) << row.name;
    EXPECT_TRUE(row.check->passed)
        << report.size.to_string() << " " << row.name << ": " << row.check->describe();
    EXPECT_GT(row.gflops, 0) << row.name;
  }
}

TEST_F(MatmulGpu, EveryKernelAndCublasMatchTheCpuReference) {
  for (MatmulSize size : {MatmulSize{37, 53, 29}, MatmulSize{1, 1, 1}, MatmulSize{64, 64, 64},
                          MatmulSize{129, 257, 65}, MatmulSize{70, 3, 1}}) {
    auto report = compute::run_matmul(
        device(), quick(size, {kNaive16, kNaiveOdd, kTiled8, kTiled16, kTiled32}));
    ASSERT_TRUE(report.is_ok()) << size.to_string() << ": " << report.message();
    EXPECT_TRUE(report->on_gpu);
    EXPECT_EQ(report->check_reference, "CPU cache-blocked reference");
    expect_all_passed(*report);
    // cuBLAS, row-major through the transpose trick, agrees with the CPU.
    ASSERT_TRUE(report->cublas.ran()) << report->cublas.skipped;
    ASSERT_TRUE(report->cublas.check.has_value());
    EXPECT_TRUE(report->cublas.check->passed)
        << size.to_string() << " cuBLAS: " << report->cublas.check->describe();
  }
}

TEST_F(MatmulGpu, ALargeSquareProductWithCpuTimings) {
  MatmulRequest request = quick({1024, 1024, 1024}, {kNaive16, kTiled16, kTiled32});
  request.time_cpu = true;  // the naive CPU loop is predicted too slow and skipped with a reason
  auto report = compute::run_matmul(device(), request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  expect_all_passed(*report);
  ASSERT_TRUE(report->cublas.ran()) << report->cublas.skipped;
  EXPECT_GT(report->cublas.gflops, 0);
  const std::string naive_skip =
      lessons::cpu_reference_skip_reason(report->size, lessons::CpuReference::kNaive, 1);
  EXPECT_EQ(report->cpu_naive.skipped, naive_skip);
  if (report->check_reference == "CPU cache-blocked reference") {
    EXPECT_TRUE(report->cpu_blocked.ran()) << report->cpu_blocked.skipped;
  }
}

TEST_F(MatmulGpu, CublasBecomesTheReferenceWhenTheCpuWouldBeTooSlow) {
  const MatmulSize size{4096, 4096, 4096};
  auto report = compute::run_matmul(device(), quick(size, {kTiled32}));
  ASSERT_TRUE(report.is_ok()) << report.message();
  const bool cpu_too_slow =
      !lessons::cpu_reference_skip_reason(size, lessons::CpuReference::kBlocked,
                                          lessons::matmul_reference_threads(size))
           .empty();
  if (cpu_too_slow) {
    EXPECT_EQ(report->check_reference.rfind("cuBLAS SGEMM", 0), 0u) << report->check_reference;
    EXPECT_FALSE(report->cublas.check.has_value());  // not checked against itself
  }
  expect_all_passed(*report);
}

TEST_F(MatmulGpu, TraceEqualsTheAnalyticMappingAndNamesRealSms) {
  const MatmulSize size{100, 130, 40};
  for (const MatmulVariant& variant : {kNaive16, kNaiveOdd, kTiled8, kTiled16, kTiled32}) {
    SCOPED_TRACE(variant.to_string());
    const LaunchConfig config = lessons::matmul_covering_config(size, variant);
    HostTraceSink sink;
    auto traced = compute::trace_matmul(device(), size, variant, config, sink);
    ASSERT_TRUE(traced.is_ok()) << traced.message();
    ASSERT_TRUE(traced->check.has_value());
    EXPECT_TRUE(traced->check->passed) << traced->check->describe();
    const std::uint32_t bx = config.block.x, by = config.block.y;
    for (std::uint32_t row = 0; row < size.m; ++row) {
      for (std::uint32_t col = 0; col < size.n; ++col) {
        const std::uint64_t element = std::uint64_t{row} * size.n + col;
        const DecodedTrace d = decode(sink.records()[element], element, {size.m, size.n}, config);
        ASSERT_EQ(d.writes, 1u) << row << "," << col;
        ASSERT_EQ(d.block, (Dim3{col / bx, row / by, 0})) << row << "," << col;
        ASSERT_EQ(d.thread, (Dim3{col % bx, row % by, 0})) << row << "," << col;
        ASSERT_GE(d.sm, 0);
        ASSERT_LT(d.sm, device().info().multiprocessors);
      }
    }
    const TraceSummary summary = summarize(sink.records(), config);
    EXPECT_EQ(summary.unwritten, 0u);
    EXPECT_EQ(summary.written_more, 0u);
    EXPECT_EQ(summary.idle_threads, config.total_threads() - size.c_elements());
  }
}

TEST_F(MatmulGpu, GridTooSmallLeavesElementsUnwritten) {
  const MatmulSize size{37, 53, 29};
  MatmulRequest request = quick(size, {kTiled16, kNaive16});
  request.grid = Dim3{2, 2, 1};  // covers rows and columns 0..31: 937 elements missed
  auto report = compute::run_matmul(device(), request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const MatmulTiming& row : report->kernels) {
    ASSERT_TRUE(row.check.has_value());
    EXPECT_FALSE(row.check->passed) << row.name;
    EXPECT_EQ(row.check->wrong_count, 937u) << row.name;
    EXPECT_EQ(row.check->first_wrong_row, 0u);
    EXPECT_EQ(row.check->first_wrong_col, 32u);
  }
  HostTraceSink sink;
  const LaunchConfig config{{2, 2, 1}, {16, 16, 1}};
  auto traced = compute::trace_matmul(device(), size, kTiled16, config, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_EQ(summarize(sink.records(), config).unwritten, 937u);
}

TEST_F(MatmulGpu, RefusedLaunchesSayWhyAndTheDeviceRecovers) {
  const MatmulSize size{64, 64, 64};
  // 64×32 = 2048 threads per block: CUDA refuses it at launch (the wording depends on the CUDA
  // version: cudaErrorInvalidConfiguration, or cudaErrorInvalidValue as CUDA 13 reports it).
  auto oversized =
      compute::run_matmul(device(), quick(size, {{MatmulKernel::kNaive, 16, {64, 32, 1}}}));
  ASSERT_FALSE(oversized.is_ok());
  EXPECT_EQ(oversized.error().kind, ErrorKind::kCudaError);
  EXPECT_NE(oversized.message().find("failed to launch"), std::string::npos) << oversized.message();
  EXPECT_TRUE(oversized.message().find("cudaErrorInvalidConfiguration") != std::string::npos ||
              oversized.message().find("cudaErrorInvalidValue") != std::string::npos)
      << oversized.message();
  // The tiled kernel with a block that does not match its tile is refused before launching.
  HostTraceSink sink;
  auto mismatched = compute::trace_matmul(device(), size, kTiled32, {{4, 4, 1}, {16, 16, 1}}, sink);
  ASSERT_FALSE(mismatched.is_ok());
  EXPECT_EQ(mismatched.error().kind, ErrorKind::kInvalidArgument);

  auto again = compute::run_matmul(device(), quick(size, {kNaive16, kTiled32}));
  ASSERT_TRUE(again.is_ok()) << again.message();
  expect_all_passed(*again);
  EXPECT_TRUE(again->cublas.check->passed);
}

}  // namespace
}  // namespace tl::testing
