#pragma once
// Runs lesson 6 on a device: every rung of the sum ladder on the same data, timed against a
// device-to-device copy of that data and CUB's device reduce (a GPU) in the same run, each checked
// against the float64 sum within its own error bound; the CPU's sequential, Kahan and pairwise
// float sums beside them; atomic contention over the number of distinct addresses; the two
// histograms on uniform and skewed data; the naive and the stable softmax on ordinary and on large
// logits; the warp-vote count and the inclusive scan (against CUB's on a GPU); and block 0's tree
// of every tree rung, recorded by a traced launch of a small block.

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "compute/hardware_counters.hpp"
#include "compute/trace_sink.hpp"
#include "core/stats.hpp"
#include "lessons/06_reductions/reductions.hpp"

namespace tl::compute {

struct ReductionsRequest {
  lessons::ReductionParams params;
  bool check = true;
  bool time_cpu = true;
  int warmup = 1;
  int repeats = 5;
  std::uint32_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;
};

struct RungResult {
  lessons::SumRung rung = lessons::SumRung::kAtomic;
  LaunchConfig config;
  TimingStats time;  // the zeroing of *out included where the rung needs it
  lessons::SumCheck check;
};

struct ContentionPoint {
  std::uint64_t addresses = 0;
  double median_ms = 0;
};

struct HistogramResult {
  bool skewed = false;
  TimingStats global;
  TimingStats shared;
  bool global_correct = false;
  bool shared_correct = false;
};

// The warp-vote count of elements above lessons::kCountThreshold, against one atomic per element.
struct CountResult {
  std::uint64_t expected = 0;  // counted on the CPU
  TimingStats atomic;          // count_above_atomic, the zeroing of the count included
  TimingStats ballot;          // count_above_ballot
  std::uint64_t atomic_count = 0;
  std::uint64_t ballot_count = 0;
  [[nodiscard]] bool passed() const { return atomic_count == expected && ballot_count == expected; }
};

// The inclusive scan of the lesson's data: the lesson's three-step scan and, on a GPU, CUB's.
struct ScanResult {
  int levels = 0;  // passes of block scans (kernels::scan_levels)
  TimingStats time;
  lessons::ScanCheck check;
  TimingStats library;  // CUB's DeviceScan::InclusiveSum, temp storage allocated outside
  std::optional<lessons::ScanCheck> library_check;
};

struct SoftmaxResult {
  std::uint32_t rows = 0, cols = 0;
  TimingStats naive;
  TimingStats stable;
  lessons::SoftmaxCheck naive_ordinary;  // logits in [-4, 4)
  lessons::SoftmaxCheck stable_ordinary;
  lessons::SoftmaxCheck naive_large;  // logits in [86, 94): the naive sum overflows
  lessons::SoftmaxCheck stable_large;
};

struct ReductionsReport {
  bool on_gpu = false;
  std::uint64_t n = 0;
  double exact = 0;               // float64 sum of the data
  double abs_total = 0;           // sum of |x|
  std::vector<RungResult> rungs;  // in ladder order

  TimingStats library;  // CUB's DeviceReduce::Sum, temp storage allocated outside the timing
  std::optional<lessons::SumCheck> library_check;
  std::string library_absent;  // why there is no library row (the emulator)

  TimingStats device_copy;     // the data copied device to device (read n, written n floats)
  TimingStats host_to_device;  // the data uploaded

  TimingStats cpu_single;  // sequential float sum
  TimingStats cpu_multi;   // one sequential float sum per thread, then their sum
  unsigned cpu_threads = 0;
  std::vector<lessons::SumCheck> cpu_sums;  // sequential, Kahan, pairwise: shown, not checked

  CountResult count;
  ScanResult scan;
  std::vector<ContentionPoint> contention;
  std::vector<HistogramResult> histograms;  // uniform, then skewed
  SoftmaxResult softmax;
  std::vector<lessons::ReductionTree> trees;  // every rung that has a tree
  // The shared-memory banks of each tree's reads (lessons::bank_accesses), one entry per tree.
  std::vector<std::vector<lessons::BankLevel>> banks;

  [[nodiscard]] const RungResult* find(lessons::SumRung rung) const;
  // Every rung's check and the library's, the histograms and the stable softmax.
  [[nodiscard]] bool passed() const;
  [[nodiscard]] std::string describe_check() const;
};

// The hardware counters over one launch of each rung in `rungs` at params' n and block (each with
// the launch a timed run gives it), apart from any timing; the data is the lesson's. CUPTI replays
// each launch once per pass: the rungs that add into *out then add several times, which the
// counters do not mind and nothing reads.
struct ReductionCountedKernel {
  lessons::SumRung rung = lessons::SumRung::kAtomic;
  LaunchConfig config;
  KernelCounters counters;
};
Result<std::vector<ReductionCountedKernel>> count_reductions(
    Device& device, const lessons::ReductionParams& params, std::span<const lessons::SumRung> rungs,
    std::uint32_t seed = 1);

// The block whose tree the traced launches record: small enough to draw.
inline constexpr std::uint32_t kDrawnTreeBlock = 64;

// Validates, allocates, uploads, times and checks everything above. Launch errors come back as
// errors carrying CUDA's (or the emulator's) message.
Result<ReductionsReport> run_reductions(Device& device, const ReductionsRequest& request);

// One traced launch of params.rung over n elements: records[i] says which thread read element i.
// Returns the check of its sum.
Result<lessons::SumCheck> trace_reduction(Device& device, const lessons::ReductionParams& params,
                                          const LaunchConfig& config, TraceSink& sink,
                                          std::uint32_t seed = 1);

// One traced launch of the inclusive scan over params' n elements with params' block: records[i]
// says which thread of the first pass scanned element i. Returns the check of every prefix.
Result<lessons::ScanCheck> trace_scan(Device& device, const lessons::ReductionParams& params,
                                      TraceSink& sink, std::uint32_t seed = 1);

// Block 0's tree of `rung` on a block of `block` threads, from a traced launch over the data's
// first elements.
Result<lessons::ReductionTree> record_tree(Device& device, lessons::SumRung rung,
                                           std::uint32_t block, lessons::SumData data,
                                           std::uint32_t seed = 1);

}  // namespace tl::compute
