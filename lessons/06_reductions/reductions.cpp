#include "reductions.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "core/format.hpp"

namespace tl::lessons {
namespace {

struct RungName {
  SumRung rung;
  std::string_view name;
  std::string_view description;
};
constexpr RungName kRungNames[] = {
    {SumRung::kAtomic, "atomic", "one atomicAdd per element"},
    {SumRung::kInterleaved, "interleaved", "shared-memory tree, interleaved addressing"},
    {SumRung::kStrided, "strided", "shared-memory tree, strided index (bank conflicts)"},
    {SumRung::kSequential, "sequential", "shared-memory tree, sequential addressing"},
    {SumRung::kFirstAdd, "first-add", "first add during load"},
    {SumRung::kWarpShuffle, "warp-shuffle", "warp-shuffle tail"},
    {SumRung::kCooperativeGroups, "cooperative-groups",
     "cooperative groups: every warp sums in a tile, no shared-memory tree"},
    {SumRung::kVectorized, "vectorized", "one pass: float4 grid-stride loop, shuffles"},
};

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

// xorshift32, as core/lessons/random_inputs does: the same data on every platform.
class Random {
 public:
  explicit Random(std::uint32_t seed) : state_(seed == 0 ? 0x9E3779B9u : seed) {}
  std::uint32_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  // Uniform in [0, 1), 24 random bits.
  float unit() { return static_cast<float>(next() >> 8) * (1.0f / 16777216.0f); }

 private:
  std::uint32_t state_;
};

}  // namespace

std::string_view to_string(SumRung rung) {
  for (const RungName& r : kRungNames) {
    if (r.rung == rung) return r.name;
  }
  return "?";
}

std::string_view describe(SumRung rung) {
  for (const RungName& r : kRungNames) {
    if (r.rung == rung) return r.description;
  }
  return "?";
}

Result<SumRung> parse_sum_rung(std::string_view text) {
  for (const RungName& r : kRungNames) {
    if (r.name == text) return r.rung;
  }
  return invalid_argument("unknown kernel '" + std::string(text) +
                          "': choose atomic, interleaved, strided, sequential, first-add, "
                          "warp-shuffle, cooperative-groups or vectorized.");
}

std::string_view to_string(SumData data) {
  switch (data) {
    case SumData::kUniform:
      return "uniform";
    case SumData::kEqual:
      return "equal";
    case SumData::kAlternating:
      return "alternating";
    case SumData::kWide:
      return "wide";
  }
  return "?";
}

Result<SumData> parse_sum_data(std::string_view text) {
  for (SumData d : {SumData::kUniform, SumData::kEqual, SumData::kAlternating, SumData::kWide}) {
    if (to_string(d) == text) return d;
  }
  return invalid_argument("unknown data '" + std::string(text) +
                          "': choose uniform, equal, alternating or wide.");
}

Status validate_reduction(const ReductionParams& p) {
  if (p.n == 0 || p.n > kReductionMaxElements) {
    return invalid_argument("n must be 1 to 2^30 (the kernels index with ints), not " +
                            std::to_string(p.n) + ".");
  }
  if (p.block < 32 || p.block > 1024 || !std::has_single_bit(p.block)) {
    return invalid_argument(
        "the reduction kernels take blocks of 32 to 1024 threads, a power of "
        "two (the trees halve the block, the shuffles need whole warps), not " +
        std::to_string(p.block) + ".");
  }
  if (p.rows == 0 || p.cols == 0 ||
      std::uint64_t{p.rows} * std::uint64_t{p.cols} > kReductionMaxElements) {
    return invalid_argument(
        "the softmax needs rows and cols of at least 1 and rows × cols at most "
        "2^30, not " +
        std::to_string(p.rows) + " × " + std::to_string(p.cols) + ".");
  }
  return Status::ok();
}

LaunchConfig sum_config(SumRung rung, std::uint64_t n, std::uint32_t block, std::uint32_t grid) {
  LaunchConfig config{{grid, 1, 1}, {block, 1, 1}};
  if (grid != 0) return config;
  std::uint64_t blocks = 0;
  switch (rung) {
    case SumRung::kAtomic:
    case SumRung::kInterleaved:
    case SumRung::kStrided:
    case SumRung::kSequential:
      blocks = ceil_div(n, block);
      break;
    case SumRung::kFirstAdd:
    case SumRung::kWarpShuffle:
    case SumRung::kCooperativeGroups:
      blocks = ceil_div(n, 2ull * block);
      break;
    case SumRung::kVectorized:
      blocks = std::min(ceil_div(ceil_div(n, 4), block), kVectorizedAutoThreads / block);
      break;
  }
  config.grid.x = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, blocks));
  return config;
}

