#include "core/device_ceilings.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/plot/tick_format.hpp"
#include "core/user_files.hpp"

namespace tl {
namespace {

// nlohmann's get<T>() converts any number to any arithmetic type with a plain cast, which is
// undefined for a float out of the target's range (the fuzzer found 1e300 as a size). Fields are
// therefore read by kind and range-checked here, and a wrong one is a parse error naming it.
double read_rate(const nlohmann::json& entry, const char* name) {
  const auto& field = entry.at(name);
  if (!field.is_number()) throw std::invalid_argument(std::string(name) + " is not a number");
  return field.get<double>();
}

template <typename Count>
Count read_count(const nlohmann::json& entry, const char* name) {
  const auto& field = entry.at(name);
  if (field.is_number_unsigned()) {
    const auto value = field.get<std::uint64_t>();
    if (value <= std::numeric_limits<Count>::max()) return static_cast<Count>(value);
  } else if (field.is_number_integer() && field.get<std::int64_t>() == 0) {
    return 0;
  }
  throw std::invalid_argument(std::string(name) + " is not a count in range");
}

}  // namespace

std::optional<double> share_of_ceiling(double rate, double ceiling) {
  if (!(ceiling > 0) || !std::isfinite(ceiling) || !std::isfinite(rate) || rate < 0) {
    return std::nullopt;
  }
  return rate / ceiling;
}

std::optional<CeilingShare> share_of_ceilings(double bytes, double flops, double milliseconds,
                                              const DeviceCeilings& ceilings) {
  if (!(milliseconds > 0)) return std::nullopt;
  const double seconds = milliseconds * 1e-3;
  if (flops > 0 && flops > bytes) {
    const auto share = share_of_ceiling(flops / seconds, ceilings.sgemm_flops_per_second);
    if (!share) return std::nullopt;
    return CeilingShare{*share, "cuBLAS SGEMM"};
  }
  if (bytes > 0) {
    const auto share = share_of_ceiling(bytes / seconds, ceilings.copy_bytes_per_second);
    if (!share) return std::nullopt;
    return CeilingShare{*share, "device copy"};
  }
  return std::nullopt;
}

RatesAgainstCeilings rates_against_ceilings(double bytes, double flops, double milliseconds,
                                            const DeviceCeilings* ceilings) {
  RatesAgainstCeilings rates;
  if (!(milliseconds > 0) || !std::isfinite(milliseconds)) return rates;
  const double seconds = milliseconds * 1e-3;
  if (bytes > 0) {
    const double rate = bytes / seconds;
    rates.bytes = RateAgainstCeiling{
        rate, ceilings ? share_of_ceiling(rate, ceilings->copy_bytes_per_second) : std::nullopt};
  }
  if (flops > 0) {
    const double rate = flops / seconds;
    rates.flops = RateAgainstCeiling{
        rate, ceilings ? share_of_ceiling(rate, ceilings->sgemm_flops_per_second) : std::nullopt};
  }
  return rates;
}

namespace {

std::string percent(double share) {
  // Two significant digits below 10 %, so a memory-bound kernel's tiny share of cuBLAS still reads.
  return plot::format_value(share * 100.0, plot::TickFormat::kNumber, share < 0.1 ? 2 : 3) + " %";
}

}  // namespace

std::string describe_rates(const RatesAgainstCeilings& rates) {
  std::string text;
  auto add = [&text](const std::optional<RateAgainstCeiling>& rate, plot::TickFormat format,
                     const char* ceiling) {
    if (!rate) return;
    if (!text.empty()) text += "; ";
    text += plot::format_value(rate->per_second, format, 3);
    if (rate->share) text += " = " + percent(*rate->share) + " of " + ceiling;
  };
  add(rates.bytes, plot::TickFormat::kByteRate, "the device copy");
  add(rates.flops, plot::TickFormat::kFlopRate, "cuBLAS SGEMM");
  return text;
}

std::string ceilings_key(const DeviceInfo& device) {
  return device.name + " / sm_" + std::to_string(device.compute_major) +
         std::to_string(device.compute_minor) + " / driver " +
         std::to_string(device.driver_version);
}

std::optional<std::filesystem::path> default_ceilings_cache_path() {
  return user_file("XDG_CACHE_HOME", ".cache", "ceilings.json");
}

Result<CeilingsCache> CeilingsCache::load(const std::filesystem::path& path) {
  CeilingsCache cache;
  std::error_code exists_error;
  if (!std::filesystem::exists(path, exists_error)) return cache;
  std::ifstream in(path);
  if (!in) return Error{ErrorKind::kIoError, "cannot read " + path.string()};
  std::stringstream text;
  text << in.rdbuf();
  try {
    const nlohmann::json document = nlohmann::json::parse(text.str());
    if (!document.is_object() || !document.contains("devices") ||
        !document.at("devices").is_object()) {
      return Error{ErrorKind::kParseError, path.string() + ": expected {\"devices\": {...}}"};
    }
    for (const auto& [key, entry] : document.at("devices").items()) {
      DeviceCeilings c;
      if (!entry.is_object()) {
        return Error{ErrorKind::kParseError, path.string() + ": '" + key + "' is not an object"};
      }
      c.copy_bytes_per_second = read_rate(entry, "copy_bytes_per_second");
      c.copy_buffer_bytes = read_count<std::uint64_t>(entry, "copy_buffer_bytes");
      c.sgemm_flops_per_second = read_rate(entry, "sgemm_flops_per_second");
      c.sgemm_size = read_count<std::uint32_t>(entry, "sgemm_size");
      c.sgemm_absent = entry.value("sgemm_absent", "");
      c.measured_at = entry.value("measured_at", "");
      if (!(c.copy_bytes_per_second > 0)) {
        return Error{ErrorKind::kParseError,
                     path.string() + ": '" + key + "' has no positive copy bandwidth"};
      }
      cache.entries_[key] = c;
    }
  } catch (const nlohmann::json::exception& e) {
    return Error{ErrorKind::kParseError, path.string() + ": " + e.what()};
  } catch (const std::invalid_argument& e) {
    return Error{ErrorKind::kParseError, path.string() + ": " + e.what()};
  }
  return cache;
}

Status CeilingsCache::save(const std::filesystem::path& path) const {
  nlohmann::json devices = nlohmann::json::object();
  for (const auto& [key, c] : entries_) {
    devices[key] = {{"copy_bytes_per_second", c.copy_bytes_per_second},
                    {"copy_buffer_bytes", c.copy_buffer_bytes},
                    {"sgemm_flops_per_second", c.sgemm_flops_per_second},
                    {"sgemm_size", c.sgemm_size},
                    {"sgemm_absent", c.sgemm_absent},
                    {"measured_at", c.measured_at}};
  }
  return write_file_atomically(path, nlohmann::json{{"devices", devices}}.dump(2) + '\n');
}

std::optional<DeviceCeilings> CeilingsCache::find(const std::string& key) const {
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

void CeilingsCache::store(const std::string& key, const DeviceCeilings& ceilings) {
  entries_[key] = ceilings;
}

}  // namespace tl
