#include "core/trace.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace tl {
namespace {

TraceRecord record(std::uint32_t block, std::uint32_t thread, int sm, std::uint32_t iteration,
                   std::uint32_t writes) {
  return {block, thread | (static_cast<std::uint32_t>(sm + 1) << kTraceSmShift), iteration, writes};
}

TEST(Trace, DecodesBlockThreadWarpLaneAndSm) {
  const LaunchConfig config{{4, 3, 1}, {16, 8, 2}};
  // Block (2, 1, 0) is linear 2 + 4 * 1 = 6; thread (3, 5, 1) is 3 + 16 * (5 + 8 * 1) = 211.
  const DecodedTrace d = decode(record(6, 211, 17, 2, 1), 42, {1, 100}, config);
  EXPECT_TRUE(d.written);
  EXPECT_EQ(d.block, (Dim3{2, 1, 0}));
  EXPECT_EQ(d.thread, (Dim3{3, 5, 1}));
  EXPECT_EQ(d.warp, 211 / 32);
  EXPECT_EQ(d.lane, 211 % 32);
  EXPECT_EQ(d.sm, 17);
  EXPECT_EQ(d.iteration, 2u);
  EXPECT_EQ(d.element, 42u);
  EXPECT_EQ(d.row, 0u);
  EXPECT_EQ(d.col, 42u);
}

TEST(Trace, UnknownSmDecodesAsMinusOne) {
  const DecodedTrace d = decode({0, 5, 0, 1}, 0, {1, 1}, {{1, 1, 1}, {32, 1, 1}});
  EXPECT_EQ(d.sm, -1);
}

TEST(Trace, UnwrittenElementHasNoOwner) {
  const DecodedTrace d = decode({}, 7, {2, 4}, {{1, 1, 1}, {32, 1, 1}});
  EXPECT_FALSE(d.written);
  EXPECT_EQ(d.warp, -1);
  EXPECT_EQ(d.lane, -1);
  EXPECT_EQ(d.sm, -1);
  EXPECT_EQ(d.row, 1u);
  EXPECT_EQ(d.col, 3u);
}

TEST(Trace, SummaryCountsUnwrittenDoubleWrittenAndIdleThreads) {
  // 2 blocks of 4 threads over 6 elements: thread 6 and 7 idle. Element 5 unwritten, element 2
  // twice.
  const LaunchConfig config{{2, 1, 1}, {4, 1, 1}};
  std::vector<TraceRecord> records = {record(0, 0, 0, 0, 1), record(0, 1, 0, 0, 1),
                                      record(0, 2, 0, 0, 2), record(0, 3, 0, 0, 1),
                                      record(1, 0, 1, 3, 1), TraceRecord{}};
  const TraceSummary s = summarize(records, config);
  EXPECT_EQ(s.elements, 6u);
  EXPECT_EQ(s.unwritten, 1u);
  EXPECT_EQ(s.written_more, 1u);
  EXPECT_EQ(s.threads_launched, 8u);
  EXPECT_EQ(s.idle_threads, 3u);  // threads 5, 6 and 7 of the grid wrote nothing
  EXPECT_EQ(s.max_iteration, 3u);
}

TEST(Trace, CsvHasTheContractHeaderAndOneRowPerElement) {
  const LaunchConfig config{{2, 1, 1}, {64, 1, 1}};
  std::vector<TraceRecord> records = {record(1, 33, 4, 0, 1), TraceRecord{}};
  std::ostringstream out;
  ASSERT_TRUE(write_trace_csv(out, records, {1, 2}, config).is_ok());
  EXPECT_EQ(out.str(),
            "element,row,col,block_x,block_y,block_z,thread_x,thread_y,thread_z,warp,lane,sm,"
            "iteration,writes\n"
            "0,0,0,1,0,0,33,0,0,1,1,4,0,1\n"
            "1,0,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,0,0\n");
}

TEST(Trace, CsvOf2DDataUsesRowAndColumn) {
  const LaunchConfig config{{1, 1, 1}, {4, 2, 1}};
  std::vector<TraceRecord> records(6);
  records[5] = record(0, 7, -1, 0, 1);  // thread (3, 1)
  std::ostringstream out;
  ASSERT_TRUE(write_trace_csv(out, records, {2, 3}, config).is_ok());
  EXPECT_NE(out.str().find("\n5,1,2,0,0,0,3,1,0,0,7,-1,0,1\n"), std::string::npos);
}

}  // namespace
}  // namespace tl
