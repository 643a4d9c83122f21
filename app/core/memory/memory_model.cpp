#include "core/memory/memory_model.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace tl::memory {
namespace {

// Distinct values of v, sorted.
template <class T>
std::size_t count_distinct(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  return static_cast<std::size_t>(std::unique(v.begin(), v.end()) - v.begin());
}

// Lanes per phase of a shared-memory request: as many as fit 128 bytes at the widest access.
std::uint32_t lanes_per_phase(std::span<const LaneAccess> lanes) {
  std::uint32_t widest = 0;
  for (const LaneAccess& l : lanes) widest = std::max(widest, l.bytes);
  if (widest <= 4) return 32;
  if (widest <= 8) return 16;
  return 8;
}

}  // namespace

GlobalRequestCost global_request_cost(std::span<const LaneAccess> lanes) {
  GlobalRequestCost cost;
  std::vector<std::uint64_t> sectors;
  std::vector<std::uint64_t> lines;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;  // [begin, end)
  for (const LaneAccess& l : lanes) {
    if (l.bytes == 0) continue;
    cost.bytes_requested += l.bytes;
    const std::uint64_t last = l.address + l.bytes - 1;
    for (std::uint64_t s = l.address / kSectorBytes; s <= last / kSectorBytes; ++s) {
      sectors.push_back(s);
    }
    for (std::uint64_t c = l.address / kLineBytes; c <= last / kLineBytes; ++c) lines.push_back(c);
    ranges.emplace_back(l.address, l.address + l.bytes);
  }
  cost.sectors = static_cast<std::uint32_t>(count_distinct(sectors));
  cost.lines = static_cast<std::uint32_t>(count_distinct(lines));
  std::sort(ranges.begin(), ranges.end());
  std::uint64_t end = 0;
  for (const auto& [b, e] : ranges) {
    const std::uint64_t from = std::max(b, end);
    if (e > from) cost.distinct_bytes += e - from;
    end = std::max(end, e);
  }
  cost.ideal_sectors =
      static_cast<std::uint32_t>((cost.distinct_bytes + kSectorBytes - 1) / kSectorBytes);
  return cost;
}

SharedRequestCost shared_request_cost(std::span<const LaneAccess> lanes) {
  SharedRequestCost cost;
  const std::uint32_t per_phase = lanes_per_phase(lanes);
  const std::uint32_t phase_count = 32 / per_phase;
  std::uint32_t active = 0;
  for (std::uint32_t phase = 0; phase < phase_count; ++phase) {
    // The distinct words of each bank, and how many lanes touch each word.
    std::array<std::vector<std::uint64_t>, kBankCount> bank_words;
    std::vector<std::uint64_t> lane_words;  // one entry per (lane, word) touched
    std::vector<std::vector<std::uint64_t>> words_of_lane;
    for (const LaneAccess& l : lanes) {
      if (l.lane / per_phase != phase || l.bytes == 0) continue;
      ++active;
      std::vector<std::uint64_t> mine;
      const std::uint64_t last = l.address + l.bytes - 1;
      for (std::uint64_t w = l.address / kBankWordBytes; w <= last / kBankWordBytes; ++w) {
        bank_words[w % kBankCount].push_back(w);
        lane_words.push_back(w);
        mine.push_back(w);
      }
      words_of_lane.push_back(std::move(mine));
    }
    if (words_of_lane.empty()) continue;
    ++cost.phases;
    std::uint32_t busiest = 1;
    for (auto& words : bank_words) {
      busiest = std::max(busiest, static_cast<std::uint32_t>(count_distinct(words)));
    }
    cost.wavefronts += busiest;
    cost.conflict_degree = std::max(cost.conflict_degree, busiest);
    std::sort(lane_words.begin(), lane_words.end());
    for (const auto& mine : words_of_lane) {
      const bool shared_word = std::any_of(mine.begin(), mine.end(), [&](std::uint64_t w) {
        const auto [lo, hi] = std::equal_range(lane_words.begin(), lane_words.end(), w);
        return hi - lo > 1;
      });
      if (shared_word) ++cost.multicast_lanes;
    }
  }
  cost.broadcast = active > 1 && std::all_of(lanes.begin(), lanes.end(), [&](const LaneAccess& l) {
                     return l.bytes == 0 ||
                            (l.address == lanes.front().address && l.bytes == lanes.front().bytes);
                   });
  return cost;
}

MetricNames metric_names(MemorySpace space, AccessKind kind) {
  const std::string op = kind == AccessKind::kLoad ? "ld" : "st";
  MetricNames names;
  if (space == MemorySpace::kGlobal) {
    names.requests = "l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum";
    names.sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum";
  } else {
    // Shared-memory requests are the instructions executed, and the wavefronts those their own
    // addresses need: Nsight Compute's instruction-level (SASS-patched) counts, which equal the
    // model's on an H200 (docs/PERFORMANCE.md). smsp__inst_executed_op_shared_* without "sass"
    // also counts instructions whose lanes are all predicated off.
    names.requests = "smsp__sass_inst_executed_op_shared_" + op + ".sum";
    names.wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum";
    // The hardware counter CUPTI and Nsight's Memory Workload table show: the wavefronts beyond
    // the ideal, but counted at the data banks, so it also holds the cycles lost to other traffic
    // there (L1 fills of global loads) and reads a little above the model, varying by run.
    names.bank_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum";
  }
  return names;
}

double LineTotals::sectors_per_request() const {
  return requests == 0 ? 0.0 : static_cast<double>(sectors) / static_cast<double>(requests);
}

double LineTotals::ideal_sectors_per_request() const {
  return requests == 0 ? 0.0 : static_cast<double>(ideal_sectors) / static_cast<double>(requests);
}

double LineTotals::bytes_moved_per_byte_requested() const {
  return bytes_requested == 0
             ? 0.0
             : static_cast<double>(sectors * kSectorBytes) / static_cast<double>(bytes_requested);
}

double MemoryTable::grid_scale() const {
  return recorded_blocks == 0
             ? 0.0
             : static_cast<double>(grid_blocks) / static_cast<double>(recorded_blocks);
}

MemoryTable tabulate_by_line(std::span<const WarpRequest> requests,
                             std::span<const int> line_of_site, std::uint64_t recorded_blocks,
                             std::uint64_t grid_blocks) {
  std::map<std::tuple<int, MemorySpace, AccessKind>, LineTotals> rows;
  for (const WarpRequest& request : requests) {
    const int line = request.site < line_of_site.size() ? line_of_site[request.site] : 0;
    LineTotals& row = rows[{line, request.space, request.kind}];
    row.line = line;
    row.space = request.space;
    row.kind = request.kind;
    ++row.requests;
    row.lanes += request.lanes.size();
    if (request.space == MemorySpace::kGlobal) {
      const GlobalRequestCost cost = global_request_cost(request.lanes);
      row.sectors += cost.sectors;
      row.ideal_sectors += cost.ideal_sectors;
      row.lines_touched += cost.lines;
      row.bytes_requested += cost.bytes_requested;
    } else {
      const SharedRequestCost cost = shared_request_cost(request.lanes);
      row.wavefronts += cost.wavefronts;
      row.ideal_wavefronts += cost.ideal_wavefronts();
      row.worst_conflict_degree = std::max(row.worst_conflict_degree, cost.conflict_degree);
    }
  }
  MemoryTable table;
  table.recorded_blocks = recorded_blocks;
  table.grid_blocks = grid_blocks;
  for (auto& [key, row] : rows) table.rows.push_back(row);
  return table;
}

}  // namespace tl::memory
