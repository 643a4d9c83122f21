#include "core/soak/soak_plan.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>

#include "core/format.hpp"

namespace tl::soak {
namespace {

// What people type that must be refused with a message and leave the previous value in place.
constexpr std::array kInvalidValues{"0",          "-5",
                                    "abc",        "2^70",
                                    "1e400",      "65536,65536,65536",
                                    "",           "1.5",
                                    "4294967296", "99999999999999999999",
                                    "16,0",       "auto,auto",
                                    "2^"};
constexpr std::array kColors{"block", "thread", "warp", "sm", "writes", "pass"};

template <typename Array>
std::string pick(std::mt19937_64& random, const Array& items) {
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(random)];
}

}  // namespace

std::string ActionStream::random_value(const SoakParam& param) {
  std::uniform_real_distribution<double> chance(0, 1);
  if (chance(random_) < 0.25) return pick(random_, kInvalidValues);
  auto count = [&](std::uint64_t low, std::uint64_t high) {
    return std::to_string(std::uniform_int_distribution<std::uint64_t>(low, high)(random_));
  };
  const lessons::ParamSpec& spec = param.spec;
  switch (spec.kind) {
    case lessons::ParamKind::kCount: {
      const std::uint64_t largest = std::max<std::uint64_t>(1, param.largest_count);
      if (chance(random_) < 0.5) return count(1, largest);
      // A power of two, as people type sizes: "2^12".
      const int top = static_cast<int>(std::floor(std::log2(static_cast<double>(largest))));
      return "2^" + std::to_string(std::uniform_int_distribution<int>(0, top)(random_));
    }
    case lessons::ParamKind::kDim3: {
      if (spec.default_value == "auto") {  // a grid
        return chance(random_) < 0.5 ? "auto" : count(1, scale_ == SoakScale::kGpu ? 4096 : 300);
      }
      static constexpr std::array kBlocks{"1",     "32",   "96",  "128",   "256",   "1024", "2048",
                                          "16,16", "32,8", "7,3", "8,4,4", "32,32", "64,4"};
      return pick(random_, kBlocks);
    }
    case lessons::ParamKind::kChoice: {
      if (spec.choices.empty()) return count(0, 100);
      std::string choice = pick(random_, spec.choices);
      // The underscore spelling is an accepted alias ("x_to_row" for "x-to-row"): exercise both.
      if (chance(random_) < 0.3) std::replace(choice.begin(), choice.end(), '-', '_');
      return choice;
    }
    case lessons::ParamKind::kFlag:
      return count(0, 1);
  }
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
  if (chance(random_) < 0.15 && !vocabulary_.lessons.empty()) {
    link += "lesson=" + pick(random_, vocabulary_.lessons) + "&";
  }
  const int settings =
      vocabulary_.params.empty() ? 0 : std::uniform_int_distribution<int>(0, 3)(random_);
  for (int i = 0; i < settings; ++i) {
    const SoakParam& param = vocabulary_.params[std::uniform_int_distribution<std::size_t>(
        0, vocabulary_.params.size() - 1)(random_)];
    link += param.spec.name + "=" + random_value(param) + "&";
  }
  if (chance(random_) < 0.3) link += "color=" + pick(random_, kColors) + "&";
  if (chance(random_) < 0.1 && !vocabulary_.views.empty()) {
    link += "view=" + pick(random_, vocabulary_.views) + "&";
  }
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
