#include "core/soak/soak_plan.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>

#include "core/format.hpp"

namespace tl::soak {
namespace {

constexpr std::array kLessons{"vector-add", "thread-hierarchy", "2d-blocks", "matmul",
                              "dense-layer"};
// Every lesson's parameter names: a name the current lesson does not take is refused, which is
// part of what is exercised.
constexpr std::array kParams{"n",      "grid",    "block",  "rows",        "cols",
                             "m",      "k",       "kernel", "tile",        "batch",
                             "inputs", "neurons", "path",   "grid_stride", "mapping"};
// What people type that must be refused with a message and leave the previous value in place.
constexpr std::array kInvalidValues{"0",          "-5",
                                    "abc",        "2^70",
                                    "1e400",      "65536,65536,65536",
                                    "",           "1.5",
                                    "4294967296", "99999999999999999999",
                                    "16,0",       "auto,auto",
                                    "2^"};
constexpr std::array kColors{"block", "thread", "warp", "sm", "writes", "pass"};
constexpr std::array kViews{"plot", "grid", "timeline", "reads", "layer", "occupancy"};

template <typename Array>
std::string pick(std::mt19937_64& random, const Array& items) {
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(random)];
}

}  // namespace

std::string ActionStream::random_value(const std::string& name) {
  std::uniform_real_distribution<double> chance(0, 1);
  if (chance(random_) < 0.25) return pick(random_, kInvalidValues);
  const bool gpu = scale_ == SoakScale::kGpu;
  auto power = [&](int low, int high) {
    return "2^" + std::to_string(std::uniform_int_distribution<int>(low, high)(random_));
  };
  auto count = [&](int low, int high) {
    return std::to_string(std::uniform_int_distribution<int>(low, high)(random_));
  };
  if (name == "n") return power(4, gpu ? 24 : 16);
  if (name == "grid") return chance(random_) < 0.5 ? "auto" : count(1, 300);
  if (name == "block") {
    static constexpr std::array kBlocks{"1",     "32",   "96",  "128",   "256",   "1024", "2048",
                                        "16,16", "32,8", "7,3", "8,4,4", "32,32", "64,4"};
    return pick(random_, kBlocks);
  }
  if (name == "rows" || name == "cols") return count(1, gpu ? 4096 : 256);
  if (name == "m" || name == "k") return count(1, gpu ? 2048 : 96);
  if (name == "kernel") return chance(random_) < 0.5 ? "naive" : "tiled";
  if (name == "tile") return pick(random_, std::array{"8", "16", "32", "12"});
  if (name == "batch") return count(1, gpu ? 512 : 8);
  if (name == "inputs" || name == "neurons") return count(1, gpu ? 4096 : 128);
  if (name == "path") return pick(random_, std::array{"fused", "unfused", "cublas"});
  if (name == "grid_stride") return count(0, 1);
  if (name == "mapping") return pick(random_, std::array{"x-to-col", "x_to_row"});
  return count(0, 100);
}

Action ActionStream::next() {
  const int roll = std::uniform_int_distribution<int>(0, 99)(random_);
  if (roll < 3) return {ActionKind::kSweepAndCancel, {}};
  if (roll < 4) return {ActionKind::kSweepToTheEnd, {}};
  if (roll < 10) return {ActionKind::kNextStep, {}};
  if (roll < 13) return {ActionKind::kPreviousStep, {}};
  if (roll < 15) return {ActionKind::kTogglePresenter, {}};
  std::string link = "threadlab:set?";
  std::uniform_real_distribution<double> chance(0, 1);
  if (chance(random_) < 0.15) link += "lesson=" + pick(random_, kLessons) + "&";
  const int settings = std::uniform_int_distribution<int>(0, 3)(random_);
  for (int i = 0; i < settings; ++i) {
    const std::string name = pick(random_, kParams);
    link += name + "=" + random_value(name) + "&";
  }
  if (chance(random_) < 0.3) link += "color=" + pick(random_, kColors) + "&";
  if (chance(random_) < 0.1) link += "view=" + pick(random_, kViews) + "&";
  if (chance(random_) < 0.7) link += "launch";
  return {ActionKind::kLink, link};
}

namespace {

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

MemoryVerdict judge_memory(const std::vector<MemorySample>& samples,
                           const MemoryAllowance& allowance) {
  MemoryVerdict verdict;
  if (samples.empty()) {
    verdict.summary = "no samples";
    return verdict;
  }
  const double end = samples.back().seconds;
  std::vector<double> host_start, host_end, device_start, device_end;
  for (const MemorySample& s : samples) {
    if (s.seconds >= allowance.warmup_seconds &&
        s.seconds < allowance.warmup_seconds + allowance.window_seconds) {
      host_start.push_back(s.host_bytes);
      device_start.push_back(s.device_used_bytes);
    }
    if (s.seconds > end - allowance.window_seconds) {
      host_end.push_back(s.host_bytes);
      device_end.push_back(s.device_used_bytes);
    }
  }
  if (host_start.empty()) {  // a run shorter than the warm-up: compare with its first sample
    host_start.push_back(samples.front().host_bytes);
    device_start.push_back(samples.front().device_used_bytes);
  }
  const double host_base = median_of(host_start);
  verdict.host_growth_bytes = median_of(host_end) - host_base;
  verdict.device_growth_bytes = median_of(device_end) - median_of(device_start);
  const double host_limit = allowance.host_bytes + allowance.host_fraction * host_base;
  const bool host_flat = verdict.host_growth_bytes <= host_limit;
  const bool device_flat = verdict.device_growth_bytes <= allowance.device_bytes;
  verdict.flat = host_flat && device_flat;
  verdict.summary = std::string(verdict.flat ? "flat" : "GROWING") + ": host " +
                    format_bytes(host_base) + " + " + format_bytes(verdict.host_growth_bytes) +
                    " (allowed " + format_bytes(host_limit) + "), device + " +
                    format_bytes(verdict.device_growth_bytes) + " (allowed " +
                    format_bytes(allowance.device_bytes) + ")";
  return verdict;
}

double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  double pages_total = 0;
  double pages_resident = 0;
  if (!(statm >> pages_total >> pages_resident)) return 0;
  return pages_resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

}  // namespace tl::soak
