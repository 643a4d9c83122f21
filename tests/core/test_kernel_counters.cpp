// Hardware counters without a GPU: CUPTI's metric values turned into the numbers and words the
// lessons show, the tables written out, and the reasons given where counters cannot be read.

#include "core/kernel_counters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace tl {
namespace {

std::map<std::string, double, std::less<>> typical_values() {
  return {{std::string(kMetricDramBytesRead), 201326592.0},
          {std::string(kMetricDramBytesWritten), 67108864.0},
          {std::string(kMetricL2Bytes), 805306368.0},
          {std::string(kMetricL2HitRate), 42.5},
          {std::string(kMetricAchievedOccupancy), 87.0}};
}

TEST(KernelCounters, AsksForEveryMetricItReads) {
  const auto names = counter_metric_names();
  ASSERT_EQ(names.size(), 11u);
  for (const auto& [name, value] : typical_values()) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

// The memory instructions' counters are read where all of them came back, and left unmeasured
// (not an error) where a GPU or CUPTI gives none of them; a bad one is refused like any other.
TEST(KernelCounters, TheMemoryInstructionsCountersAreReadWhereTheyCameBack) {
  auto without = counters_from_metrics(typical_values(), 3);
  ASSERT_TRUE(without.is_ok()) << without.message();
  EXPECT_FALSE(without->memory.measured);
  auto values = typical_values();
  values[std::string(kMetricGlobalLoadRequests)] = 1000;
  values[std::string(kMetricGlobalLoadSectors)] = 32000;
  values[std::string(kMetricGlobalStoreRequests)] = 500;
  values[std::string(kMetricGlobalStoreSectors)] = 2000;
  values[std::string(kMetricSharedLoadBankConflicts)] = 7;
  values[std::string(kMetricSharedStoreBankConflicts)] = 0;
  auto with = counters_from_metrics(values, 4);
  ASSERT_TRUE(with.is_ok()) << with.message();
  EXPECT_TRUE(with->memory.measured);
  EXPECT_DOUBLE_EQ(with->memory.load_sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(with->memory.store_sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(with->memory.shared_load_bank_conflicts, 7.0);
  values[std::string(kMetricGlobalLoadSectors)] = -1;
  EXPECT_FALSE(counters_from_metrics(values, 4).is_ok());
}

TEST(KernelCounters, PercentagesBecomeFractionsAndCountsStayBytes) {
  auto counters = counters_from_metrics(typical_values(), 3);
  ASSERT_TRUE(counters.is_ok()) << counters.message();
  EXPECT_DOUBLE_EQ(counters->dram_bytes_read, 201326592.0);
  EXPECT_DOUBLE_EQ(counters->dram_bytes_written, 67108864.0);
  EXPECT_DOUBLE_EQ(counters->dram_bytes(), 268435456.0);
  EXPECT_DOUBLE_EQ(counters->l2_bytes, 805306368.0);
  EXPECT_DOUBLE_EQ(counters->l2_hit_rate, 0.425);
  EXPECT_DOUBLE_EQ(counters->l2_hit_rate_reported, 0.425);
  EXPECT_DOUBLE_EQ(counters->achieved_occupancy, 0.87);
  EXPECT_EQ(counters->passes, 3);
}

TEST(KernelCounters, AMissingOrImpossibleValueIsAnErrorNamingTheMetric) {
  auto values = typical_values();
  values.erase(std::string(kMetricL2HitRate));
  auto missing = counters_from_metrics(values, 1);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_NE(missing.message().find(kMetricL2HitRate), std::string::npos) << missing.message();

  values = typical_values();
  values[std::string(kMetricAchievedOccupancy)] = 280.0;
  auto too_high = counters_from_metrics(values, 1);
  ASSERT_FALSE(too_high.is_ok());
  EXPECT_NE(too_high.message().find("not a percentage"), std::string::npos);

  values = typical_values();
  values[std::string(kMetricDramBytesRead)] = -1.0;
  EXPECT_FALSE(counters_from_metrics(values, 1).is_ok());
  values[std::string(kMetricDramBytesRead)] = std::nan("");
  EXPECT_FALSE(counters_from_metrics(values, 1).is_ok());

  // CUPTI's hit rate above 100 % (108.8 % on an H200) is shown as 100 %, with what it said.
  values = typical_values();
  values[std::string(kMetricL2HitRate)] = 108.8;
  auto above = counters_from_metrics(values, 1);
  ASSERT_TRUE(above.is_ok());
  EXPECT_DOUBLE_EQ(above->l2_hit_rate, 1.0);
  EXPECT_DOUBLE_EQ(above->l2_hit_rate_reported, 1.088);
  const std::string words = describe_counters({"k", "k", 1.0, *above});
  EXPECT_NE(words.find("hit rate 100 % (CUPTI reported 108.8 %)"), std::string::npos) << words;
}

TEST(KernelCounters, TrafficIsComparedWithTheLeastTheWorkNeeds) {
  CountedKernel kernel{"kernel/x-to-row", "GPU kernel, x → row (strided)", 134217728.0,
                       *counters_from_metrics(typical_values(), 2)};
  ASSERT_TRUE(dram_traffic_over_ideal(kernel).has_value());
  EXPECT_DOUBLE_EQ(*dram_traffic_over_ideal(kernel), 2.0);
  const std::string words = describe_counters(kernel);
  EXPECT_NE(words.find("192.00 MiB read"), std::string::npos) << words;
  EXPECT_NE(words.find("64.00 MiB written"), std::string::npos) << words;
  EXPECT_NE(words.find("2.00× the least"), std::string::npos) << words;
  EXPECT_NE(words.find("hit rate 42 %"), std::string::npos) << words;
  EXPECT_NE(words.find("occupancy 87 %"), std::string::npos) << words;
  EXPECT_NE(words.find("2 passes"), std::string::npos) << words;

  kernel.ideal_bytes = 0;  // unknown: no ratio, rather than a division by zero
  EXPECT_FALSE(dram_traffic_over_ideal(kernel).has_value());
  EXPECT_EQ(describe_counters(kernel).find("least"), std::string::npos);
}

TEST(KernelCounters, CsvAndJsonCarryTheSameFields) {
  const std::vector<CountedKernel> kernels = {
      {"kernel/naive", "naive, \"16×16\"", 1000.0, *counters_from_metrics(typical_values(), 1)}};
  const std::string csv = counters_csv(kernels);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "key,name,ideal_bytes,dram_bytes_read,dram_bytes_written,dram_over_ideal,l2_bytes,"
            "l2_hit_rate,l2_hit_rate_reported,achieved_occupancy,passes");
  EXPECT_NE(csv.find("\"naive, \"\"16×16\"\"\""), std::string::npos) << csv;  // quoted
  const auto json = nlohmann::json::parse(counters_json(kernels));
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0]["key"], "kernel/naive");
  EXPECT_DOUBLE_EQ(json[0]["dram_bytes_read"].get<double>(), 201326592.0);
  EXPECT_DOUBLE_EQ(json[0]["dram_over_ideal"].get<double>(), 268435456.0 / 1000.0);
  EXPECT_DOUBLE_EQ(json[0]["l2_hit_rate"].get<double>(), 0.425);
  EXPECT_EQ(json[0]["passes"], 1);
}

TEST(KernelCounters, NoPermissionNamesNvidiasErrorAndWhatLiftsIt) {
  const std::string why = cupti_unavailable_reason("enabling the range profiler",
                                                   "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "");
  EXPECT_NE(why.find("ERR_NVGPUCTRPERM"), std::string::npos) << why;
  EXPECT_NE(why.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << why;
  EXPECT_NE(why.find("enabling the range profiler"), std::string::npos) << why;
}

TEST(KernelCounters, OtherFailuresSayWhatTheDeviceOrProcessLacks) {
  EXPECT_NE(
      cupti_unavailable_reason("enabling", "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED", "")
          .find("another profiler"),
      std::string::npos);
  EXPECT_NE(cupti_unavailable_reason("enabling", "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED", "")
                .find("not available on this GPU"),
            std::string::npos);
  const std::string unknown = cupti_unavailable_reason("decoding", "CUPTI_ERROR_UNKNOWN", "boom");
  EXPECT_NE(unknown.find("decoding failed (CUPTI_ERROR_UNKNOWN: boom)"), std::string::npos)
      << unknown;
}

}  // namespace
}  // namespace tl
