#include "kernel_counters.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/format.hpp"

namespace tl {
namespace {

constexpr std::array<std::string_view, 11> kMetricNames = {kMetricDramBytesRead,
                                                           kMetricDramBytesWritten,
                                                           kMetricL2Bytes,
                                                           kMetricL2HitRate,
                                                           kMetricAchievedOccupancy,
                                                           kMetricGlobalLoadRequests,
                                                           kMetricGlobalLoadSectors,
                                                           kMetricGlobalStoreRequests,
                                                           kMetricGlobalStoreSectors,
                                                           kMetricSharedLoadBankConflicts,
                                                           kMetricSharedStoreBankConflicts};

// CUPTI's L2 hit rate can come out above 100 %: an H200 reported 101.4 % and 108.8 % for kernels
// whose data was all in L2. Such a rate is shown as 100 % with what CUPTI said beside it; only a
// percentage past this is taken for a misreading.
constexpr double kMostPlausiblePercent = 200.0;

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f %%", fraction * 100.0);
  return text;
}

}  // namespace

std::span<const std::string_view> counter_metric_names() {
  return kMetricNames;
}

Result<KernelCounters> counters_from_metrics(
    const std::map<std::string, double, std::less<>>& values, int passes) {
  auto read = [&](std::string_view name, bool is_percent) -> Result<double> {
    const auto found = values.find(name);
    if (found == values.end()) {
      return Error{ErrorKind::kParseError, "CUPTI returned no value for " + std::string(name)};
    }
    const double value = found->second;
    if (!std::isfinite(value) || value < 0 || (is_percent && value > kMostPlausiblePercent)) {
      char text[64];
      std::snprintf(text, sizeof text, "%g", value);
      return Error{ErrorKind::kParseError,
                   "CUPTI returned " + std::string(text) + " for " + std::string(name) +
                       (is_percent ? ", not a percentage" : ", not a count")};
    }
    return is_percent ? value / 100.0 : value;
  };
  KernelCounters counters;
  counters.passes = passes;
  struct Field {
    std::string_view metric;
    bool is_percent;
    double KernelCounters::*member;
  };
  const Field fields[] = {
      {kMetricDramBytesRead, false, &KernelCounters::dram_bytes_read},
      {kMetricDramBytesWritten, false, &KernelCounters::dram_bytes_written},
      {kMetricL2Bytes, false, &KernelCounters::l2_bytes},
      {kMetricL2HitRate, true, &KernelCounters::l2_hit_rate},
      {kMetricAchievedOccupancy, true, &KernelCounters::achieved_occupancy},
  };
  for (const Field& field : fields) {
    auto value = read(field.metric, field.is_percent);
    if (!value) return value.error();
    counters.*field.member = *value;
  }
  // The memory instructions' counters, where all of them came back (a CUPTI or GPU without them
  // leaves the rest readable).
  const struct {
    std::string_view metric;
    double MemoryInstructionCounters::*member;
  } memory_fields[] = {
      {kMetricGlobalLoadRequests, &MemoryInstructionCounters::global_load_requests},
      {kMetricGlobalLoadSectors, &MemoryInstructionCounters::global_load_sectors},
      {kMetricGlobalStoreRequests, &MemoryInstructionCounters::global_store_requests},
      {kMetricGlobalStoreSectors, &MemoryInstructionCounters::global_store_sectors},
      {kMetricSharedLoadBankConflicts, &MemoryInstructionCounters::shared_load_bank_conflicts},
      {kMetricSharedStoreBankConflicts, &MemoryInstructionCounters::shared_store_bank_conflicts},
  };
  MemoryInstructionCounters memory;
  memory.measured = true;
  for (const auto& field : memory_fields) {
    if (!values.contains(field.metric)) {
      memory.measured = false;
      break;
    }
    auto value = read(field.metric, false);
    if (!value) return value.error();
    memory.*field.member = *value;
  }
  if (memory.measured) counters.memory = memory;
  counters.l2_hit_rate_reported = counters.l2_hit_rate;
  counters.l2_hit_rate = std::min(counters.l2_hit_rate, 1.0);
  counters.achieved_occupancy = std::min(counters.achieved_occupancy, 1.0);
  return counters;
}

std::optional<double> dram_traffic_over_ideal(const CountedKernel& kernel) {
  if (!(kernel.ideal_bytes > 0)) return std::nullopt;
  return kernel.counters.dram_bytes() / kernel.ideal_bytes;
}