std::uint32_t device_filling_grid(int multiprocessors, std::uint32_t max_threads_per_multiprocessor,
                                  std::uint32_t block) {
  const std::uint32_t per_sm = std::max<std::uint32_t>(1, max_threads_per_multiprocessor / block);
  return static_cast<std::uint32_t>(std::max(1, multiprocessors)) * per_sm;
}

std::vector<float> make_sum_data(std::uint64_t n, SumData data, std::uint32_t seed) {
  std::vector<float> values(n);
  Random random(seed);
  for (std::uint64_t i = 0; i < n; ++i) {
    switch (data) {
      case SumData::kUniform:
        values[i] = random.unit();
        break;
      case SumData::kEqual:
        values[i] = 1.0f;
        break;
      case SumData::kAlternating:
        values[i] = (i % 2 == 0 ? 1.0f : -1.0f) * (1.0f + random.unit());
        break;
      case SumData::kWide: {
        const int exponent = static_cast<int>(random.next() % 61) - 30;
        const float sign = (random.next() & 1u) != 0 ? -1.0f : 1.0f;
        values[i] = sign * std::ldexp(1.0f + random.unit(), exponent);
        break;
      }
    }
  }
  return values;
}

double exact_sum(std::span<const float> values) {
  // Neumaier's variant of Kahan: also correct when a term is larger than the running sum.
  double sum = 0.0, compensation = 0.0;
  for (float f : values) {
    const double x = f;
    const double t = sum + x;
    compensation += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  return sum + compensation;
}

double abs_sum(std::span<const float> values) {
  double sum = 0.0;
  for (float f : values) sum += std::fabs(static_cast<double>(f));
  return sum;
}

float sequential_float_sum(std::span<const float> values) {
  float sum = 0.0f;
  for (float x : values) sum += x;
  return sum;
}

float kahan_float_sum(std::span<const float> values) {
  float sum = 0.0f, compensation = 0.0f;
  for (float x : values) {
    // volatile keeps the compiler from simplifying (t - sum) - y to 0 under fast-math flags.
    const float y = x - compensation;
    volatile float t = sum + y;
    compensation = (t - sum) - y;
    sum = t;
  }
  return sum;
}

float pairwise_float_sum(std::span<const float> values) {
  // Below this many terms a plain loop: the error bound stays (log2(n / 64) + 64) · u.
  constexpr std::size_t kLeaf = 64;
  if (values.size() <= kLeaf) return sequential_float_sum(values);
  const std::size_t half = values.size() / 2;
  return pairwise_float_sum(values.first(half)) + pairwise_float_sum(values.subspan(half));
}

std::uint64_t sum_depth(SumRung rung, std::uint64_t n, const LaunchConfig& config) {
  const std::uint64_t block = config.block.x;
  const std::uint64_t grid = config.grid.x;
  const auto levels = static_cast<std::uint64_t>(std::bit_width(block) - 1);  // log2(block)
  switch (rung) {
    case SumRung::kAtomic:
      return n;  // every element goes into the one accumulator
    case SumRung::kInterleaved:
    case SumRung::kStrided:
    case SumRung::kSequential:
      return levels + grid;  // the block's tree, then one atomic per block into the result
    case SumRung::kFirstAdd:
    case SumRung::kWarpShuffle:
      return 1 + levels + grid;
    case SumRung::kCooperativeGroups:
      // The first add, 5 shuffles in each warp, 5 across the warp sums (the ones past the last
      // warp add 0.0f, which is exact), then one atomic per block.
      return 1 + 10 + grid;
    case SumRung::kVectorized: {
      // Per thread: its trips (each adding a float4's pairwise sum, 2 deep), the four
      // accumulators combined (2) and the tail (1); the block's two shuffle trees (10); the last
      // block's loop over the block sums and its two shuffle trees again.
      const std::uint64_t trips =
          ceil_div(ceil_div(n, 4), std::max<std::uint64_t>(1, grid * block));
      return trips + 2 + 2 + 1 + 10 + ceil_div(grid, block) + 10;
    }
  }
  return n;
}

double sum_error_bound(std::uint64_t depth, double sum_of_magnitudes) {
  return 1.01 * static_cast<double>(depth) * kFloatUnitRoundoff * sum_of_magnitudes;
}

std::uint64_t scan_depth(std::uint64_t n, std::uint32_t block) {
  // Per level: the warp's scan (5 adds), the scan of the warp totals (5) and the add of the warps
  // before (1), then the add of the blocks before (1), at every level of block totals.
  return 12 * static_cast<std::uint64_t>(kernels::scan_levels(n, block));
}

std::string ScanCheck::describe() const {
  char text[256];
  if (passed) {
    std::snprintf(text, sizeof(text),
                  "inclusive scan of %llu: every prefix within its bound (largest error %.3g, "
                  "%.2g of its bound)",
                  static_cast<unsigned long long>(elements), max_error, max_error_share);
  } else {
    std::snprintf(text, sizeof(text),
                  "inclusive scan of %llu: WRONG, %llu prefixes outside their bound; the first, "
                  "out[%llu] = %.9g, should be %.9g",
                  static_cast<unsigned long long>(elements), static_cast<unsigned long long>(wrong),
                  static_cast<unsigned long long>(first_wrong), first_wrong_value,
                  first_wrong_expected);
  }
  return text;
}

ScanCheck check_scan(std::span<const float> got, std::span<const float> input,
                     std::uint64_t depth) {
  ScanCheck check;
  check.elements = input.size();
  // The reference prefix is Neumaier's compensated running sum in float64, as exact_sum: each
  // prefix to within a few units of double rounding, far below any float scan's error. Computed
  // as it goes: a 2^28-element check needs no second copy of the array.
  double sum = 0, compensation = 0, magnitude = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const double x = input[i];
    const double t = sum + x;
    compensation += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
    const double exact = sum + compensation;
    magnitude += std::fabs(x);
    const double bound = sum_error_bound(depth, magnitude);
    const double value = i < got.size() ? got[i] : std::nan("");
    const double error = std::fabs(value - exact);
    if (std::isfinite(value) && error <= bound) {
      check.max_error = std::max(check.max_error, error);
      if (bound > 0) check.max_error_share = std::max(check.max_error_share, error / bound);
      continue;
    }
    if (check.wrong++ == 0) {
      check.first_wrong = i;
      check.first_wrong_value = value;
      check.first_wrong_expected = exact;
    }
  }
  check.passed = check.wrong == 0 && got.size() == input.size();
  return check;
}

