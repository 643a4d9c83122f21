// Lesson 6's kernels on the CPU emulator: every sum rung on awkward sizes and data against the
// float64 sum within the rung's own bound (lessons::sum_depth), exactly on all-equal data; the
// vectorized rung's last-block hand-off over repeated launches; the histograms exactly; the
// softmax's overflow and its fix; the traces and the recorded trees; the whole lesson run.

#include <gtest/gtest.h>

#include <cmath>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"
#include "lessons/06_reductions/reductions.hpp"
#include "lessons/06_reductions/reductions_runner.hpp"

namespace tl::compute {
namespace {

using lessons::SumData;
using lessons::SumRung;

class ReductionsEmulated : public ::testing::Test {
 protected:
  // One launch of `rung` over `data`, as the runner launches it.
  float sum(SumRung rung, const std::vector<float>& data, std::uint32_t block = 256,
            std::uint32_t grid = 0) {
    const LaunchConfig config = lessons::sum_config(rung, data.size(), block, grid);
    auto in = allocate_array<float>(*device_, data.size());
    EXPECT_TRUE(in.is_ok());
    EXPECT_TRUE(device_->copy_to_device(in->data(), data.data(), data.size() * 4).is_ok());
    auto out = allocate_array<float>(*device_, 1);
    auto sums = allocate_array<float>(*device_, config.grid.x);
    auto done = allocate_array<unsigned int>(*device_, 1);
    EXPECT_TRUE(device_->fill_zero(done->data(), 4).is_ok());
    float value = std::nanf("");
    // Twice: the vectorized rung must leave its finished-block count at 0 for the next launch.
    for (int launch = 0; launch < 2; ++launch) {
      EXPECT_TRUE(device_->fill_zero(out->data(), 4).is_ok());
      const Status launched = device_->kernels().get<kernels::ReductionKernels>().sum(
          rung, config, in->data(), static_cast<int>(data.size()),
          {out->data(), sums->data(), done->data()});
      EXPECT_TRUE(launched.is_ok()) << launched.message();
      EXPECT_TRUE(device_->synchronize().is_ok());
      EXPECT_TRUE(device_->copy_to_host(&value, out->data(), 4).is_ok());
    }
    unsigned int left = 1;
    EXPECT_TRUE(device_->copy_to_host(&left, done->data(), 4).is_ok());
    EXPECT_EQ(left, 0u) << lessons::to_string(rung);
    return value;
  }

