#include "ratio_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

namespace tl::cli {
namespace {

std::vector<RatioRow> sample() {
  RatioRow no_cublas = rate_ratio("naive kernel, 96³", 6.4, "GFLOP/s", "cuBLAS SGEMM", 0);
  no_cublas.absent = "no cuBLAS on this device";
  return {rate_ratio("vector add kernel, N = 2^28", 2764, "GB/s", "device-to-device copy", 2958),
          time_ratio("dense layer 4096×4096, batch 1: fused", 0.160, "unfused, 3 launches", 0.32),
          time_ratio("dense layer 4096×4096, batch 1: fused", 0.160, "cuBLAS + epilogue", 0.04),
          no_cublas};
}

TEST(RatioTable, RatesAndTimesAreComparedTheWayTheyAreBetter) {
  const auto rows = sample();
  EXPECT_NEAR(rows[0].ratio, 2764.0 / 2958.0, 1e-12);  // a share of the ceiling
  EXPECT_NEAR(rows[1].ratio, 2.0, 1e-12);              // a speed-up: the reference time over ours
  EXPECT_NEAR(rows[2].ratio, 0.25, 1e-12);
  EXPECT_EQ(rows[3].ratio, 0);
}

TEST(RatioTable, TableLinesUpAndSaysWhyARatioIsMissing) {
  std::ostringstream out;
  print_ratio_table(out, "NVIDIA H100 80GB HBM3", sample());
  const std::string text = out.str();
  EXPECT_NE(text.find("device: NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(text.find("0.934"), std::string::npos) << text;
  EXPECT_NE(text.find("2.000x faster"), std::string::npos) << text;
  EXPECT_NE(text.find("4.000x slower"), std::string::npos) << text;
  EXPECT_NE(text.find("n/a (no cuBLAS on this device)"), std::string::npos) << text;
  // "against" starts in the same column on every row, multi-byte characters (³, ×) or not.
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // device
  std::vector<std::size_t> columns;
  while (std::getline(lines, line)) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;
      if (line.compare(i, 7, "against") == 0 || line.compare(i, 6, "device") == 0 ||
          line.compare(i, 7, "unfused") == 0 || line.compare(i, 6, "cuBLAS") == 0) {
        columns.push_back(chars);
        break;
      }
      ++chars;
    }
  }
  ASSERT_EQ(columns.size(), 5u) << text;
  for (std::size_t c : columns) EXPECT_EQ(c, columns.front()) << text;
}

TEST(RatioTable, TargetsSayWhichWayAndNearMissesAreNotRoundedUp) {
  const std::vector<RatioRow> rows = {
      with_target(time_ratio("fused", 0.02998, "unfused", 0.04486), 1.5),
      with_target(time_ratio("fused", 3.019, "cuBLAS", 2.838), 1 / 1.15),
      with_target(rate_ratio("vector add", 2757, "GB/s", "copy", 2966), 0.9)};
  std::ostringstream out;
  print_ratio_table(out, "GPU", rows);
  const std::string text = out.str();
  EXPECT_NE(text.find("1.496x faster"), std::string::npos) << text;
  EXPECT_NE(text.find("NOT met (target ≥ 1.5x faster)"), std::string::npos) << text;
  EXPECT_NE(text.find("1.064x slower"), std::string::npos) << text;
  EXPECT_NE(text.find("met (target ≤ 1.15x slower)"), std::string::npos) << text;
  EXPECT_NE(text.find("met (target ≥ 0.9)"), std::string::npos) << text;
}

TEST(RatioTable, CsvAndJsonCarryEveryRow) {
  std::ostringstream csv;
  print_ratio_csv(csv, sample());
  const std::string text = csv.str();
  EXPECT_EQ(text.substr(0, text.find('\n')), "what,value,unit,against,reference,ratio");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
  EXPECT_NE(text.find("\"dense layer 4096×4096, batch 1: fused\""), std::string::npos);

  std::ostringstream json;
  print_ratio_json(json, "GPU", sample());
  const auto doc = nlohmann::json::parse(json.str());
  ASSERT_EQ(doc["ratios"].size(), 4u);
  EXPECT_EQ(doc["device"], "GPU");
  EXPECT_TRUE(doc["ratios"][3]["ratio"].is_null());
  EXPECT_EQ(doc["ratios"][3]["absent"], "no cuBLAS on this device");
}

}  // namespace
}  // namespace tl::cli
