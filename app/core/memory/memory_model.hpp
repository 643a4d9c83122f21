#pragma once
// What a warp-level request costs the memory system, counted as the hardware counts it and named as
// Nsight Compute names the counters, so that a GPU test can hold these figures against them.
//
// Global memory (L1TEX, Volta and later): a request is one warp-level instruction. The bytes its
// active lanes touch fall into 32-byte sectors, four to a 128-byte cache line; the sectors are what
// moves (l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum over
// l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum is "sectors per request"). The ideal is the
// fewest sectors that could hold the distinct bytes asked for: 4 for 32 consecutive floats, 16 for
// 32 consecutive float4s, 1 when every lane reads the same word.
//
// Shared memory: 32 banks, each 4 bytes wide; byte address a is in word a / 4, bank (a / 4) % 32.
// Lanes that touch the same word are served together (a broadcast when all do, a multicast when
// some do): no conflict. Lanes that touch different words of one bank are served one word per
// wavefront: the busiest bank's count of distinct words is the conflict degree. Accesses wider than
// 4 bytes are processed in phases of at most 128 bytes: 8-byte accesses as two half-warps (lanes
// 0-15, 16-31), 16-byte ones as four quarter-warps, each phase conflicting only within itself. The
// wavefronts are the sum over the phases that have an active lane of that phase's busiest bank,
// the ideal one per such phase, and the bank conflicts
// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum) the wavefronts beyond the ideal.
// Measured on an H200, the requests and wavefronts equal Nsight Compute's instruction-level counts
// (smsp__sass_inst_executed_op_shared_ld.sum, smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_
// op_ld.sum) exactly; the hardware's bank-conflict counter reads a little more where global loads
// run beside the shared accesses (it counts the data banks' cycles lost to their L1 fills too).
//
// Where this is a model, not the hardware:
// - No cache. Sectors are what a request asks L1TEX for; whether they hit in L1 or L2 (and what
//   reaches DRAM) depends on the caching policy (global loads are cached in L1 by default since
//   Volta; `__ldcg` and stores are not) and on what other warps touched before. Nsight's
//   l1tex__t_sectors counts requested sectors too, hits and misses alike, which is what is
//   modelled; the DRAM bytes are not.
// - The phase rule for 8- and 16-byte shared accesses is the one documented for Volta through
//   Hopper; the hardware may merge phases whose lanes touch few distinct words (a broadcast of a
//   double), where this model counts one wavefront per phase and the counter may read fewer.
// - Bank numbers follow the emulator's layout of shared memory, not nvcc's: a pattern's conflict
//   degree is the same wherever its array starts (it depends on address differences), but the bank
//   a given lane lands in may be rotated.
// - Requests are the access instructions the host compiler emitted for the emulator, which
//   usually, but not always, match nvcc's (it may keep a value in a register where nvcc reloads it,
//   or split or merge accesses differently).
// - Atomics, local memory (register spills), texture and constant loads are not modelled.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/memory/warp_requests.hpp"

namespace tl::memory {

inline constexpr std::uint32_t kSectorBytes = 32;
inline constexpr std::uint32_t kLineBytes = 128;
inline constexpr std::uint32_t kBankCount = 32;
inline constexpr std::uint32_t kBankWordBytes = 4;

struct GlobalRequestCost {
  std::uint32_t sectors = 0;          // distinct 32-byte sectors touched
  std::uint32_t lines = 0;            // distinct 128-byte lines touched
  std::uint32_t ideal_sectors = 0;    // ceil(distinct bytes / 32)
  std::uint64_t bytes_requested = 0;  // the lanes' bytes, each lane counted (a broadcast counts 32)
  std::uint64_t distinct_bytes = 0;   // bytes touched, each once
  [[nodiscard]] std::uint64_t bytes_moved() const { return std::uint64_t{sectors} * kSectorBytes; }
};

[[nodiscard]] GlobalRequestCost global_request_cost(std::span<const LaneAccess> lanes);

// Bank of a byte address (its 4-byte word's).
[[nodiscard]] constexpr std::uint32_t shared_bank(std::uint64_t address) {
  return static_cast<std::uint32_t>((address / kBankWordBytes) % kBankCount);
}

struct SharedRequestCost {
  std::uint32_t phases = 0;           // phases with an active lane (1 for accesses up to 4 bytes)
  std::uint32_t wavefronts = 0;       // sum over phases of the busiest bank's distinct words
  std::uint32_t conflict_degree = 0;  // the busiest bank's distinct words, over all phases
  std::uint32_t multicast_lanes = 0;  // lanes whose word another lane of their phase also touches
  bool broadcast = false;             // more than one lane, all on the same bytes
  [[nodiscard]] std::uint32_t ideal_wavefronts() const { return phases; }
  [[nodiscard]] std::uint32_t bank_conflicts() const { return wavefronts - phases; }
};

[[nodiscard]] SharedRequestCost shared_request_cost(std::span<const LaneAccess> lanes);

// The Nsight Compute counters a row's figures correspond to (the .sum over the kernel).
struct MetricNames {
  std::string requests;
  std::string sectors;         // global only
  std::string wavefronts;      // shared only
  std::string bank_conflicts;  // shared only
};
[[nodiscard]] MetricNames metric_names(MemorySpace space, AccessKind kind);

// One access site (a source line) of a kernel, over the requests recorded.
struct LineTotals {
  int line = 0;  // in the kernel's source; 0 if unknown
  MemorySpace space = MemorySpace::kGlobal;
  AccessKind kind = AccessKind::kLoad;
  std::uint64_t requests = 0;
  std::uint64_t lanes = 0;  // active lanes over all requests
  // Global.
  std::uint64_t sectors = 0;
  std::uint64_t ideal_sectors = 0;
  std::uint64_t lines_touched = 0;
  std::uint64_t bytes_requested = 0;
  // Shared.
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;
  std::uint32_t worst_conflict_degree = 0;  // the worst request's
  [[nodiscard]] std::uint64_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
  [[nodiscard]] double sectors_per_request() const;
  [[nodiscard]] double ideal_sectors_per_request() const;
  // Moved over requested: 1 is ideal, 8 for strided floats (32 sectors for 128 useful bytes).
  [[nodiscard]] double bytes_moved_per_byte_requested() const;
};

// Per source line, the totals of a kernel's recorded requests, and how they stand for the launch.
struct MemoryTable {
  std::vector<LineTotals> rows;  // by line, then global before shared, loads before stores
  std::uint64_t recorded_blocks = 0;
  std::uint64_t grid_blocks = 0;
  // The counts are those of the recorded blocks; for the whole grid they are scaled by
  // grid_blocks / recorded_blocks (an extrapolation: blocks at the edge of the data may differ).
  [[nodiscard]] bool extrapolated() const { return recorded_blocks < grid_blocks; }
  [[nodiscard]] double grid_scale() const;
};

// `line_of_site[s]` is the source line of site s (0 if unknown); a site beyond it counts as line 0.
[[nodiscard]] MemoryTable tabulate_by_line(std::span<const WarpRequest> requests,
                                           std::span<const int> line_of_site,
                                           std::uint64_t recorded_blocks,
                                           std::uint64_t grid_blocks);

}  // namespace tl::memory
