// Lesson 6's warp-level kernels on every device (the emulator suite on the CPU emulator, the GPU
// suite on a GPU): the inclusive scan against the CPU's compensated prefix sums on awkward sizes
// and blocks, the warp-vote count against the CPU's count and against one atomic per element, the
// cooperative-groups sum rung, and the traced scan's mapping (every element scanned once).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "compute/trace_sink.hpp"
#include "core/trace.hpp"
#include "device_under_test.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"
#include "lessons/06_reductions/reductions.hpp"
#include "lessons/06_reductions/reductions_runner.hpp"

namespace tl::compute {
namespace {

using lessons::SumData;
using lessons::SumRung;

class WarpLevelKernels : public tl::testing::OnEveryDevice {
 protected:
  std::vector<float> scan(const std::vector<float>& data, std::uint32_t block) {
    const auto n = static_cast<int>(data.size());
    auto in = allocate_array<float>(device(), data.size());
    auto out = allocate_array<float>(device(), data.size());
    auto scratch = allocate_array<float>(
        device(), std::max<std::uint64_t>(1, kernels::scan_scratch_floats(data.size(), block)));
    EXPECT_TRUE(in.is_ok() && out.is_ok() && scratch.is_ok());
    EXPECT_TRUE(device().copy_to_device(in->data(), data.data(), data.size() * 4).is_ok());
    const Status launched = device().kernels().get<kernels::ReductionKernels>().scan(
        block, in->data(), out->data(), n, scratch->data());
    EXPECT_TRUE(launched.is_ok()) << launched.message();
    EXPECT_TRUE(device().synchronize().is_ok());
    std::vector<float> got(data.size(), std::nanf(""));
    EXPECT_TRUE(device().copy_to_host(got.data(), out->data(), data.size() * 4).is_ok());
    return got;
  }

