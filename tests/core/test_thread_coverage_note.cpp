#include "core/thread_coverage_note.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

TEST(CoverageNote, OnePerThreadWarnsOnlyWhenElementsAreLeftOut) {
  const CoverageNote idle = describe_coverage(1024, 1000, 1);
  EXPECT_FALSE(idle.warning);
  EXPECT_EQ(idle.text, "24 threads more than elements");
  const CoverageNote short_grid = describe_coverage(768, 1000, 1);
  EXPECT_TRUE(short_grid.warning);
  EXPECT_EQ(short_grid.text, "232 more elements than threads");
  EXPECT_TRUE(describe_coverage(1000, 1000, 1).text.empty());
}

TEST(CoverageNote, AGridStrideLoopCoversAnyCount) {
  const CoverageNote loop = describe_coverage(1024, 5000, kAnyElementsPerThread);
  EXPECT_FALSE(loop.warning);
  EXPECT_EQ(loop.text, "the loop gives each thread up to 5 elements");
  EXPECT_FALSE(describe_coverage(8192, 5000, kAnyElementsPerThread).warning);
}

TEST(CoverageNote, RegisterTilingCountsEachThreadsShare) {
  // 256³ with 8×8 per thread: 1024 threads cover 65536 elements exactly.
  const CoverageNote tiled = describe_coverage(1024, 65536, 64);
  EXPECT_FALSE(tiled.warning);
  EXPECT_EQ(tiled.text, "each thread computes up to 64 elements");
  const CoverageNote too_few = describe_coverage(512, 65536, 64);
  EXPECT_TRUE(too_few.warning);
  EXPECT_EQ(too_few.text, "32,768 elements get no thread");
}

TEST(CoverageNote, HugeCountsDoNotWrapAround) {
  const CoverageNote huge = describe_coverage(~std::uint64_t{0} / 2, 1000, 64);
  EXPECT_FALSE(huge.warning);
  EXPECT_TRUE(describe_coverage(0, 1000, 1).text.empty());
}

}  // namespace
}  // namespace tl
