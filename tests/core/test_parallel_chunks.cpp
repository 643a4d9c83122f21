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

// The timing panel's note gives the reason for its thread count, never a bare "thread(s)".
TEST(CpuThreadsNote, SaysWhyItUsedThatManyThreads) {
  EXPECT_EQ(cpu_threads_note("CPU, all threads", 16, 16),
            "'CPU, all threads' used 16 threads, one per hardware thread this machine reports");
  const std::string small = cpu_threads_note("CPU, all threads", 1, 16);
  EXPECT_EQ(
      small.rfind("'CPU, all threads' used 1 thread of this machine's 16 hardware threads", 0), 0u)
      << small;
  EXPECT_NE(small.find("too small to split further"), std::string::npos) << small;
  const std::string single = cpu_threads_note("CPU, all threads", 1, 1);
  EXPECT_NE(single.find("one hardware thread"), std::string::npos) << single;
  EXPECT_EQ(single.find("thread(s)"), std::string::npos) << single;
}

}  // namespace
}  // namespace tl
