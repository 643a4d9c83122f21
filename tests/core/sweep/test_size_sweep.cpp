#include "core/sweep/size_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

namespace tl {
namespace {

using Sizes = std::vector<std::uint64_t>;

TEST(SizeSweep, PowersOfTwoInclusive) {
  EXPECT_EQ(size_sweep(1024, 16384, 1), (Sizes{1024, 2048, 4096, 8192, 16384}));
}

TEST(SizeSweep, StepsPerOctaveAddLogSpacedSizes) {
  // 2^10 × 2^(1/2) = 1448.15…, 2^11 × 2^(1/2) = 2896.3…
  EXPECT_EQ(size_sweep(1024, 4096, 2), (Sizes{1024, 1448, 2048, 2896, 4096}));
  const Sizes quarter = size_sweep(1 << 20, 1 << 22, 4);
  EXPECT_EQ(quarter.size(), 9u);
  EXPECT_TRUE(std::is_sorted(quarter.begin(), quarter.end()));
}

TEST(SizeSweep, BoundsOffTheGridKeepGridValuesInside) {
  EXPECT_EQ(size_sweep(1000, 5000, 1), (Sizes{1024, 2048, 4096}));
}

TEST(SizeSweep, SmallSizesAreDeduplicated) {
  const Sizes sizes = size_sweep(1, 4, 8);
  EXPECT_EQ(sizes.front(), 1u);
  EXPECT_EQ(sizes.back(), 4u);
  EXPECT_EQ(std::adjacent_find(sizes.begin(), sizes.end()), sizes.end());
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
}

TEST(SizeSweep, DegenerateArguments) {
  EXPECT_TRUE(size_sweep(10, 5, 1).empty());
  EXPECT_EQ(size_sweep(0, 4, 0), (Sizes{1, 2, 4}));
  EXPECT_EQ(size_sweep(3, 3, 1), Sizes{});
  EXPECT_EQ(size_sweep(8, 8, 1), (Sizes{8}));
}

TEST(SizeSweep, ReachesTheTopOfTheRangeWithoutOverflow) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const Sizes sizes = size_sweep(std::uint64_t{1} << 62, max, 4);
  ASSERT_FALSE(sizes.empty());
  EXPECT_EQ(sizes.front(), std::uint64_t{1} << 62);
  EXPECT_EQ(sizes.size(), 8u);
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
}

TEST(SizeSweep, ElementsFittingLeaveAFifthOfFreeMemory) {
  EXPECT_EQ(elements_fitting(1000, 8.0), 100u);  // 800 bytes of 1000, 8 bytes each
  EXPECT_EQ(elements_fitting(std::uint64_t{80} << 30, 12.0),
            static_cast<std::uint64_t>(64.0 * (1ull << 30) / 12.0));
  EXPECT_EQ(elements_fitting(0, 4.0), 0u);
  EXPECT_EQ(elements_fitting(1000, 0.0), 0u);
}

}  // namespace
}  // namespace tl
