#pragma once
// From what each lane did to what a warp asked of memory. A recorder (the emulator's) sees the
// lanes of a warp one after another: lane 0 runs up to its next wait, then lane 1, ... so it writes
// down each lane's accesses in that lane's program order, never "the warp's" access. A GPU issues
// one instruction for the active lanes of a warp together: one warp-level request. The two meet
// here: the k-th time lane A executes access instruction S belongs to the same request as the k-th
// time lane B of the same warp executes S (the same access instance). Grouping by occurrence count
// instead of by time makes the result independent of how the emulator interleaves lanes.
//
// What that cannot see: lanes of one warp that execute the same instruction the same number of
// times but, because of divergence, in different passes on the GPU (e.g. one branch of an if runs
// a loop for lanes 0-15 while the other half waits, then the other half runs the same loop body
// through a shared helper). Such a case is counted as if the lanes had been converged: fewer
// requests than the GPU issues, each with more lanes. Structured loops whose trip count differs per
// lane group correctly: iteration k's request has exactly the lanes that ran iteration k.

#include <cstdint>
#include <span>
#include <vector>

namespace tl::memory {

enum class MemorySpace : std::uint8_t { kGlobal, kShared };
enum class AccessKind : std::uint8_t { kLoad, kStore };

// One lane's access, as recorded.
struct LaneRecord {
  std::uint64_t block = 0;   // linear block index in the grid
  std::uint32_t thread = 0;  // linear thread index in its block (x fastest): warp = thread / 32
  std::uint32_t site = 0;    // which access instruction (an index into the recorder's site table)
  std::uint64_t address = 0;
  std::uint32_t bytes = 0;  // 1, 2, 4, 8 or 16 for a single access; more for a copied range
  MemorySpace space = MemorySpace::kGlobal;
  AccessKind kind = AccessKind::kLoad;
};

struct LaneAccess {
  std::uint32_t lane = 0;  // 0..31
  std::uint64_t address = 0;
  std::uint32_t bytes = 0;
};

// The active lanes of one warp executing one access instance.
struct WarpRequest {
  std::uint64_t block = 0;
  std::uint32_t warp = 0;        // in its block
  std::uint32_t site = 0;        // the access instruction
  std::uint32_t occurrence = 0;  // 0 for the first time the lanes execute it, 1 for the next, ...
  MemorySpace space = MemorySpace::kGlobal;
  AccessKind kind = AccessKind::kLoad;
  std::vector<LaneAccess> lanes;  // in lane order, one per active lane
};

// Groups lane records (each lane's own in program order; lanes and warps interleaved in any order)
// into warp-level requests, in the order each request's first lane was recorded. An access that
// one lane makes to both spaces or as both kinds through one site (a helper called with a shared
// and a global pointer) falls into separate requests, as the GPU's generic loads split them.
[[nodiscard]] std::vector<WarpRequest> group_warp_requests(std::span<const LaneRecord> records);

// Which blocks of a grid to record when recording all would be too slow: every block of a grid of
// at most `at_most`, else the first, the last (often a partial one at the data's edge) and blocks
// spread evenly between, sorted. Figures for the grid are extrapolated from them.
[[nodiscard]] std::vector<std::uint64_t> blocks_to_record(std::uint64_t grid_blocks,
                                                          std::uint64_t at_most);

}  // namespace tl::memory
