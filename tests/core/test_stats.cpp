#include "core/stats.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tl {
namespace {

TEST(Stats, MedianOfOddAndEvenCounts) {
  const std::vector<double> odd{5, 1, 3};
  const TimingStats a = summarize_timings(odd);
  EXPECT_DOUBLE_EQ(a.median_ms, 3);
  EXPECT_DOUBLE_EQ(a.min_ms, 1);
  EXPECT_DOUBLE_EQ(a.max_ms, 5);
  EXPECT_EQ(a.repeats, 3);
  const std::vector<double> even{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(summarize_timings(even).median_ms, 2.5);
}

TEST(Stats, OneSlowOutlierDoesNotMoveTheMedian) {
  const std::vector<double> samples{1.0, 1.1, 0.9, 1.0, 50.0};
  const TimingStats s = summarize_timings(samples);
  EXPECT_DOUBLE_EQ(s.median_ms, 1.0);
  EXPECT_DOUBLE_EQ(s.max_ms, 50.0);
}

TEST(Stats, EmptyInputGivesEmptyStats) {
  EXPECT_TRUE(summarize_timings({}).empty());
}

TEST(Stats, Rates) {
  EXPECT_DOUBLE_EQ(gigabytes_per_second(12e9, 1000.0), 12.0);
  EXPECT_DOUBLE_EQ(gigaflops(2e9, 1.0), 2000.0);
  EXPECT_DOUBLE_EQ(gigabytes_per_second(1e9, 0.0), 0.0);
}

TEST(Stats, StagesAddUpAndAnyMissingStageEmptiesTheSum) {
  const TimingStats copy_in{2.0, 1.5, 3.0, 5};
  const TimingStats kernel{0.5, 0.4, 0.7, 5};
  const TimingStats copy_out{1.0, 0.9, 1.2, 4};
  const TimingStats stages[] = {copy_in, kernel, copy_out};
  const TimingStats total = add_stages(stages);
  EXPECT_DOUBLE_EQ(total.median_ms, 3.5);
  EXPECT_DOUBLE_EQ(total.min_ms, 2.8);
  EXPECT_DOUBLE_EQ(total.max_ms, 4.9);
  EXPECT_EQ(total.repeats, 4);
  const TimingStats with_gap[] = {copy_in, TimingStats{}, copy_out};
  EXPECT_TRUE(add_stages(with_gap).empty());
  EXPECT_TRUE(add_stages({}).empty());
}

// The review's first emulator figure: 4 ms median from runs of 0.82 to 7.97 ms. Marked; a calm
// run's few percent are not. One run has no spread to judge.
TEST(Stats, ASpreadTooWideToReadIsMarked) {
  const std::vector<double> noisy = {0.82, 4.0, 7.97};
  EXPECT_TRUE(spread_too_wide(summarize_timings(noisy)));
  const std::vector<double> calm = {1.00, 1.04, 1.10};
  EXPECT_FALSE(spread_too_wide(summarize_timings(calm)));
  const std::vector<double> one = {5.0};
  EXPECT_FALSE(spread_too_wide(summarize_timings(one)));
}

// The Lab's "yours takes 0.44× as long" for code identical to the reference: two timings whose
// runs overlap cannot be told apart; separated ranges can, whatever their medians.
TEST(Stats, OverlappingRangesCannotBeToldApart) {
  const std::vector<double> yours = {19.5, 44.2, 46.0};
  const std::vector<double> reference = {20.0, 21.0, 45.0};
  EXPECT_FALSE(distinguishable(summarize_timings(yours), summarize_timings(reference)));
  const std::vector<double> slow = {30.0, 31.0, 33.0};
  const std::vector<double> fast = {10.0, 10.5, 11.0};
  EXPECT_TRUE(distinguishable(summarize_timings(slow), summarize_timings(fast)));
  EXPECT_TRUE(distinguishable(summarize_timings(fast), summarize_timings(slow)));
  EXPECT_FALSE(distinguishable(summarize_timings(fast), TimingStats{}));
}

}  // namespace
}  // namespace tl
