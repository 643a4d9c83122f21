#pragma once
// Lesson 6, reductions: many threads combine into one answer. The parameters, the inputs, the CPU
// references (float64, sequential float, Kahan, pairwise), the error bounds the checks use, the
// histogram and softmax references, and what the views draw (a block's tree level by level and
// the shared-memory bank of each of its accesses). No CUDA here: the kernels live in
// lessons/06_reductions/kernels/sum_ladder.cuh, sum_vectorized.cuh, histogram.cuh and softmax.cuh.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/launch_config.hpp"
#include "core/lessons/catalog.hpp"
#include "core/result.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"

namespace tl::lessons {

inline constexpr LessonInfo kReductionsInfo{
    6, "reductions", "Reductions",
    "Sums, histograms and softmax: atomics, shared-memory trees, warp shuffles", "06_reductions"};
inline constexpr std::string_view kReductionsId = kReductionsInfo.id;

using kernels::SumRung;

// "atomic", "interleaved", "strided", "sequential", "first-add", "warp-shuffle",
// "cooperative-groups", "vectorized".
[[nodiscard]] std::string_view to_string(SumRung rung);
Result<SumRung> parse_sum_rung(std::string_view text);
// What the rung changes, in one line, for tables and the views.
[[nodiscard]] std::string_view describe(SumRung rung);

// The data the sums run on.
enum class SumData {
  kUniform,      // uniform in [0, 1)
  kEqual,        // every element 1.0: every partial sum is an integer, exact in float below 2^24
  kAlternating,  // +a, -b, +c, ... with a, b, c uniform in [1, 2): the sum cancels to almost 0
  kWide,         // random signs, magnitudes 2^-30 .. 2^30: huge and tiny terms mixed
};
[[nodiscard]] std::string_view to_string(SumData data);
Result<SumData> parse_sum_data(std::string_view text);

struct ReductionParams {
  std::uint64_t n = std::uint64_t{1} << 24;
  SumRung rung = SumRung::kWarpShuffle;  // the one traced and drawn; a timed run times them all
  bool scan = false;  // kernel=scan: the traced launch draws the inclusive scan instead of a rung
  std::uint32_t block = 256;
  std::uint32_t grid = 0;  // 0: auto (sum_config)
  SumData data = SumData::kUniform;
  std::uint32_t rows = 1024;  // the softmax's matrix
  std::uint32_t cols = 4096;
};

// The kernels index with ints: n below 2^30 keeps every index (and the vectorized rung's
// i + 3·stride) in range.
inline constexpr std::uint64_t kReductionMaxElements = std::uint64_t{1} << 30;
inline constexpr std::uint32_t kHistogramBins = 256;

// n from 1 to kReductionMaxElements, the block a power of two from 32 to 1024, rows × cols at
// most kReductionMaxElements with cols >= 1.
Status validate_reduction(const ReductionParams& params);

// Threads the vectorized rung's automatic grid aims at: enough to keep any current GPU's memory
// busy (an H100 holds 132 × 2048 resident threads) without a second wave of blocks.
inline constexpr std::uint64_t kVectorizedAutoThreads = std::uint64_t{1} << 18;

// The rung's launch: the given grid, or (grid 0) one thread per element for rungs 1-4, one per two
// elements for first-add and warp-shuffle, and for the vectorized rung one per four elements up to
// kVectorizedAutoThreads threads (its grid-stride loop covers the rest).
[[nodiscard]] LaunchConfig sum_config(SumRung rung, std::uint64_t n, std::uint32_t block,
                                      std::uint32_t grid = 0);
// A grid of whole resident blocks on every SM: what the benchmark gives the vectorized rung.
[[nodiscard]] std::uint32_t device_filling_grid(int multiprocessors,
                                                std::uint32_t max_threads_per_multiprocessor,
                                                std::uint32_t block);

// The inputs, deterministic for a seed.
std::vector<float> make_sum_data(std::uint64_t n, SumData data, std::uint32_t seed);

// ---- Numerics: the same sum in different orders and precisions. ----
// Float64 with Neumaier's compensation: for float inputs the exact sum to within a few units of
// double rounding; the reference every error is measured against.
[[nodiscard]] double exact_sum(std::span<const float> values);
[[nodiscard]] double abs_sum(std::span<const float> values);  // sum |x_i| in float64
// What a beginner's CPU loop does: one float accumulator, left to right.
[[nodiscard]] float sequential_float_sum(std::span<const float> values);
// Kahan's compensated float sum: carries the lost low bits along.
[[nodiscard]] float kahan_float_sum(std::span<const float> values);
// Pairwise (a tree, like the GPU's): float, halves summed recursively.
[[nodiscard]] float pairwise_float_sum(std::span<const float> values);

// The longest chain of float additions a rung's result passes through (the depth of its summation
// tree): each addition rounds with relative error at most u = 2^-24, so |result - exact| <=
// depth · u · sum|x_i| (to first order; Higham, "Accuracy and Stability of Numerical Algorithms",
// 2nd ed., eq. 4.3). A tree of blocks is shallow; one accumulator fed by every element is n deep.
[[nodiscard]] std::uint64_t sum_depth(SumRung rung, std::uint64_t n, const LaunchConfig& config);
inline constexpr double kFloatUnitRoundoff = 1.0 / 16777216.0;  // 2^-24
// depth · u · sum|x| with 1% slack for the second-order terms.
[[nodiscard]] double sum_error_bound(std::uint64_t depth, double sum_of_magnitudes);

struct SumCheck {
  std::string what;  // "warp-shuffle", "CPU sequential float", ...
  double value = 0;
  double exact = 0;
  double error = 0;      // |value - exact|
  double tolerance = 0;  // the bound it must stay within; 0 where it is only shown
  bool passed = true;
  [[nodiscard]] double relative_error() const;
  [[nodiscard]] std::string describe() const;
};
// `value` against `exact` within `tolerance`; NaN or infinity always fails.
[[nodiscard]] SumCheck check_sum(std::string what, double value, double exact, double tolerance);

// ---- Scan (inclusive prefix sum) ----
// The threshold the warp-vote count compares against
// (lessons/06_reductions/kernels/warp_level.cuh).
inline constexpr float kCountThreshold = 0.5f;
// The longest chain of float additions any prefix of the lesson's scan passes through
// (lessons/06_reductions/kernels/scan.cuh): 12 per level of block totals (kernels::scan_levels).
[[nodiscard]] std::uint64_t scan_depth(std::uint64_t n, std::uint32_t block);
struct ScanCheck {
  bool passed = true;
  std::uint64_t elements = 0;
  std::uint64_t wrong = 0;  // prefixes outside their bound (or not finite)
  std::uint64_t first_wrong = 0;
  double first_wrong_value = 0, first_wrong_expected = 0;
  double max_error = 0;        // largest |out[i] - exact prefix| among those within their bound
  double max_error_share = 0;  // the largest error / bound among them
  [[nodiscard]] std::string describe() const;
};
// Each out[i] within sum_error_bound(depth, |in[0]| + ... + |in[i]|) of the exact prefix
// in[0] + ... + in[i] (a compensated float64 running sum).
[[nodiscard]] ScanCheck check_scan(std::span<const float> got, std::span<const float> input,
                                   std::uint64_t depth);

// ---- Histogram ----
// Bin numbers in [0, bins): uniform, or skewed (bin b with probability 2^-(b+1): half the
// elements land in bin 0, so their atomics all queue on one counter).
std::vector<std::uint32_t> make_histogram_values(std::uint64_t n, std::uint32_t bins, bool skewed,
                                                 std::uint32_t seed);
std::vector<std::uint32_t> histogram_reference(std::span<const std::uint32_t> values,
                                               std::uint32_t bins);

// ---- Softmax ----
// Logits uniform in [-scale, scale) plus `shift`: the lesson's large inputs shift them to
// 80 .. 100, where exp overflows a float.
std::vector<float> make_logits(std::uint64_t rows, std::uint64_t cols, float scale, float shift,
                               std::uint32_t seed);
inline constexpr float kLargeLogitShift = 90.0f;
// The stable formula in float64, row by row.
void softmax_reference(std::span<const float> x, std::uint64_t rows, std::uint64_t cols,
                       std::span<double> y);
struct SoftmaxCheck {
  bool passed = true;
  std::uint64_t not_finite = 0;  // NaN or infinity: the naive formula's overflow
  std::uint64_t wrong = 0;       // finite but outside the tolerance
  double max_error = 0;          // largest |y - exact| over finite elements
  double tolerance_at_max = 0;
  [[nodiscard]] std::string describe() const;
};
// Each y within u · (4·(ceil(cols / block) + 12) + 2·range + 8) of exact, relative: the sum's
// depth, and exp(x - m)'s error grows with |x - m| (at most `range`, the logits' spread).
SoftmaxCheck check_softmax(std::span<const float> y, std::span<const double> exact,
                           std::uint64_t cols, std::uint32_t block, double range);

// ---- The views' pictures ----
// One add of a block's tree: thread `thread` added partial sum `src` into `dst`.
struct TreeAdd {
  int thread = 0;
  int dst = 0;
  int src = 0;
};
// A traced launch's record of block 0's tree (lessons/06_reductions/kernels/reduction_trace.cuh),
// as levels of adds.
struct ReductionTree {
  SumRung rung = SumRung::kSequential;
  std::uint32_t threads = 0;
  std::vector<std::vector<TreeAdd>> levels;  // empty levels at the end dropped
};
// `pairs` holds kReductionTreeLevels × threads pairs (dst, src), -1 where nothing was added.
[[nodiscard]] ReductionTree tree_from_record(SumRung rung, std::uint32_t threads,
                                             std::span<const int> pairs);
// Whether `rung` keeps its partial sums in shared memory (interleaved, strided, sequential,
// first-add, and warp-shuffle above 64), where banks matter; the shuffles' adds are registers.
[[nodiscard]] bool adds_in_shared_memory(SumRung rung, std::uint32_t threads, int level);

// The shared-memory banks one warp touches at one level of the tree: one word per working lane for
// each of its two reads (dst, src); 32 banks of 4-byte words, word w in bank w % 32. A bank asked
// for k different words serves them one after another: the access takes `ways` passes.
struct BankAccess {
  int warp = 0;
  std::vector<int> lanes;      // working lanes of the warp
  std::vector<int> dst_words;  // per working lane
  std::vector<int> src_words;
  int ways = 0;  // the worst of the two reads: 1 = conflict free, 0 = warp idle
};
struct BankLevel {
  std::vector<BankAccess> warps;  // every warp of the block, idle ones with ways 0
  int worst_ways = 0;
};
[[nodiscard]] std::vector<BankLevel> bank_accesses(const ReductionTree& tree);
// The number of passes a warp's read of `words` takes: the most distinct words in one bank.
[[nodiscard]] int bank_conflict_ways(std::span<const int> words);

}  // namespace tl::lessons