double SumCheck::relative_error() const {
  const double scale = std::fabs(exact);
  return scale > 0 ? error / scale : error;
}

std::string SumCheck::describe() const {
  char text[256];
  if (tolerance > 0) {
    std::snprintf(text, sizeof(text), "%s: %.9g, error %.3g (bound %.3g)%s", what.c_str(), value,
                  error, tolerance, passed ? "" : ": WRONG");
  } else {
    std::snprintf(text, sizeof(text), "%s: %.9g, error %.3g (relative %.2g)", what.c_str(), value,
                  error, relative_error());
  }
  return text;
}

SumCheck check_sum(std::string what, double value, double exact, double tolerance) {
  SumCheck check;
  check.what = std::move(what);
  check.value = value;
  check.exact = exact;
  check.error = std::fabs(value - exact);
  check.tolerance = tolerance;
  check.passed = std::isfinite(value) && check.error <= tolerance;
  return check;
}

std::vector<std::uint32_t> make_histogram_values(std::uint64_t n, std::uint32_t bins, bool skewed,
                                                 std::uint32_t seed) {
  std::vector<std::uint32_t> values(n);
  Random random(seed);
  for (auto& v : values) {
    const std::uint32_t r = random.next();
    if (skewed) {
      // The number of trailing zero bits of a random word: 0 with probability 1/2, 1 with 1/4, ...
      v = std::min<std::uint32_t>(bins - 1,
                                  static_cast<std::uint32_t>(std::countr_zero(r | 0x80000000u)));
    } else {
      v = static_cast<std::uint32_t>((static_cast<std::uint64_t>(r) * bins) >> 32);
    }
  }
  return values;
}

std::vector<std::uint32_t> histogram_reference(std::span<const std::uint32_t> values,
                                               std::uint32_t bins) {
  std::vector<std::uint32_t> counts(bins, 0);
  for (std::uint32_t v : values) ++counts[v];
  return counts;
}

std::vector<float> make_logits(std::uint64_t rows, std::uint64_t cols, float scale, float shift,
                               std::uint32_t seed) {
  std::vector<float> x(rows * cols);
  Random random(seed);
  for (float& v : x) v = shift + scale * (2.0f * random.unit() - 1.0f);
  return x;
}

void softmax_reference(std::span<const float> x, std::uint64_t rows, std::uint64_t cols,
                       std::span<double> y) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    const float* in = x.data() + r * cols;
    double* out = y.data() + r * cols;
    double m = -std::numeric_limits<double>::infinity();
    for (std::uint64_t c = 0; c < cols; ++c) m = std::max(m, static_cast<double>(in[c]));
    double sum = 0;
    for (std::uint64_t c = 0; c < cols; ++c) sum += std::exp(static_cast<double>(in[c]) - m);
    for (std::uint64_t c = 0; c < cols; ++c)
      out[c] = std::exp(static_cast<double>(in[c]) - m) / sum;
  }
}

