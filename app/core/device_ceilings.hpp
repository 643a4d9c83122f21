#pragma once
// What this device can do at best, measured on it: the device-to-device copy bandwidth (the
// ceiling of a memory-bound kernel) and cuBLAS SGEMM's rate (the ceiling of a float32 matrix
// multiply without tensor cores). Every GPU result is shown as a share of one of them. Measuring
// takes a second, so results are cached per device in a small JSON file.

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "core/device_info.hpp"
#include "core/result.hpp"

namespace tl {

struct DeviceCeilings {
  // cudaMemcpy device → device, bytes read plus bytes written per second, from the fastest of the
  // repeats (a ceiling is the best the device did, not a typical run).
  double copy_bytes_per_second = 0;
  std::uint64_t copy_buffer_bytes = 0;
  // cuBLAS SGEMM on square matrices of sgemm_size, floating-point operations per second (0: no
  // cuBLAS here; sgemm_absent says why).
  double sgemm_flops_per_second = 0;
  std::uint32_t sgemm_size = 0;
  std::string sgemm_absent;
  std::string measured_at;  // UTC, ISO 8601
  friend bool operator==(const DeviceCeilings&, const DeviceCeilings&) = default;
};

// A result's share of its ceiling, e.g. 0.82; nullopt when the ceiling is unknown.
[[nodiscard]] std::optional<double> share_of_ceiling(double rate, double ceiling);

// A timed result against the ceiling that bounds it: its GFLOP/s against cuBLAS SGEMM where it
// does more operations than it moves bytes (a matrix product), else its GB/s against the copy.
struct CeilingShare {
  double share = 0;          // 0.82 for 82 %
  std::string_view ceiling;  // "device copy" or "cuBLAS SGEMM"
};
[[nodiscard]] std::optional<CeilingShare> share_of_ceilings(double bytes, double flops,
                                                            double milliseconds,
                                                            const DeviceCeilings& ceilings);

// Both rates of a timed result, each with its share of its ceiling where that is known: a vector
// add at 93 % of the copy bandwidth is at 0.4 % of cuBLAS's GFLOP/s, which is what "memory bound"
// means. A rate is absent where the result does no such work (bytes or flops of 0).
struct RateAgainstCeiling {
  double per_second = 0;        // bytes or floating-point operations per second
  std::optional<double> share;  // of the ceiling; nullopt where it was not measured
};
struct RatesAgainstCeilings {
  std::optional<RateAgainstCeiling> bytes;  // against the device copy
  std::optional<RateAgainstCeiling> flops;  // against cuBLAS SGEMM
};
[[nodiscard]] RatesAgainstCeilings rates_against_ceilings(double bytes, double flops,
                                                          double milliseconds,
                                                          const DeviceCeilings* ceilings);

// Both rates in words, for a tooltip or a report line: "2.76 TB/s = 91 % of the device copy;
// 230 GFLOP/s = 0.45 % of cuBLAS SGEMM". Empty when there is no rate.
[[nodiscard]] std::string describe_rates(const RatesAgainstCeilings& rates);

// The cache key: the same GPU model on the same driver measures the same.
[[nodiscard]] std::string ceilings_key(const DeviceInfo& device);

// $XDG_CACHE_HOME/threadlab/ceilings.json, or ~/.cache/threadlab/ceilings.json; nullopt when
// neither variable is set.
[[nodiscard]] std::optional<std::filesystem::path> default_ceilings_cache_path();

class CeilingsCache {
 public:
  // Reads `path`. A missing file is an empty cache; an unreadable or corrupt one is an error
  // (kParseError with the reason), which callers show as a warning and then measure afresh.
  static Result<CeilingsCache> load(const std::filesystem::path& path);
  [[nodiscard]] Status save(const std::filesystem::path& path) const;

  [[nodiscard]] std::optional<DeviceCeilings> find(const std::string& key) const;
  void store(const std::string& key, const DeviceCeilings& ceilings);

 private:
  std::map<std::string, DeviceCeilings> entries_;
};

}  // namespace tl