  unsigned int count_above(const std::vector<float>& data, bool ballot, float threshold) {
    auto in = allocate_array<float>(device(), data.size());
    auto count = allocate_array<unsigned int>(device(), 1);
    EXPECT_TRUE(in.is_ok() && count.is_ok());
    EXPECT_TRUE(device().copy_to_device(in->data(), data.data(), data.size() * 4).is_ok());
    EXPECT_TRUE(device().fill_zero(count->data(), 4).is_ok());
    const auto& k = device().kernels().get<kernels::ReductionKernels>();
    const LaunchConfig config = lessons::sum_config(SumRung::kAtomic, data.size(), 64);
    const Status launched = (ballot ? k.count_above_ballot : k.count_above_atomic)(
        config, in->data(), static_cast<int>(data.size()), threshold, count->data());
    EXPECT_TRUE(launched.is_ok()) << launched.message();
    EXPECT_TRUE(device().synchronize().is_ok());
    unsigned int got = 0;
    EXPECT_TRUE(device().copy_to_host(&got, count->data(), 4).is_ok());
    return got;
  }
};

// 1 and 31: less than a warp; 33: a warp and one lane; 1000: several blocks, the last one partial;
// 2^20 + 3: three levels of block totals with blocks of 256 (4097 blocks, then 17, then 1).
constexpr std::uint64_t kScanSizes[] = {1, 31, 33, 1000, (std::uint64_t{1} << 20) + 3};

TEST_P(WarpLevelKernels, ScanMatchesTheCpuPrefixSumsOnAwkwardSizes) {
  for (std::uint64_t n : kScanSizes) {
    for (std::uint32_t block : {32u, 256u, 1024u}) {
      const auto data = lessons::make_sum_data(n, SumData::kUniform, 5);
      const auto got = scan(data, block);
      const auto check = lessons::check_scan(got, data, lessons::scan_depth(n, block));
      EXPECT_TRUE(check.passed) << "n=" << n << " block=" << block << ": " << check.describe();
    }
  }
  EXPECT_EQ(kernels::scan_levels((std::uint64_t{1} << 20) + 3, 256), 3);
}

TEST_P(WarpLevelKernels, ScanOfOnesIsExactlyOneTwoThree) {
  // Every prefix of ones is an integer below 2^24: exact in float, whatever the order of the adds.
  const std::uint64_t n = (std::uint64_t{1} << 20) + 3;
  const auto ones = lessons::make_sum_data(n, SumData::kEqual, 1);
  const auto got = scan(ones, 256);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (got[i] != static_cast<float>(i + 1) && wrong++ == 0) {
      ADD_FAILURE() << "out[" << i << "] = " << got[i];
    }
  }
  EXPECT_EQ(wrong, 0u);
}

TEST_P(WarpLevelKernels, AScanWithALostOffsetFailsItsCheck) {
  // The check must be able to fail: one prefix off by an element's worth.
  const auto data = lessons::make_sum_data(1000, SumData::kUniform, 5);
  auto got = scan(data, 256);
  ASSERT_TRUE(lessons::check_scan(got, data, lessons::scan_depth(1000, 256)).passed);
  got[700] -= data[3];
  const auto check = lessons::check_scan(got, data, lessons::scan_depth(1000, 256));
  EXPECT_FALSE(check.passed);
  EXPECT_EQ(check.first_wrong, 700u);
}

TEST_P(WarpLevelKernels, BallotCountAndAtomicCountAgreeWithTheCpu) {
  for (std::uint64_t n :
       {std::uint64_t{1}, std::uint64_t{31}, std::uint64_t{70}, (std::uint64_t{1} << 16) + 5}) {
    const auto data = lessons::make_sum_data(n, SumData::kUniform, 9);
    const auto expected = static_cast<unsigned int>(std::count_if(
        data.begin(), data.end(), [](float x) { return x > lessons::kCountThreshold; }));
    EXPECT_EQ(count_above(data, true, lessons::kCountThreshold), expected) << "n=" << n;
    EXPECT_EQ(count_above(data, false, lessons::kCountThreshold), expected) << "n=" << n;
  }
}

TEST_P(WarpLevelKernels, CooperativeGroupsRungSumsExactlyOnOnesAndWithinItsBound) {
  for (std::uint64_t n : kScanSizes) {
    for (SumData kind : {SumData::kEqual, SumData::kWide}) {
      const auto data = lessons::make_sum_data(n, kind, 3);
      const LaunchConfig config = lessons::sum_config(SumRung::kCooperativeGroups, n, 256);
      auto in = allocate_array<float>(device(), n);
      auto out = allocate_array<float>(device(), 1);
      ASSERT_TRUE(in.is_ok() && out.is_ok());
      ASSERT_TRUE(device().copy_to_device(in->data(), data.data(), n * 4).is_ok());
      ASSERT_TRUE(device().fill_zero(out->data(), 4).is_ok());
      const Status launched = device().kernels().get<kernels::ReductionKernels>().sum(
          SumRung::kCooperativeGroups, config, in->data(), static_cast<int>(n),
          {out->data(), nullptr, nullptr});
      ASSERT_TRUE(launched.is_ok()) << launched.message();
      ASSERT_TRUE(device().synchronize().is_ok());
      float got = 0;
      ASSERT_TRUE(device().copy_to_host(&got, out->data(), 4).is_ok());
      if (kind == SumData::kEqual) {
        EXPECT_EQ(got, static_cast<float>(n)) << "n=" << n;
      } else {
        const double bound = lessons::sum_error_bound(
            lessons::sum_depth(SumRung::kCooperativeGroups, n, config), lessons::abs_sum(data));
        EXPECT_LE(std::fabs(got - lessons::exact_sum(data)), bound) << "n=" << n;
      }
    }
  }
}

TEST_P(WarpLevelKernels, TracedScanRecordsEveryElementOnceByTheThreadThatScannedIt) {
  lessons::ReductionParams params;
  params.n = 1000;
  params.block = 128;
  params.scan = true;
  HostTraceSink sink;
  auto check = trace_scan(device(), params, sink);
  ASSERT_TRUE(check.is_ok()) << check.message();
  EXPECT_TRUE(check->passed) << check->describe();
  const LaunchConfig config = lessons::sum_config(SumRung::kAtomic, params.n, params.block);
  const TraceSummary summary = summarize(sink.records(), config);
  EXPECT_EQ(summary.unwritten, 0u);
  EXPECT_EQ(summary.written_more, 0u);
  const auto records = sink.records();
  ASSERT_EQ(records.size(), params.n);
  for (std::uint64_t i = 0; i < params.n; i += 97) {
    EXPECT_EQ(records[i].block, i / params.block) << i;
    EXPECT_EQ(records[i].thread_and_sm & kTraceThreadMask, i % params.block) << i;
  }
}

THREADLAB_ON_EVERY_DEVICE(WarpLevelKernels);

}  // namespace
}  // namespace tl::compute
