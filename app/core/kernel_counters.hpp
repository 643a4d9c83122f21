#pragma once
// What a GPU's hardware counters say about one launched kernel: the bytes it moved to and from
// DRAM, how often its L2 accesses hit, and how many warps its SMs kept busy (achieved occupancy).
// They are read through CUPTI (compute/cuda/cupti_counters.cpp), which replays the kernel once per
// pass, so they come from their own launches, never from the timed ones. This file holds everything
// that needs no GPU: the metrics asked for, turning their values into these numbers and into words,
// the tables written out, and why counters cannot be read where they cannot.

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tl {

// The metric names asked of CUPTI (Nsight Compute's names), in this order.
inline constexpr std::string_view kMetricDramBytesRead = "dram__bytes_read.sum";
inline constexpr std::string_view kMetricDramBytesWritten = "dram__bytes_write.sum";
inline constexpr std::string_view kMetricL2Bytes = "lts__t_bytes.sum";
inline constexpr std::string_view kMetricL2HitRate = "lts__t_sector_hit_rate.pct";
inline constexpr std::string_view kMetricAchievedOccupancy =
    "sm__warps_active.avg.pct_of_peak_sustained_active";
// The memory instructions' own traffic through L1, the counters the memory model
// (core/memory/memory_model.hpp) predicts: warp-level requests and the 32-byte sectors they
// touched, loads and stores of global memory; bank conflicts of shared memory.
inline constexpr std::string_view kMetricGlobalLoadRequests =
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view kMetricGlobalLoadSectors =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view kMetricGlobalStoreRequests =
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr std::string_view kMetricGlobalStoreSectors =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr std::string_view kMetricSharedLoadBankConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr std::string_view kMetricSharedStoreBankConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
[[nodiscard]] std::span<const std::string_view> counter_metric_names();

// What the memory instructions asked of L1 (absent where the GPU or CUPTI offers no such
// counters: `measured` false).
struct MemoryInstructionCounters {
  bool measured = false;
  double global_load_requests = 0;
  double global_load_sectors = 0;
  double global_store_requests = 0;
  double global_store_sectors = 0;
  double shared_load_bank_conflicts = 0;
  double shared_store_bank_conflicts = 0;
  // Sectors per request, as Nsight Compute divides them; 0 without requests.
  [[nodiscard]] double load_sectors_per_request() const {
    return global_load_requests > 0 ? global_load_sectors / global_load_requests : 0.0;
  }
  [[nodiscard]] double store_sectors_per_request() const {
    return global_store_requests > 0 ? global_store_sectors / global_store_requests : 0.0;
  }
  friend bool operator==(const MemoryInstructionCounters&,
                         const MemoryInstructionCounters&) = default;
};

struct KernelCounters {
  double dram_bytes_read = 0;
  double dram_bytes_written = 0;
  double l2_bytes = 0;              // every request the L2 served, hits and misses, in bytes
  double l2_hit_rate = 0;           // 0..1, of the L2's sector lookups
  double l2_hit_rate_reported = 0;  // as CUPTI said it, which can exceed 1 (shown as 1)
  double achieved_occupancy = 0;    // 0..1: active warps per SM over the most it can hold
  int passes = 0;                   // how many times CUPTI replayed the kernel to read them all
  MemoryInstructionCounters memory;

  [[nodiscard]] double dram_bytes() const { return dram_bytes_read + dram_bytes_written; }
  friend bool operator==(const KernelCounters&, const KernelCounters&) = default;
};

// The values CUPTI evaluated, by metric name, as KernelCounters; kParseError naming the first
// metric that is missing or not a finite, non-negative number. CUPTI's L2 hit rate can exceed
// 100 % (108.8 % on an H200 for a kernel whose data was all in L2): it is kept as reported and
// shown as 100 %; a percentage above 200 is refused as misread.
[[nodiscard]] Result<KernelCounters> counters_from_metrics(
    const std::map<std::string, double, std::less<>>& values, int passes);

// One kernel's counters beside what its work needs at least: `ideal_bytes` is every input read
// once and every output written once (the timing row's bytes). Its DRAM traffic over that is how
// much the caches failed to save: 1.0 for a kernel that reads and writes each byte once, 4.0 for
// a naive matrix product whose re-reads of A and B missed the L2 three times in four.
struct CountedKernel {
  std::string key;   // the timing row's key, as core/timing/timing_key.hpp writes it
  std::string name;  // for people: "GPU kernel x → row (strided)"
  double ideal_bytes = 0;
  KernelCounters counters;
};
[[nodiscard]] std::optional<double> dram_traffic_over_ideal(const CountedKernel& kernel);

// "DRAM 512.03 MiB read + 268.06 MiB written (1.02× the least the work needs); L2 served 1.14
// GiB, hit rate 34 %; achieved occupancy 72 % (2 passes)".
[[nodiscard]] std::string describe_counters(const CountedKernel& kernel);

// Tables of counted kernels: a CSV with a header line and a JSON array of objects, the same fields
// in both (key, name, ideal and DRAM bytes, L2 bytes and hit rate, occupancy, passes).
[[nodiscard]] std::string counters_csv(std::span<const CountedKernel> kernels);
[[nodiscard]] std::string counters_json(std::span<const CountedKernel> kernels);

// The user-facing reason counters cannot be read, from the CUPTI result (its enum name, e.g.
// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", and CUPTI's own message) of the step that failed: the
// permission case names NVIDIA's ERR_NVGPUCTRPERM and what lifts it; the others say what the
// device or the process lacks.
[[nodiscard]] std::string cupti_unavailable_reason(std::string_view step,
                                                   std::string_view result_name,
                                                   std::string_view message);

// Said wherever counters are shown: they come from replayed launches of their own.
inline constexpr std::string_view kCountersAreNotTimings =
    "counted on launches of their own, apart from the timed runs: CUPTI replays each kernel once "
    "per pass, so these launches are never timed";

// Why the emulator has none.
inline constexpr std::string_view kEmulatorHasNoCounters =
    "hardware counters need an NVIDIA GPU: the CPU emulator has no DRAM, L2 cache or SMs to count";

}  // namespace tl
