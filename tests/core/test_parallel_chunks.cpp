#include "core/parallel_chunks.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace tl {
namespace {

TEST(ParallelChunks, CoversEveryElementOnceAcrossThreads) {
  std::vector<std::atomic<int>> visits(100000);
  const unsigned used = for_each_chunk(visits.size(), 4, 1000, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) visits[i].fetch_add(1);
  });
  EXPECT_EQ(used, 4u);
  for (std::size_t i = 0; i < visits.size(); ++i) ASSERT_EQ(visits[i].load(), 1) << i;
}

TEST(ParallelChunks, FewElementsStayOnTheCallingThread) {
  std::size_t seen_begin = 99;
  std::size_t seen_end = 0;
  EXPECT_EQ(for_each_chunk(500, 8, 1000,
                           [&](std::size_t b, std::size_t e) {
                             seen_begin = b;
                             seen_end = e;
                           }),
            1u);
  EXPECT_EQ(seen_begin, 0u);
  EXPECT_EQ(seen_end, 500u);
  // Nothing to do is one empty chunk, not a crash.
  EXPECT_EQ(for_each_chunk(0, 8, 1000, [](std::size_t, std::size_t) {}), 1u);
}

}  // namespace
}  // namespace tl