std::string SoftmaxCheck::describe() const {
  char text[200];
  if (not_finite > 0) {
    std::snprintf(text, sizeof(text), "%llu element(s) NaN or infinite (overflow)",
                  static_cast<unsigned long long>(not_finite));
    return text;
  }
  std::snprintf(text, sizeof(text), "%s: largest error %.3g (tolerance %.3g), %llu wrong",
                passed ? "correct" : "WRONG", max_error, tolerance_at_max,
                static_cast<unsigned long long>(wrong));
  return text;
}

SoftmaxCheck check_softmax(std::span<const float> y, std::span<const double> exact,
                           std::uint64_t cols, std::uint32_t block, double range) {
  SoftmaxCheck check;
  const double relative =
      kFloatUnitRoundoff *
      (4.0 * (static_cast<double>(ceil_div(cols, std::max<std::uint32_t>(1, block))) + 12.0) +
       2.0 * range + 8.0);
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!std::isfinite(y[i])) {
      ++check.not_finite;
      continue;
    }
    const double error = std::fabs(static_cast<double>(y[i]) - exact[i]);
    // Below float's smallest normal number the relative bound no longer holds: allow that much.
    const double tolerance =
        relative * exact[i] + static_cast<double>(std::numeric_limits<float>::min());
    if (error > tolerance) ++check.wrong;
    if (error >= check.max_error) {
      check.max_error = error;
      check.tolerance_at_max = tolerance;
    }
  }
  check.passed = check.not_finite == 0 && check.wrong == 0;
  return check;
}

ReductionTree tree_from_record(SumRung rung, std::uint32_t threads, std::span<const int> pairs) {
  ReductionTree tree;
  tree.rung = rung;
  tree.threads = threads;
  for (int level = 0; level < kernels::kReductionTreeLevels; ++level) {
    std::vector<TreeAdd> adds;
    for (std::uint32_t t = 0; t < threads; ++t) {
      const std::size_t at = 2 * (static_cast<std::size_t>(level) * threads + t);
      if (at + 1 >= pairs.size() || pairs[at] < 0) continue;
      adds.push_back({static_cast<int>(t), pairs[at], pairs[at + 1]});
    }
    tree.levels.push_back(std::move(adds));
  }
  while (!tree.levels.empty() && tree.levels.back().empty()) tree.levels.pop_back();
  return tree;
}

bool adds_in_shared_memory(SumRung rung, std::uint32_t threads, int level) {
  switch (rung) {
    case SumRung::kInterleaved:
    case SumRung::kStrided:
    case SumRung::kSequential:
    case SumRung::kFirstAdd:
      return true;
    case SumRung::kWarpShuffle:
      // The shared levels halve the block down to 64 partial sums; the first level of the warp
      // also reads shared memory (partial[tid + 32]); the shuffles after it do not.
      return threads >= 64 && level <= static_cast<int>(std::bit_width(threads)) - 1 - 6;
    case SumRung::kAtomic:
    case SumRung::kCooperativeGroups:  // its adds are shuffles; shared memory only passes 32 sums
    case SumRung::kVectorized:
      return false;
  }
  return false;
}

int bank_conflict_ways(std::span<const int> words) {
  std::map<int, std::set<int>> by_bank;
  for (int w : words) by_bank[w % 32].insert(w);
  int ways = 0;
  for (const auto& [bank, distinct] : by_bank)
    ways = std::max(ways, static_cast<int>(distinct.size()));
  return ways;
}

std::vector<BankLevel> bank_accesses(const ReductionTree& tree) {
  std::vector<BankLevel> levels;
  const int warps = static_cast<int>(ceil_div(tree.threads, 32));
  for (const auto& adds : tree.levels) {
    BankLevel level;
    level.warps.resize(static_cast<std::size_t>(warps));
    for (int w = 0; w < warps; ++w) level.warps[static_cast<std::size_t>(w)].warp = w;
    for (const TreeAdd& add : adds) {
      BankAccess& access = level.warps[static_cast<std::size_t>(add.thread / 32)];
      access.lanes.push_back(add.thread % 32);
      access.dst_words.push_back(add.dst);
      access.src_words.push_back(add.src);
    }
    for (BankAccess& access : level.warps) {
      access.ways =
          std::max(bank_conflict_ways(access.dst_words), bank_conflict_ways(access.src_words));
      level.worst_ways = std::max(level.worst_ways, access.ways);
    }
    levels.push_back(std::move(level));
  }
  return levels;
}

}  // namespace tl::lessons
