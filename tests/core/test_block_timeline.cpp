#include "core/lessons/block_timeline.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tl::lessons {
namespace {

BlockRecord record(std::int32_t sm, std::uint64_t start, std::uint64_t end) {
  return {sm, 0, start, end};
}

TEST(BlockTimeline, TheEmulatorsRecordsAreNotAMeasurement) {
  EXPECT_FALSE(build_block_timeline({}).measured);
  const std::vector<BlockRecord> emulated(8, record(-1, 0, 0));
  const BlockTimeline timeline = build_block_timeline(emulated);
  EXPECT_FALSE(timeline.measured);
  EXPECT_EQ(timeline.blocks, 8u);
  EXPECT_TRUE(timeline.sms.empty());
}

// Two SMs that each run two blocks at a time, ten blocks: rounds of 4, 4 and 2.
std::vector<BlockRecord> two_sms_ten_blocks() {
  std::vector<BlockRecord> r(10);
  for (std::uint64_t b = 0; b < 10; ++b) {
    const std::int32_t sm = static_cast<std::int32_t>(b % 2);
    const std::uint64_t round = b / 4;
    const std::uint64_t start = 1000 + round * 100 + (b % 4 >= 2 ? 5 : 0);
    r[b] = record(sm == 0 ? 7 : 3, start, start + 90);
  }
  return r;
}

TEST(BlockTimeline, SlotsWavesAndTheTail) {
  const BlockTimeline timeline = build_block_timeline(two_sms_ten_blocks());
  ASSERT_TRUE(timeline.measured);
  EXPECT_EQ(timeline.blocks, 10u);
  ASSERT_EQ(timeline.sms.size(), 2u);
  EXPECT_EQ(timeline.sms[0].sm, 3);  // by SM id
  EXPECT_EQ(timeline.sms[1].sm, 7);
  for (const SmTimeline& sm : timeline.sms) {
    EXPECT_EQ(sm.blocks.size(), 5u);
    EXPECT_EQ(sm.slots, 2u);
    EXPECT_EQ(sm.waves, 3u);
  }
  EXPECT_EQ(timeline.capacity, 4u);
  EXPECT_EQ(timeline.waves, 3u);
  EXPECT_EQ(timeline.last_wave_blocks, 2u);
  EXPECT_DOUBLE_EQ(timeline.tail_fill, 0.5);
  // Normalised to the earliest start: from 1000 to 1290.
  EXPECT_EQ(timeline.span_ns, 290u);
  const SmTimeline& sm7 = timeline.sms[1];  // blocks 0, 2, 4, 6, 8
  EXPECT_EQ(sm7.blocks[0].block, 0u);
  EXPECT_EQ(sm7.blocks[0].start_ns, 0u);
  EXPECT_EQ(sm7.blocks[0].end_ns, 90u);
  EXPECT_EQ(sm7.blocks[0].round, 0u);
  EXPECT_EQ(sm7.blocks[4].block, 8u);
  EXPECT_EQ(sm7.blocks[4].start_ns, 200u);
  EXPECT_EQ(sm7.blocks[4].round, 2u);
  // A slot never holds two blocks at once.
  for (const SmTimeline& sm : timeline.sms) {
    for (const TimelineBlock& a : sm.blocks) {
      for (const TimelineBlock& b : sm.blocks) {
        if (a.block == b.block || a.slot != b.slot) continue;
        EXPECT_TRUE(a.end_ns < b.start_ns || b.end_ns < a.start_ns) << a.block << " " << b.block;
      }
    }
  }
}

TEST(BlockTimeline, AFullLastWaveHasNoTail) {
  std::vector<BlockRecord> r = two_sms_ten_blocks();
  r.resize(8);
  const BlockTimeline timeline = build_block_timeline(r);
  EXPECT_EQ(timeline.waves, 2u);
  EXPECT_EQ(timeline.last_wave_blocks, 4u);
  EXPECT_DOUBLE_EQ(timeline.tail_fill, 1.0);
}

TEST(BlockTimeline, BlocksInTheSameClockTickRanSideBySide) {
  // A coarse %globaltimer gives short blocks equal start and end: they overlap, they did not queue.
  const std::vector<BlockRecord> r = {record(0, 5000, 5000), record(0, 5000, 5000),
                                      record(0, 5000, 5000), record(0, 6000, 6000)};
  const BlockTimeline timeline = build_block_timeline(r);
  ASSERT_EQ(timeline.sms.size(), 1u);
  EXPECT_EQ(timeline.sms[0].slots, 3u);
  EXPECT_EQ(timeline.sms[0].waves, 2u);
  EXPECT_EQ(timeline.last_wave_blocks, 1u);
  EXPECT_NEAR(timeline.tail_fill, 1.0 / 3.0, 1e-12);
}

TEST(BlockTimeline, OneBlockPerSmIsOneFullWave) {
  const std::vector<BlockRecord> r = {record(0, 10, 20), record(1, 12, 25), record(2, 11, 30)};
  const BlockTimeline timeline = build_block_timeline(r);
  EXPECT_EQ(timeline.sms.size(), 3u);
  EXPECT_EQ(timeline.capacity, 3u);
  EXPECT_EQ(timeline.waves, 1u);
  EXPECT_DOUBLE_EQ(timeline.tail_fill, 1.0);
  EXPECT_EQ(timeline.span_ns, 20u);
}

}  // namespace
}  // namespace tl::lessons
