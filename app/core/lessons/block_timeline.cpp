#include "block_timeline.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace tl::lessons {
namespace {

bool carries_measurements(std::span<const BlockRecord> records) {
  bool any_time = false;
  for (const BlockRecord& r : records) {
    if (r.sm < 0) return false;  // the emulator writes -1: no SM ran it
    if (r.start_ns != 0 || r.end_ns != 0) any_time = true;
  }
  return any_time;
}

// Interval partitioning, block by block in start order: reuse the slot that fell free earliest if
// it fell free strictly before this block started, else open a new slot.
void assign_slots(SmTimeline& sm) {
  std::sort(sm.blocks.begin(), sm.blocks.end(), [](const TimelineBlock& a, const TimelineBlock& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.block < b.block;
  });
  std::vector<std::uint64_t> slot_end;     // end of the last block in each slot
  std::vector<std::uint32_t> slot_rounds;  // blocks placed in each slot so far
  for (TimelineBlock& block : sm.blocks) {
    std::uint32_t chosen = static_cast<std::uint32_t>(slot_end.size());
    for (std::uint32_t s = 0; s < slot_end.size(); ++s) {
      if (slot_end[s] < block.start_ns &&
          (chosen == slot_end.size() || slot_end[s] < slot_end[chosen])) {
        chosen = s;
      }
    }
    if (chosen == slot_end.size()) {
      slot_end.push_back(0);
      slot_rounds.push_back(0);
    }
    block.slot = chosen;
    block.round = slot_rounds[chosen]++;
    slot_end[chosen] = block.end_ns;
  }
  sm.slots = static_cast<std::uint32_t>(slot_end.size());
  sm.waves = slot_rounds.empty() ? 0 : *std::max_element(slot_rounds.begin(), slot_rounds.end());
}

}  // namespace

BlockTimeline build_block_timeline(std::span<const BlockRecord> records) {
  BlockTimeline timeline;
  timeline.blocks = records.size();
  if (records.empty() || !carries_measurements(records)) return timeline;
  timeline.measured = true;

  std::uint64_t earliest = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t latest = 0;
  for (const BlockRecord& r : records) {
    earliest = std::min(earliest, r.start_ns);
    latest = std::max(latest, r.end_ns);
  }
  timeline.span_ns = latest > earliest ? latest - earliest : 0;

  std::map<std::int32_t, SmTimeline> by_sm;
  for (std::uint64_t b = 0; b < records.size(); ++b) {
    const BlockRecord& r = records[b];
    SmTimeline& sm = by_sm[r.sm];
    sm.sm = r.sm;
    // A clock read can never make a block end before it starts, but a damaged record must not
    // turn into a negative duration.
    const std::uint64_t end = std::max(r.end_ns, r.start_ns);
    sm.blocks.push_back({b, r.start_ns - earliest, end - earliest, 0, 0});
  }
  for (auto& [id, sm] : by_sm) {
    assign_slots(sm);
    timeline.capacity += sm.slots;
    timeline.waves = std::max(timeline.waves, sm.waves);
    timeline.sms.push_back(std::move(sm));
  }
  for (const SmTimeline& sm : timeline.sms) {
    for (const TimelineBlock& block : sm.blocks) {
      if (block.round + 1 == timeline.waves) ++timeline.last_wave_blocks;
    }
  }
  timeline.tail_fill = timeline.capacity == 0 ? 0.0
                                              : static_cast<double>(timeline.last_wave_blocks) /
                                                    static_cast<double>(timeline.capacity);
  return timeline;
}

}  // namespace tl::lessons
