// Lesson 6's kernels on a real GPU: every sum rung on awkward sizes, all-equal data and 2^28
// floats within its bound (lessons::sum_depth), CUB's sum, the scan and CUB's scan, the ballot
// count, the histograms, the softmax and the traced launches. No timing assertions: `threadlab
// bench --suite perf` reports the targets.

#include <gtest/gtest.h>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"
#include "lessons/06_reductions/reductions.hpp"
#include "lessons/06_reductions/reductions_runner.hpp"

namespace tl::testing {
namespace {

using compute::ReductionsRequest;
using lessons::SumData;
using lessons::SumRung;

class ReductionsGpu : public GpuTest {};

ReductionsRequest quick(std::uint64_t n, SumData data) {
  ReductionsRequest request;
  request.params.n = n;
  request.params.data = data;
  request.params.rows = 33;
  request.params.cols = 4096;
  request.repeats = 1;
  request.warmup = 0;
  request.time_cpu = false;
  return request;
}

TEST_F(ReductionsGpu, EveryRungPassesOnAwkwardSizesAndData) {
  for (std::uint64_t n :
       {std::uint64_t{1}, std::uint64_t{31}, std::uint64_t{33}, (std::uint64_t{1} << 20) + 7}) {
    for (SumData data :
         {SumData::kUniform, SumData::kEqual, SumData::kAlternating, SumData::kWide}) {
      auto report = compute::run_reductions(device(), quick(n, data));
      ASSERT_TRUE(report.is_ok()) << report.message();
      EXPECT_TRUE(report->on_gpu);
      EXPECT_TRUE(report->passed())
          << n << " " << lessons::to_string(data) << ": " << report->describe_check();
      ASSERT_TRUE(report->library_check.has_value()) << report->library_absent;
      ASSERT_TRUE(report->scan.library_check.has_value()) << "no CUB scan on the GPU";
      if (data == SumData::kEqual) {
        for (const auto& rung : report->rungs) {
          EXPECT_EQ(rung.check.value, static_cast<double>(n)) << lessons::to_string(rung.rung);
        }
      }
    }
  }
}

// The scan and CUB's DeviceScan::InclusiveSum on the sizes of the lesson's scan tests, every
// prefix within its bound, and the ballot count exact (its check is part of passed()).
TEST_F(ReductionsGpu, TheScanAndCubsScanOnAwkwardSizes) {
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{31}, std::uint64_t{33},
                          std::uint64_t{1000}, (std::uint64_t{1} << 20) + 3}) {
    auto report = compute::run_reductions(device(), quick(n, SumData::kUniform));
    ASSERT_TRUE(report.is_ok()) << report.message();
    EXPECT_TRUE(report->scan.check.passed) << n << ": " << report->scan.check.describe();
    ASSERT_TRUE(report->scan.library_check.has_value());
    EXPECT_TRUE(report->scan.library_check->passed)
        << n << ": " << report->scan.library_check->describe();
    EXPECT_TRUE(report->count.passed()) << n << ": " << report->describe_check();
  }
}

TEST_F(ReductionsGpu, TwoToThe28Floats) {
  auto report = compute::run_reductions(device(), quick(std::uint64_t{1} << 28, SumData::kUniform));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->passed()) << report->describe_check();
  // All 1.0: the trees and CUB are exact; one float accumulator (the atomic rung) stops at 2^24.
  auto ones = compute::run_reductions(device(), quick(std::uint64_t{1} << 28, SumData::kEqual));
  ASSERT_TRUE(ones.is_ok()) << ones.message();
  for (const auto& rung : ones->rungs) {
    if (rung.rung == SumRung::kAtomic) {
      EXPECT_EQ(rung.check.value, 16777216.0);
    } else {
      EXPECT_EQ(rung.check.value, 268435456.0) << lessons::to_string(rung.rung);
    }
  }
  EXPECT_EQ(ones->library_check->value, 268435456.0);
}

// `in` 1, 2 or 3 floats past a 16-byte boundary (`d_x + 1`): a float4 load through it faults with
// "misaligned address" on a GPU (claims review item 16: the kernel once did, as
// docs/data/sum-vectorized-alignment-h200-2026-12-01.log shows), so the vectorized rung must read
// one float at a time there. The emulator's test of the same cannot fail: a CPU loads a misaligned
// float4 without complaint.
TEST_F(ReductionsGpu, TheVectorizedRungSumsAnInputThatIsNotSixteenByteAligned) {
  const auto& table = device().kernels().get<kernels::ReductionKernels>();
  for (std::uint64_t n : {std::uint64_t{33}, (std::uint64_t{1} << 20) + 7}) {
    const auto ones = lessons::make_sum_data(n, SumData::kEqual, 1);
    const LaunchConfig config = lessons::sum_config(SumRung::kVectorized, n, 256);
    auto in = compute::allocate_array<float>(device(), n + 3);
    auto out = compute::allocate_array<float>(device(), 1);
    auto sums = compute::allocate_array<float>(device(), config.grid.x);
    auto done = compute::allocate_array<unsigned int>(device(), 1);
    ASSERT_TRUE(in.is_ok() && out.is_ok() && sums.is_ok() && done.is_ok());
    ASSERT_TRUE(device().fill_zero(done->data(), 4).is_ok());
    for (std::uint64_t offset = 1; offset <= 3; ++offset) {
      ASSERT_TRUE(device().copy_to_device(in->data() + offset, ones.data(), n * 4).is_ok());
      const Status launched =
          table.sum(SumRung::kVectorized, config, in->data() + offset, static_cast<int>(n),
                    {out->data(), sums->data(), done->data()});
      ASSERT_TRUE(launched.is_ok())
          << "n=" << n << " offset " << offset << ": " << launched.message();
      const Status finished = device().synchronize();
      ASSERT_TRUE(finished.is_ok())
          << "n=" << n << " offset " << offset << ": " << finished.message();
      float value = 0;
      ASSERT_TRUE(device().copy_to_host(&value, out->data(), 4).is_ok());
      EXPECT_EQ(value, static_cast<float>(n)) << "n=" << n << " offset " << offset;
    }
  }
}

TEST_F(ReductionsGpu, TracedLaunchesRecordEveryElementOnce) {
  for (SumRung rung : kernels::kSumRungs) {
    lessons::ReductionParams params;
    // Many blocks and a partial last one, small enough for compute-sanitizer's racecheck and
    // synccheck, which run every test named *Trace* (tools/gpu/pass.sh).
    params.n = 33 * 1024 + 7;
    params.rung = rung;
    compute::HostTraceSink sink;
    const LaunchConfig config = lessons::sum_config(rung, params.n, params.block);
    auto check = compute::trace_reduction(device(), params, config, sink);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed) << check->describe();
    const TraceSummary summary = summarize(sink.records(), config);
    EXPECT_EQ(summary.unwritten, 0u) << lessons::to_string(rung);
    EXPECT_EQ(summary.written_more, 0u) << lessons::to_string(rung);
  }
}

TEST_F(ReductionsGpu, SoftmaxOverflowsNaivelyAndNotStably) {
  auto report = compute::run_reductions(device(), quick(1024, SumData::kUniform));
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_GT(report->softmax.naive_large.not_finite, 0u);
  EXPECT_TRUE(report->softmax.stable_ordinary.passed) << report->softmax.stable_ordinary.describe();
  EXPECT_TRUE(report->softmax.stable_large.passed) << report->softmax.stable_large.describe();
}

}  // namespace
}  // namespace tl::testing
