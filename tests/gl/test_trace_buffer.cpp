#include <glad/gl.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/launch_config.hpp"
#include "core/trace.hpp"
#include "gl_test_support.hpp"
#include "render/gl_check.hpp"
#include "render/trace_buffer.hpp"

namespace tl {
namespace {

using render::TraceBuffer;
using testing::GlTest;

TraceRecord record(std::uint32_t block, std::uint32_t thread, std::uint32_t sm_plus_one,
                   std::uint32_t iteration, std::uint32_t writes) {
  return {block, thread | (sm_plus_one << kTraceSmShift), iteration, writes};
}

bool same(const TraceRecord& a, const TraceRecord& b) {
  return a.block == b.block && a.thread_and_sm == b.thread_and_sm && a.iteration == b.iteration &&
         a.writes == b.writes;
}

using TraceBufferTest = GlTest;

TEST_F(TraceBufferTest, UploadThenReadReturnsTheRecords) {
  const std::vector<TraceRecord> records = {record(0, 0, 1, 0, 1), record(0, 1, 1, 0, 1),
                                            record(3, 255, 7, 2, 2), record(0, 0, 0, 0, 0)};
  TraceBuffer buffer;
  ASSERT_TRUE(buffer.upload(records).is_ok());
  EXPECT_EQ(buffer.count(), records.size());
  EXPECT_NE(buffer.gl_buffer(), 0u);
  for (std::size_t i = 0; i < records.size(); ++i) {
    Result<TraceRecord> read = buffer.read(i);
    ASSERT_TRUE(read.is_ok()) << read.message();
    EXPECT_TRUE(same(*read, records[i])) << "record " << i;
  }
}

TEST_F(TraceBufferTest, ReadPastCountIsAnError) {
  TraceBuffer buffer;
  ASSERT_TRUE(buffer.clear(8).is_ok());
  Result<TraceRecord> read = buffer.read(8);
  ASSERT_FALSE(read.is_ok());
  EXPECT_EQ(read.error().kind, ErrorKind::kInvalidArgument);
}

TEST_F(TraceBufferTest, ClearZeroFillsPreviousContents) {
  std::vector<TraceRecord> records(100, record(9, 9, 9, 9, 9));
  TraceBuffer buffer;
  ASSERT_TRUE(buffer.upload(records).is_ok());
  ASSERT_TRUE(buffer.clear(64).is_ok());
  EXPECT_EQ(buffer.count(), 64u);
  EXPECT_TRUE(same(*buffer.read(0), TraceRecord{}));
  EXPECT_TRUE(same(*buffer.read(63), TraceRecord{}));
  buffer.set_count(100);  // past the cleared range the old records are untouched
  EXPECT_TRUE(same(*buffer.read(64), records[64]));
}

TEST_F(TraceBufferTest, ReserveGrowsOnlyWhenNeededAndBumpsGeneration) {
  TraceBuffer buffer;
  EXPECT_EQ(buffer.gl_buffer(), 0u);
  ASSERT_TRUE(buffer.reserve(1000).is_ok());
  const std::uint64_t first = buffer.generation();
  const std::uint32_t name = buffer.gl_buffer();
  EXPECT_GE(buffer.capacity(), 1000u);
  ASSERT_TRUE(buffer.reserve(10).is_ok());  // a small buffer is kept
  EXPECT_EQ(buffer.generation(), first);
  EXPECT_GE(buffer.capacity(), 1000u);
  ASSERT_TRUE(buffer.reserve(5000).is_ok());
  EXPECT_GT(buffer.generation(), first);
  EXPECT_GE(buffer.capacity(), 5000u);
  EXPECT_EQ(buffer.gl_buffer(), name);  // same name, new storage
}

TEST_F(TraceBufferTest, ALargeBufferIsGivenBackWhenTracesBecomeSmall) {
  TraceBuffer buffer;
  const std::size_t large = render::kLargestIdleTraceBytes / sizeof(TraceRecord) * 2;
  ASSERT_TRUE(buffer.reserve(large).is_ok());
  const std::uint64_t before = buffer.generation();
  ASSERT_TRUE(buffer.reserve(large / 3).is_ok());  // over a quarter: kept
  EXPECT_EQ(buffer.generation(), before);
  EXPECT_GE(buffer.capacity(), large);
  ASSERT_TRUE(buffer.reserve(1000).is_ok());
  EXPECT_GT(buffer.generation(), before);  // interop registers the new storage
  EXPECT_GE(buffer.capacity(), 1000u);
  EXPECT_LT(buffer.capacity(), large / 4);
  std::vector<TraceRecord> records(1000);
  records[999].block = 7;
  ASSERT_TRUE(buffer.upload(records).is_ok());
  EXPECT_EQ(buffer.read(999)->block, 7u);
}

// Interop unregisters the buffer exactly when reserve() is about to give it new storage: the
// prediction must match what reserve() then does, growing, keeping and shrinking.
TEST_F(TraceBufferTest, ReserveReallocatesPredictsANewGeneration) {
  TraceBuffer buffer;
  const std::size_t large = render::kLargestIdleTraceBytes / sizeof(TraceRecord) * 2;
  for (const std::size_t count : {std::size_t{1000}, std::size_t{10}, std::size_t{5000}, large,
                                  large / 3, std::size_t{1000}, std::size_t{1200}}) {
    SCOPED_TRACE(count);
    const bool predicted = buffer.reserve_reallocates(count);
    const std::uint64_t before = buffer.generation();
    ASSERT_TRUE(buffer.reserve(count).is_ok());
    EXPECT_EQ(buffer.generation() != before, predicted);
    EXPECT_FALSE(buffer.reserve_reallocates(count));  // now it fits
  }
}

TEST_F(TraceBufferTest, RefusesMoreRecordsThanShadersCanIndex) {
  TraceBuffer buffer;
  const Status status = buffer.reserve(render::kMaxTraceRecords + 1);
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.error().kind, ErrorKind::kInvalidArgument);
}

TEST_F(TraceBufferTest, SummarizeMatchesTheCpuSummary) {
  std::mt19937 random(7);
  std::vector<TraceRecord> records(100'003);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::uint32_t writes = random() % 4 == 0 ? 0 : (random() % 10 == 0 ? 2 : 1);
    records[i] = writes == 0 ? TraceRecord{}
                             : record(static_cast<std::uint32_t>(i / 256),
                                      static_cast<std::uint32_t>(i % 256), 1,
                                      static_cast<std::uint32_t>(random() % 5), writes);
  }
  TraceBuffer buffer;
  ASSERT_TRUE(buffer.upload(records).is_ok());
  Result<render::TraceSummaryGpu> gpu = buffer.summarize(256);
  ASSERT_TRUE(gpu.is_ok()) << gpu.message();
  const TraceSummary cpu = summarize(records, LaunchConfig{{391, 1, 1}, {256, 1, 1}});
  EXPECT_EQ(gpu->unwritten, cpu.unwritten);
  EXPECT_EQ(gpu->written_more, cpu.written_more);
  EXPECT_EQ(gpu->max_iteration, cpu.max_iteration);
  EXPECT_GT(cpu.unwritten, 0u);
  EXPECT_GT(cpu.written_more, 0u);
}

TEST_F(TraceBufferTest, SummarizeOfEmptyTraceIsZero) {
  TraceBuffer buffer;
  Result<render::TraceSummaryGpu> summary = buffer.summarize(256);
  ASSERT_TRUE(summary.is_ok());
  EXPECT_EQ(summary->unwritten, 0u);
}

// 2^24 records are 256 MiB, more than llvmpipe lets one shader storage binding cover (128 MiB):
// this checks the range-by-range summary on real sizes.
TEST_F(TraceBufferTest, HandlesTwoToTheTwentyFourRecords) {
  constexpr std::size_t kCount = std::size_t{1} << 24;
  std::printf("records per shader storage binding on this driver: %llu\n",
              static_cast<unsigned long long>(render::max_records_per_binding()));
  TraceBuffer buffer;
  ASSERT_TRUE(buffer.clear(kCount).is_ok());
  Result<render::TraceSummaryGpu> cleared = buffer.summarize(256);
  ASSERT_TRUE(cleared.is_ok()) << cleared.message();
  EXPECT_EQ(cleared->unwritten, kCount);

  // Every element written once, except: the last 1000 never, every 4096th twice, and the very last
  // written element in grid-stride iteration 5.
  std::vector<TraceRecord> records(kCount);
  std::uint64_t twice = 0;
  for (std::size_t i = 0; i < kCount; ++i) {
    if (i >= kCount - 1000) continue;
    const bool is_twice = i % 4096 == 0;
    twice += is_twice ? 1 : 0;
    records[i] = record(static_cast<std::uint32_t>(i / 256), static_cast<std::uint32_t>(i % 256), 1,
                        0, is_twice ? 2 : 1);
  }
  records[kCount - 1001].iteration = 5;
  ASSERT_TRUE(buffer.upload(records).is_ok());
  Result<render::TraceSummaryGpu> summary = buffer.summarize(256);
  ASSERT_TRUE(summary.is_ok()) << summary.message();
  EXPECT_EQ(summary->unwritten, 1000u);
  EXPECT_EQ(summary->written_more, twice);
  EXPECT_EQ(summary->max_iteration, 5u);
  for (std::size_t index : {std::size_t{0}, kCount / 2 + 17, kCount - 1001, kCount - 1}) {
    Result<TraceRecord> read = buffer.read(index);
    ASSERT_TRUE(read.is_ok()) << read.message();
    EXPECT_TRUE(same(*read, records[index])) << "record " << index;
  }
}

}  // namespace
}  // namespace tl
