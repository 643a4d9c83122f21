#pragma once
// Which SM ran which block, and when: the per-SM timeline the thread-hierarchy lesson draws from
// the BlockRecords its traced kernel writes (%smid and %globaltimer read by each block's thread 0).
//
// An SM runs several blocks at once (as many as its threads, registers and shared memory allow), so
// each SM's blocks are laid out in "slots", the rows of the SM's lane in the view: a block takes
// the first slot whose previous block ended before it started. The k-th block of a slot ran in
// round k, and round k over all SMs is the k-th *wave*. A grid whose block count is not a multiple
// of the GPU's capacity (all slots of all SMs) ends with a part-filled last wave, the *tail*,
// during which part of the GPU idles.
//
// Times are compared as closed intervals: %globaltimer ticks only every microsecond or so on many
// GPUs, and blocks that start in the same tick ran side by side, not one after another.

#include <cstdint>
#include <span>
#include <vector>

#include "core/trace_record.hpp"

namespace tl::lessons {

struct TimelineBlock {
  std::uint64_t block = 0;     // linear block index (the BlockRecord's position)
  std::uint64_t start_ns = 0;  // relative to the earliest start of the launch
  std::uint64_t end_ns = 0;
  std::uint32_t slot = 0;   // row within its SM's lane
  std::uint32_t round = 0;  // how many blocks ran in this slot before it: its wave
};

struct SmTimeline {
  std::int32_t sm = 0;
  std::vector<TimelineBlock> blocks;  // by start time, then block index
  std::uint32_t slots = 0;            // most blocks this SM ran at once
  std::uint32_t waves = 0;            // rounds this SM ran: the longest slot
};

struct BlockTimeline {
  // False when the records carry no SM ids or no times (the emulator): nothing to draw.
  bool measured = false;
  std::vector<SmTimeline> sms;  // SMs that ran at least one block, by SM id
  std::uint64_t blocks = 0;
  std::uint64_t span_ns = 0;   // earliest start to latest end
  std::uint32_t capacity = 0;  // slots over all SMs: the blocks one wave holds
  std::uint32_t waves = 0;     // rounds of the busiest slot
  std::uint64_t last_wave_blocks = 0;
  // Blocks of the last wave over the capacity, in (0, 1]; 1 means the last wave was full.
  double tail_fill = 0;
};

BlockTimeline build_block_timeline(std::span<const BlockRecord> records);

}  // namespace tl::lessons