  std::unique_ptr<Device> device_ = make_emulator_device();
};

constexpr std::uint64_t kAwkwardSizes[] = {1, 31, 33, (std::uint64_t{1} << 20) + 7};

TEST_F(ReductionsEmulated, EveryRungOnEqualDataIsExact) {
  // Every partial sum of 1.0s is an integer below 2^24: exact in float in any order.
  for (SumRung rung : kernels::kSumRungs) {
    for (std::uint64_t n : kAwkwardSizes) {
      const auto ones = lessons::make_sum_data(n, SumData::kEqual, 1);
      EXPECT_EQ(sum(rung, ones), static_cast<float>(n)) << lessons::to_string(rung) << " n=" << n;
    }
  }
}

TEST_F(ReductionsEmulated, EveryRungStaysWithinItsBoundOnAwkwardData) {
  // Tolerance: lessons::sum_error_bound(depth of the rung's tree, sum |x|), stated in
  // reductions.hpp.
  for (SumData kind : {SumData::kUniform, SumData::kAlternating, SumData::kWide}) {
    for (std::uint64_t n : kAwkwardSizes) {
      const auto data = lessons::make_sum_data(n, kind, 7);
      const double exact = lessons::exact_sum(data);
      const double magnitude = lessons::abs_sum(data);
      for (SumRung rung : kernels::kSumRungs) {
        const LaunchConfig config = lessons::sum_config(rung, n, 256);
        const double bound =
            lessons::sum_error_bound(lessons::sum_depth(rung, n, config), magnitude);
        const float got = sum(rung, data);
        EXPECT_LE(std::fabs(got - exact), bound)
            << lessons::to_string(rung) << " n=" << n << " data=" << lessons::to_string(kind);
      }
    }
  }
}

TEST_F(ReductionsEmulated, EveryBlockSizeAndAGridTooSmallForTheVectorizedLoop) {
  const auto ones = lessons::make_sum_data(10007, SumData::kEqual, 1);
  for (std::uint32_t block : {32u, 64u, 128u, 512u, 1024u}) {
    for (SumRung rung : kernels::kSumRungs) {
      EXPECT_EQ(sum(rung, ones, block), 10007.0f) << lessons::to_string(rung) << " " << block;
    }
  }
  // One block of 32 threads walks all 10007 elements.
  EXPECT_EQ(sum(SumRung::kVectorized, ones, 32, 1), 10007.0f);
}

// `in` one float past a 16-byte boundary (d_x + 1): the vectorized rung must not load float4s
// through it (a GPU faults with "misaligned address") and reads one float at a time instead. This
// checks the sum only: a CPU loads a misaligned float4 without complaint (the kernel without the
// check passes here too, and UBSan does not flag its whole-float4 copies), so the load itself is
// checked on the GPU (ReductionsGpu.TheVectorizedRungSumsAnInputThatIsNotSixteenByteAligned).
TEST_F(ReductionsEmulated, TheVectorizedRungSumsAnInputThatIsNotSixteenByteAligned) {
  for (std::uint64_t n : kAwkwardSizes) {
    const auto ones = lessons::make_sum_data(n, SumData::kEqual, 1);
    const LaunchConfig config = lessons::sum_config(SumRung::kVectorized, n, 256);
    auto in = allocate_array<float>(*device_, n + 1);
    ASSERT_TRUE(in.is_ok());
    ASSERT_TRUE(device_->copy_to_device(in->data() + 1, ones.data(), n * 4).is_ok());
    auto out = allocate_array<float>(*device_, 1);
    auto sums = allocate_array<float>(*device_, config.grid.x);
    auto done = allocate_array<unsigned int>(*device_, 1);
    ASSERT_TRUE(device_->fill_zero(done->data(), 4).is_ok());
    const Status launched = device_->kernels().get<kernels::ReductionKernels>().sum(
        SumRung::kVectorized, config, in->data() + 1, static_cast<int>(n),
        {out->data(), sums->data(), done->data()});
    ASSERT_TRUE(launched.is_ok()) << launched.message();
    ASSERT_TRUE(device_->synchronize().is_ok());
    float value = 0;
    ASSERT_TRUE(device_->copy_to_host(&value, out->data(), 4).is_ok());
    EXPECT_EQ(value, static_cast<float>(n)) << "n=" << n;
  }
}

TEST_F(ReductionsEmulated, DroppingAnElementIsCaught) {
  // A grid one block short leaves the last block's elements unsummed: the check sees it.
  const auto data = lessons::make_sum_data(1000, SumData::kUniform, 3);
  const float got = sum(SumRung::kSequential, data, 256, 3);
  const LaunchConfig config = lessons::sum_config(SumRung::kSequential, 1000, 256);
  const auto check = lessons::check_sum(
      "short grid", got, lessons::exact_sum(data),
      lessons::sum_error_bound(lessons::sum_depth(SumRung::kSequential, 1000, config),
                               lessons::abs_sum(data)));
  EXPECT_FALSE(check.passed) << check.describe();
}

TEST_F(ReductionsEmulated, RefusesBlocksTheTreesCannotHalve) {
  auto out = allocate_array<float>(*device_, 1);
  float in = 1;
  for (Dim3 block : {Dim3{96, 1, 1}, Dim3{16, 1, 1}, Dim3{32, 2, 1}}) {
    const Status refused = device_->kernels().get<kernels::ReductionKernels>().sum(
        SumRung::kSequential, {{1, 1, 1}, block}, &in, 1, {out->data(), nullptr, nullptr});
    EXPECT_FALSE(refused.is_ok()) << to_string(block);
  }
}

TEST_F(ReductionsEmulated, TracedLaunchRecordsEveryElementOnceAndTheTree) {
  for (SumRung rung : kernels::kSumRungs) {
    lessons::ReductionParams params;
    params.n = 1000;
    params.rung = rung;
    HostTraceSink sink;
    const LaunchConfig config = lessons::sum_config(rung, params.n, params.block);
    auto check = trace_reduction(*device_, params, config, sink);
    ASSERT_TRUE(check.is_ok()) << check.message();
    EXPECT_TRUE(check->passed) << check->describe();
    const TraceSummary summary = summarize(sink.records(), config);
    EXPECT_EQ(summary.unwritten, 0u) << lessons::to_string(rung);
    EXPECT_EQ(summary.written_more, 0u) << lessons::to_string(rung);
  }
  auto tree = record_tree(*device_, SumRung::kSequential, 64, SumData::kUniform);
  ASSERT_TRUE(tree.is_ok()) << tree.message();
  ASSERT_EQ(tree->levels.size(), 6u);
  EXPECT_EQ(tree->levels[0].size(), 32u);
  EXPECT_EQ(tree->levels[0][5].dst, 5);
  EXPECT_EQ(tree->levels[0][5].src, 37);
  auto interleaved = record_tree(*device_, SumRung::kInterleaved, 64, SumData::kUniform);
  ASSERT_TRUE(interleaved.is_ok());
  EXPECT_EQ(interleaved->levels[1].size(), 16u);  // threads 0, 4, 8, ..., 60
  EXPECT_EQ(interleaved->levels[1][1].thread, 4);
  auto shuffle = record_tree(*device_, SumRung::kWarpShuffle, 64, SumData::kUniform);
  ASSERT_TRUE(shuffle.is_ok());
  // One level adds partial[tid + 32], then five shuffles: 16, 8, 4, 2, 1 lanes.
  ASSERT_EQ(shuffle->levels.size(), 6u);
  EXPECT_EQ(shuffle->levels[5].size(), 1u);
  auto vectorized = record_tree(*device_, SumRung::kVectorized, 64, SumData::kUniform);
  ASSERT_TRUE(vectorized.is_ok());
  EXPECT_EQ(vectorized->levels[0].size(), 32u);  // 16 lanes in each of the two warps
  // Across the two warps' sums only the last shuffle (offset 1, level 9) has a lane whose partner
  // holds a warp sum: lane 0 adds warp 1's sum, which thread 32 had. Levels 5-8 stay empty.
  ASSERT_EQ(vectorized->levels.size(), 10u);
  EXPECT_TRUE(vectorized->levels[5].empty());
  ASSERT_EQ(vectorized->levels[9].size(), 1u);
  EXPECT_EQ(vectorized->levels[9][0].dst, 0);
  EXPECT_EQ(vectorized->levels[9][0].src, 32);
}

TEST_F(ReductionsEmulated, TheWholeLessonRunPassesItsChecks) {
  ReductionsRequest request;
  request.params.n = 33333;
  request.params.rows = 7;
  request.params.cols = 1000;  // not a multiple of 4: the softmax's uncached path
  request.repeats = 1;
  request.time_cpu = false;
  auto report = run_reductions(*device_, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->passed()) << report->describe_check();
  EXPECT_EQ(report->rungs.size(), std::size(kernels::kSumRungs));
  EXPECT_FALSE(report->library_absent.empty()) << "no CUB on the emulator";
  ASSERT_EQ(report->histograms.size(), 2u);
  // The naive softmax overflows on logits near 90 and the stable one does not.
  EXPECT_GT(report->softmax.naive_large.not_finite, 0u);
  EXPECT_TRUE(report->softmax.naive_ordinary.passed) << report->softmax.naive_ordinary.describe();
  EXPECT_TRUE(report->softmax.stable_large.passed) << report->softmax.stable_large.describe();
  EXPECT_EQ(report->trees.size(), std::size(kernels::kSumRungs) - 1);
  EXPECT_EQ(report->banks.size(), report->trees.size());
  EXPECT_FALSE(report->contention.empty());
}

// The grid parameter is the vectorized rung's alone (the benchmark fills the device with it):
// the one-pass rungs timed beside it keep a grid that gives every element a thread.
TEST_F(ReductionsEmulated, AGridForTheVectorizedRungLeavesTheOtherRungsWhole) {
  ReductionsRequest request;
  request.params.n = 33333;
  request.params.grid = 3;
  request.params.rows = 7;
  request.params.cols = 64;
  request.repeats = 1;
  request.time_cpu = false;
  auto report = run_reductions(*device_, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->passed()) << report->describe_check();
}

TEST_F(ReductionsEmulated, CachedSoftmaxPathMatchesTheReference) {
  ReductionsRequest request;
  request.params.n = 1024;
  request.params.rows = 5;
  request.params.cols = 4096;  // 16 floats per thread of 256: the register-cached path
  request.repeats = 1;
  request.time_cpu = false;
  auto report = run_reductions(*device_, request);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->softmax.stable_ordinary.passed) << report->softmax.stable_ordinary.describe();
  EXPECT_TRUE(report->softmax.stable_large.passed) << report->softmax.stable_large.describe();
  EXPECT_GT(report->softmax.naive_large.not_finite, 0u);
}

}  // namespace
}  // namespace tl::compute
