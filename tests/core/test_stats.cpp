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

}  // namespace
}  // namespace tl
