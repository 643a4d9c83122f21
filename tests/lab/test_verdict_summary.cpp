// A passing kernel's figures in words (lab/verdict_summary), the case a Run shows, and the least
// traffic the memory ceiling is computed from: plain functions, no worker.
#include <gtest/gtest.h>

#include <string>

#include "lab/exercise_registry.hpp"
#include "lab/lab_check.hpp"
#include "lab/verdict_summary.hpp"

namespace tl::lab {
namespace {

bool contains(const std::string& text, const std::string& words) {
  return text.find(words) != std::string::npos;
}

TEST(TimingSummary, NothingBeforeAKernelWasTimed) {
  CheckVerdict verdict;
  verdict.outcome = Outcome::kPassed;
  EXPECT_TRUE(timing_summary(verdict).empty());
}

TEST(TimingSummary, EveryFigureOfTheRunInReadingOrder) {
  CheckVerdict verdict;
  verdict.kernel_ms = 0.02;
  verdict.timed_case = "n = 1048583";
  verdict.solution_ms = 0.01;
  verdict.library = "cublas-sgemm";
  verdict.library_ms = 0.04;
  verdict.moved_bytes = 12'000'000;
  verdict.copy_ms = 0.005;
  verdict.copy_ceiling = "device-to-device copy";
  verdict.flops = 2e9;
  const std::vector<TimingLine> lines = timing_summary(verdict);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_TRUE(lines[0].headline);
  EXPECT_EQ(lines[0].text, "Your kernel: 20.0 µs on n = 1048583");
  EXPECT_TRUE(contains(lines[1].text, "yours takes 2.00× as long")) << lines[1].text;
  EXPECT_TRUE(contains(lines[2].text, "cuBLAS SGEMM")) << lines[2].text;
  EXPECT_TRUE(contains(lines[2].text, "yours takes 0.50× as long")) << lines[2].text;
  // 12 MB in 20 µs is 600 GB/s; the copy of as much took a quarter of that time.
  EXPECT_TRUE(contains(lines[3].text, "device-to-device copy")) << lines[3].text;
  EXPECT_TRUE(contains(lines[3].text, "25 % of the copy rate (600 GB/s)")) << lines[3].text;
  EXPECT_FALSE(contains(lines[3].text, "caches")) << lines[3].text;
  // 2 GFLOP in 20 µs is 100 TFLOP/s; cuBLAS's 40 µs is 50.
  EXPECT_TRUE(contains(lines[4].text, "100 TFLOP/s")) << lines[4].text;
  EXPECT_TRUE(contains(lines[4].text, "cuBLAS SGEMM: 50 TFLOP/s")) << lines[4].text;
}

TEST(TimingSummary, AKernelFasterThanTheCopySaysWhyInsteadOfClaimingMoreThanTheCeiling) {
  CheckVerdict verdict;
  verdict.kernel_ms = 0.004;
  verdict.moved_bytes = 4000;
  verdict.copy_ms = 0.008;
  verdict.copy_ceiling = "device-to-device copy";
  const std::vector<TimingLine> lines = timing_summary(verdict);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(contains(lines[1].text, "200 %")) << lines[1].text;
  EXPECT_TRUE(contains(lines[1].text, "caches and start-up costs decide")) << lines[1].text;
}

// The review's "reference 44.2 ms (yours takes 0.44× as long)" for the reference's own code: with
// runs on both sides whose ranges overlap, no ratio, but that the difference is within the noise.
TEST(TimingSummary, OverlappingRunsSayTheDifferenceIsWithinTheNoiseNotARatio) {
  CheckVerdict verdict;
  verdict.kernel_ms = 19.5;
  verdict.kernel_runs_ms = {19.0, 19.5, 44.0};
  verdict.solution_ms = 44.2;
  verdict.solution_runs_ms = {20.0, 44.2, 46.0};
  verdict.timed_case = "n = 1048583";
  const std::vector<TimingLine> lines = timing_summary(verdict);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_TRUE(contains(lines[0].text, "median of 3 runs, 19 ms to 44 ms")) << lines[0].text;
  EXPECT_TRUE(contains(lines[1].text, "spread too widely")) << lines[1].text;
  EXPECT_TRUE(contains(lines[2].text, "within the timing's noise")) << lines[2].text;
  EXPECT_FALSE(contains(lines[2].text, "×")) << "no ratio: " << lines[2].text;

  // Steady runs that do not overlap: the ratio, and no marker.
  verdict.kernel_runs_ms = {19.0, 19.5, 20.0};
  verdict.solution_runs_ms = {43.0, 44.2, 45.0};
  const std::vector<TimingLine> steady = timing_summary(verdict);
  ASSERT_EQ(steady.size(), 2u);
  EXPECT_TRUE(contains(steady[1].text, "yours takes 0.44× as long")) << steady[1].text;
}

TEST(LeastTraffic, EveryArrayOnceScalarsNot) {
  const Exercise& add = *find_exercise("vector-add");
  const std::vector<CheckCase> cases = add.make_cases(1, add.default_block);
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(least_traffic_bytes(add, cases.back()), 3u * 1048583u * 4u);
  const Exercise& matmul = *find_exercise("matmul");
  const std::vector<CheckCase> products = matmul.make_cases(1, matmul.default_block);
  const CheckCase& largest = products.back();
  // A 257×129 times 129×300... whatever the shape, A, B and C once each, and 2·M·N·K operations.
  const std::int64_t a = largest.arguments[0].array.size();
  const std::int64_t b = largest.arguments[1].array.size();
  const std::int64_t c = largest.arguments[2].array.size();
  EXPECT_EQ(least_traffic_bytes(matmul, largest), static_cast<std::uint64_t>(a + b + c) * 4u);
  const double m = largest.arguments[3].int_value;
  const double n = largest.arguments[4].int_value;
  const double k = largest.arguments[5].int_value;
  EXPECT_DOUBLE_EQ(largest.flops, 2.0 * m * n * k);
}

TEST(ExampleCase, TheLargestWithAPictureOneCanRead) {
  const Exercise& add = *find_exercise("vector-add");
  const std::vector<CheckCase> cases = add.make_cases(1, add.default_block);
  EXPECT_EQ(cases[example_case(add, cases)].label, "n = 1000");
  // Every exercise has one, and it is not trivially small where a larger case exists.
  for (const Exercise* exercise : registered_exercises()) {
    const std::vector<CheckCase> all = exercise->make_cases(1, exercise->default_block);
    ASSERT_FALSE(all.empty()) << exercise->id;
    const std::size_t index = example_case(*exercise, all);
    ASSERT_LT(index, all.size()) << exercise->id;
    const std::size_t output = output_parameters(*exercise).front();
    EXPECT_LE(all[index].arguments[output].array.size(), 65536) << exercise->id;
  }
}

}  // namespace
}  // namespace tl::lab