std::string describe_counters(const CountedKernel& kernel) {
  const KernelCounters& c = kernel.counters;
  std::string text = "DRAM " + format_bytes(c.dram_bytes_read) + " read + " +
                     format_bytes(c.dram_bytes_written) + " written";
  if (const auto over = dram_traffic_over_ideal(kernel)) {
    char ratio[48];
    std::snprintf(ratio, sizeof ratio, " (%.2f× the least the work needs)", *over);
    text += ratio;
  }
  text += "; L2 served " + format_bytes(c.l2_bytes) + ", hit rate " + percent(c.l2_hit_rate);
  if (c.l2_hit_rate_reported > c.l2_hit_rate + 0.005) {
    char reported[48];
    std::snprintf(reported, sizeof reported, " (CUPTI reported %.1f %%)",
                  c.l2_hit_rate_reported * 100.0);
    text += reported;
  }
  text += "; achieved occupancy " + percent(c.achieved_occupancy);
  text += " (" + std::to_string(c.passes) + (c.passes == 1 ? " pass)" : " passes)");
  return text;
}

std::string counters_csv(std::span<const CountedKernel> kernels) {
  std::ostringstream out;
  out << "key,name,ideal_bytes,dram_bytes_read,dram_bytes_written,dram_over_ideal,l2_bytes,"
         "l2_hit_rate,l2_hit_rate_reported,achieved_occupancy,passes\n";
  out.precision(17);
  for (const CountedKernel& k : kernels) {
    const auto over = dram_traffic_over_ideal(k);
    out << csv_field(k.key) << ',' << csv_field(k.name) << ',' << k.ideal_bytes << ','
        << k.counters.dram_bytes_read << ',' << k.counters.dram_bytes_written << ','
        << (over ? std::to_string(*over) : std::string()) << ',' << k.counters.l2_bytes << ','
        << k.counters.l2_hit_rate << ',' << k.counters.l2_hit_rate_reported << ','
        << k.counters.achieved_occupancy << ',' << k.counters.passes << '\n';
  }
  return out.str();
}

std::string counters_json(std::span<const CountedKernel> kernels) {
  nlohmann::json rows = nlohmann::json::array();
  for (const CountedKernel& k : kernels) {
    const auto over = dram_traffic_over_ideal(k);
    rows.push_back({{"key", k.key},
                    {"name", k.name},
                    {"ideal_bytes", k.ideal_bytes},
                    {"dram_bytes_read", k.counters.dram_bytes_read},
                    {"dram_bytes_written", k.counters.dram_bytes_written},
                    {"dram_over_ideal", over ? nlohmann::json(*over) : nlohmann::json(nullptr)},
                    {"l2_bytes", k.counters.l2_bytes},
                    {"l2_hit_rate", k.counters.l2_hit_rate},
                    {"l2_hit_rate_reported", k.counters.l2_hit_rate_reported},
                    {"achieved_occupancy", k.counters.achieved_occupancy},
                    {"passes", k.counters.passes}});
  }
  return rows.dump(2) + "\n";
}

std::string cupti_unavailable_reason(std::string_view step, std::string_view result_name,
                                     std::string_view message) {
  const std::string what = "hardware counters: " + std::string(step) + " failed (" +
                           std::string(result_name) +
                           (message.empty() ? "" : ": " + std::string(message)) + ")";
  if (result_name == "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" ||
      result_name == "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES") {
    return "hardware counters are not permitted for this user (NVIDIA's ERR_NVGPUCTRPERM): the "
           "driver restricts GPU performance counters to administrators. Run as root, or load the "
           "nvidia module with NVreg_RestrictProfilingToAdminUsers=0 (see NVIDIA's "
           "ERR_NVGPUCTRPERM page). " +
           what;
  }
  if (result_name == "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" ||
      result_name == "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED" ||
      result_name == "CUPTI_ERROR_HARDWARE_BUSY") {
    return "hardware counters are in use by another profiler (Nsight Compute, Nsight Systems or "
           "compute-sanitizer attached to this process, or another process profiling this GPU). " +
           what;
  }
  if (result_name == "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED" ||
      result_name == "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED" ||
      result_name == "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED" ||
      result_name == "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED" ||
      result_name == "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED" ||
      result_name == "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED" ||
      result_name == "CUPTI_ERROR_NOT_SUPPORTED" ||
      result_name == "CUPTI_ERROR_INVALID_CHIP_NAME" ||
      result_name == "CUPTI_ERROR_INVALID_METRIC_NAME" ||
      result_name == "CUPTI_ERROR_NOT_COMPATIBLE") {
    return "hardware counters are not available on this GPU or in this configuration "
           "(a virtual GPU, MIG, confidential computing, WSL, or a chip this CUPTI does not "
           "know). " +
           what;
  }
  return what;
}

}  // namespace tl
