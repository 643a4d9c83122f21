// Lesson 6's model: the CPU references and their numerics, the error bounds, the data, the launch
// shapes, the histogram and softmax references, and the tree and bank pictures.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "lessons/06_reductions/reductions.hpp"

namespace tl::lessons {
namespace {

TEST(ReductionsModel, RungAndDataNamesRoundTrip) {
  for (SumRung rung : kernels::kSumRungs) {
    auto parsed = parse_sum_rung(to_string(rung));
    ASSERT_TRUE(parsed.is_ok());
    EXPECT_EQ(*parsed, rung);
  }
  EXPECT_FALSE(parse_sum_rung("fastest").is_ok());
  for (SumData d : {SumData::kUniform, SumData::kEqual, SumData::kAlternating, SumData::kWide}) {
    auto parsed = parse_sum_data(to_string(d));
    ASSERT_TRUE(parsed.is_ok());
    EXPECT_EQ(*parsed, d);
  }
  EXPECT_FALSE(parse_sum_data("gaussian").is_ok());
}

TEST(ReductionsModel, ValidationRefusesWhatTheKernelsCannotRun) {
  ReductionParams p;
  EXPECT_TRUE(validate_reduction(p).is_ok());
  p.n = 0;
  EXPECT_FALSE(validate_reduction(p).is_ok());
  p.n = kReductionMaxElements + 1;
  EXPECT_FALSE(validate_reduction(p).is_ok());
  p = {};
  for (std::uint32_t bad : {16u, 96u, 2048u}) {
    p.block = bad;
    EXPECT_FALSE(validate_reduction(p).is_ok()) << bad;
  }
  p = {};
  p.cols = 0;
  EXPECT_FALSE(validate_reduction(p).is_ok());
}

TEST(ReductionsModel, AutomaticGridsCoverTheData) {
  const std::uint64_t n = (1u << 20) + 7;
  EXPECT_EQ(sum_config(SumRung::kSequential, n, 256).grid.x, (n + 255) / 256);
  EXPECT_EQ(sum_config(SumRung::kFirstAdd, n, 256).grid.x, (n + 511) / 512);
  EXPECT_EQ(sum_config(SumRung::kWarpShuffle, 1, 256).grid.x, 1u);
  // The vectorized rung stops at kVectorizedAutoThreads threads; its loop covers the rest.
  EXPECT_EQ(sum_config(SumRung::kVectorized, std::uint64_t{1} << 28, 256).grid.x,
            kVectorizedAutoThreads / 256);
  EXPECT_EQ(sum_config(SumRung::kVectorized, 33, 32).grid.x, 1u);
  EXPECT_EQ(sum_config(SumRung::kVectorized, n, 256, 77).grid.x, 77u);
  EXPECT_EQ(device_filling_grid(132, 2048, 256), 132u * 8u);
}

TEST(ReductionsModel, EqualDataShowsWhereASequentialFloatSumStops) {
  const auto ones = make_sum_data((std::uint64_t{1} << 24) + 100, SumData::kEqual, 1);
  // 2^24 + 1 is not a float: every further +1 rounds back to 2^24.
  EXPECT_EQ(sequential_float_sum(ones), 16777216.0f);
  EXPECT_EQ(exact_sum(ones), 16777316.0);
  EXPECT_EQ(pairwise_float_sum(ones), 16777316.0f);
  EXPECT_EQ(kahan_float_sum(ones), 16777316.0f);
}

TEST(ReductionsModel, ExactSumIsExactOnCancellingData) {
  // 2^30 + 1 - 2^30 in float loses the 1; in float64 with compensation it does not.
  const std::vector<float> values = {1073741824.0f, 1.0f, -1073741824.0f, 0.5f};
  EXPECT_EQ(exact_sum(values), 1.5);
  EXPECT_EQ(sequential_float_sum(values), 0.5f);
  EXPECT_EQ(abs_sum(values), 2147483649.5);
}

TEST(ReductionsModel, DataKindsHaveTheirShape) {
  const auto uniform = make_sum_data(1000, SumData::kUniform, 3);
  for (float x : uniform) {
    EXPECT_GE(x, 0.0f);
    EXPECT_LT(x, 1.0f);
  }
  const auto alternating = make_sum_data(1000, SumData::kAlternating, 3);
  for (std::size_t i = 0; i < alternating.size(); ++i) {
    EXPECT_EQ(alternating[i] > 0, i % 2 == 0) << i;
    EXPECT_GE(std::fabs(alternating[i]), 1.0f);
  }
  const auto wide = make_sum_data(10000, SumData::kWide, 3);
  float smallest = std::numeric_limits<float>::max(), largest = 0;
  for (float x : wide) {
    smallest = std::min(smallest, std::fabs(x));
    largest = std::max(largest, std::fabs(x));
  }
  EXPECT_LT(smallest, 1e-8f);
  EXPECT_GT(largest, 1e8f);
  EXPECT_EQ(make_sum_data(100, SumData::kUniform, 9), make_sum_data(100, SumData::kUniform, 9));
}

TEST(ReductionsModel, ErrorBoundsHoldForTheCpuOrdersAndGrowWithDepth) {
  for (SumData kind : {SumData::kUniform, SumData::kAlternating, SumData::kWide}) {
    const auto data = make_sum_data(100003, kind, 5);
    const double exact = exact_sum(data);
    const double magnitude = abs_sum(data);
    EXPECT_LE(std::fabs(sequential_float_sum(data) - exact),
              sum_error_bound(data.size(), magnitude));
    EXPECT_LE(std::fabs(pairwise_float_sum(data) - exact), sum_error_bound(64 + 11, magnitude));
    EXPECT_LE(std::fabs(kahan_float_sum(data) - exact), sum_error_bound(2, magnitude) + 1e-30);
  }
  const LaunchConfig config = sum_config(SumRung::kSequential, 1 << 20, 256);
  EXPECT_EQ(sum_depth(SumRung::kSequential, 1 << 20, config), 8u + config.grid.x);
  EXPECT_EQ(sum_depth(SumRung::kAtomic, 1 << 20, config), 1u << 20);
  EXPECT_LT(
      sum_depth(SumRung::kVectorized, 1 << 20, sum_config(SumRung::kVectorized, 1 << 20, 256)),
      sum_depth(SumRung::kSequential, 1 << 20, config));
}

TEST(ReductionsModel, SumCheckFailsOutsideTheBoundAndOnNaN) {
  EXPECT_TRUE(check_sum("x", 10.0, 10.5, 0.5).passed);
  EXPECT_FALSE(check_sum("x", 10.0, 10.6, 0.5).passed);
  EXPECT_FALSE(check_sum("x", std::nan(""), 10.0, 1e30).passed);
  EXPECT_FALSE(check_sum("x", std::numeric_limits<double>::infinity(), 10.0, 1e30).passed);
}

TEST(ReductionsModel, ScanLevelsAndScratchFollowTheBlockTotals) {
  EXPECT_EQ(kernels::scan_levels(1, 256), 1);
  EXPECT_EQ(kernels::scan_levels(256, 256), 1);
  EXPECT_EQ(kernels::scan_levels(257, 256), 2);
  EXPECT_EQ(kernels::scan_levels(65536, 256), 2);
  EXPECT_EQ(kernels::scan_levels(65537, 256), 3);
  EXPECT_EQ(kernels::scan_scratch_floats(256, 256), 0u);
  EXPECT_EQ(kernels::scan_scratch_floats(257, 256), 2u);
  // 2^20 + 3 elements: 4097 block totals, then 17, then one block.
  EXPECT_EQ(kernels::scan_scratch_floats((1u << 20) + 3, 256), 4097u + 17u);
  EXPECT_EQ(scan_depth((1u << 20) + 3, 256), 36u);
  EXPECT_EQ(sum_config(SumRung::kCooperativeGroups, (1u << 20) + 7, 256).grid.x,
            ((1u << 20) + 7 + 511) / 512);
}

TEST(ReductionsModel, ScanCheckPassesAFloatPrefixSumAndNamesTheFirstWrongPrefix) {
  const auto data = make_sum_data(5000, SumData::kUniform, 3);
  std::vector<float> prefix(data.size());
  float running = 0;
  for (std::size_t i = 0; i < data.size(); ++i) prefix[i] = running += data[i];
  // A sequential float loop is a chain up to i + 1 adds deep: within the bound of that depth.
  EXPECT_TRUE(check_scan(prefix, data, data.size()).passed);
  auto wrong = prefix;
  wrong[4321] += std::fabs(wrong[4321]) + 1.0f;
  const ScanCheck check = check_scan(wrong, data, data.size());
  EXPECT_FALSE(check.passed);
  EXPECT_EQ(check.wrong, 1u);
  EXPECT_EQ(check.first_wrong, 4321u);
  EXPECT_NE(check.describe().find("out[4321]"), std::string::npos) << check.describe();
  wrong = prefix;
  wrong[7] = std::nanf("");
  EXPECT_FALSE(check_scan(wrong, data, data.size()).passed);
  EXPECT_FALSE(check_scan(std::span(prefix).first(4999), data, data.size()).passed);
}

TEST(ReductionsModel, HistogramDataAndReference) {
  const auto uniform = make_histogram_values(100000, 256, false, 2);
  const auto skewed = make_histogram_values(100000, 256, true, 2);
  const auto u = histogram_reference(uniform, 256);
  const auto s = histogram_reference(skewed, 256);
  std::uint64_t total = 0;
  for (auto c : u) total += c;
  EXPECT_EQ(total, 100000u);
  // Uniform: every bin near 100000 / 256; skewed: half of everything in bin 0.
  EXPECT_GT(*std::min_element(u.begin(), u.end()), 250u);
  EXPECT_NEAR(static_cast<double>(s[0]) / 100000.0, 0.5, 0.02);
  EXPECT_NEAR(static_cast<double>(s[1]) / 100000.0, 0.25, 0.02);
}

TEST(ReductionsModel, SoftmaxReferenceAndCheck) {
  const std::uint64_t rows = 3, cols = 50;
  const auto x = make_logits(rows, cols, 4.0f, kLargeLogitShift, 4);
  std::vector<double> y(rows * cols);
  softmax_reference(x, rows, cols, y);
  for (std::uint64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (std::uint64_t c = 0; c < cols; ++c) sum += y[r * cols + c];
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  std::vector<float> close(y.begin(), y.end());
  EXPECT_TRUE(check_softmax(close, y, cols, 32, 8.0).passed);
  close[7] *= 1.01f;
  auto wrong = check_softmax(close, y, cols, 32, 8.0);
  EXPECT_FALSE(wrong.passed);
  EXPECT_EQ(wrong.wrong, 1u);
  close[7] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(check_softmax(close, y, cols, 32, 8.0).not_finite, 1u);
}

TEST(ReductionsModel, TreeAndBanksFromARecord) {
  // A sequential tree of 64 threads, written as the kernel records it.
  const std::uint32_t threads = 64;
  std::vector<int> pairs(2 * kernels::kReductionTreeLevels * threads, -1);
  int level = 0;
  for (int s = 32; s > 0; s /= 2, ++level) {
    for (int t = 0; t < s; ++t) {
      pairs[2 * (level * threads + t)] = t;
      pairs[2 * (level * threads + t) + 1] = t + s;
    }
  }
  const ReductionTree tree = tree_from_record(SumRung::kSequential, threads, pairs);
  ASSERT_EQ(tree.levels.size(), 6u);
  EXPECT_EQ(tree.levels[0].size(), 32u);
  EXPECT_EQ(tree.levels[5].size(), 1u);
  const auto banks = bank_accesses(tree);
  ASSERT_EQ(banks.size(), 6u);
  for (const auto& b : banks)
    EXPECT_EQ(b.worst_ways, 1) << "sequential addressing is conflict free";
  EXPECT_EQ(banks[0].warps[1].ways, 0) << "warp 1 idles from the first level";

  // The strided tree: lane t works on partial 2·s·t; at s = 16 lanes 0 and 1 read words 0 and 32.
  std::vector<int> strided(2 * kernels::kReductionTreeLevels * threads, -1);
  level = 0;
  for (int s = 1; s < static_cast<int>(threads); s *= 2, ++level) {
    for (int t = 0; 2 * s * t < static_cast<int>(threads); ++t) {
      strided[2 * (level * threads + t)] = 2 * s * t;
      strided[2 * (level * threads + t) + 1] = 2 * s * t + s;
    }
  }
  const auto strided_banks = bank_accesses(tree_from_record(SumRung::kStrided, threads, strided));
  EXPECT_EQ(strided_banks[0].worst_ways, 2);  // s = 1: words 0, 2, .., 62
  EXPECT_EQ(strided_banks[4].worst_ways, 2);  // s = 16: words 0 and 32
  EXPECT_EQ(bank_conflict_ways(std::vector<int>{0, 32, 64, 1}), 3);
  EXPECT_EQ(bank_conflict_ways(std::vector<int>{0, 0, 1}), 1) << "the same word is a broadcast";
}

}  // namespace
}  // namespace tl::lessons
