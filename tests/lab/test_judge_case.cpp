#include <gtest/gtest.h>

#include "lab/lab_check.hpp"

namespace tl::lab {
namespace {

// c[i] = a[i] + 1 over 10 elements, launched as 3 blocks of 4 threads.
struct Fixture {
  Exercise exercise;
  CheckCase check;
  Fixture() {
    exercise.kernel_name = "inc";
    exercise.parameters = {{"a", ParameterKind::kInputArray},
                           {"c", ParameterKind::kOutputArray},
                           {"n", ParameterKind::kInt}};
    exercise.tolerance = {0.0, 1e-6};
    std::vector<float> a(10);
    std::vector<float> c(10);
    for (int i = 0; i < 10; ++i) {
      a[static_cast<std::size_t>(i)] = static_cast<float>(i) * 1.5f;
      c[static_cast<std::size_t>(i)] = a[static_cast<std::size_t>(i)] + 1;
    }
    check.label = "n = 10";
    check.arguments.resize(3);
    check.arguments[0].array = ArrayData::floats(1, 10, a);
    check.arguments[2].int_value = 10;
    check.expected.resize(3);
    check.expected[1] = ArrayData::floats(1, 10, c);
    check.launch = {{3, 1, 1}, {4, 1, 1}, 0};
  }
  // Every element written once by the thread that owns it, with the right value.
  ReturnedOutput right_output() const {
    ReturnedOutput output{1, check.expected[1], std::vector<TraceRecord>(10)};
    for (std::uint32_t i = 0; i < 10; ++i) output.trace[i] = {i / 4, i % 4, 0, 1};
    return output;
  }
};

TEST(JudgeCase, RightValuesWithOneWriterEachPass) {
  Fixture f;
  const CaseResult result = judge_case(f.exercise, f.check, {f.right_output()}, nullptr);
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_TRUE(result.wrong_elements.empty());
  EXPECT_EQ(result.trace.size(), 10u);
}

TEST(JudgeCase, AWrongElementIsNamedWithExpectedGotAndItsWriter) {
  Fixture f;
  ReturnedOutput output = f.right_output();
  output.values.words[6] = ArrayData::floats(1, 1, std::vector<float>{99.0f}).words[0];
  const CaseResult result = judge_case(f.exercise, f.check, {output}, nullptr);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.message,
            "c[6] is 99, expected 10 (written by block (1,0) thread (2,0)); 1 of 10 elements of c "
            "are wrong");
  EXPECT_EQ(result.wrong_elements, std::vector<std::int64_t>{6});
}

TEST(JudgeCase, AnElementNobodyWroteSaysSo) {
  Fixture f;
  ReturnedOutput output = f.right_output();
  output.values.words[9] = kUnwrittenFloat;
  output.trace[9] = {};
  const CaseResult result = judge_case(f.exercise, f.check, {output}, nullptr);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("c[9] is nan, expected 14.5 (no thread wrote it)"),
            std::string::npos)
      << result.message;
}

TEST(JudgeCase, AnElementWrittenByTwoThreadsFailsEvenWithTheRightValue) {
  Fixture f;
  ReturnedOutput output = f.right_output();
  output.trace[4].writes = 2;
  const CaseResult result = judge_case(f.exercise, f.check, {output}, nullptr);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("c[4] was written by 2 threads"), std::string::npos)
      << result.message;
  // A sum through atomics writes one element from every thread on purpose.
  f.exercise.shared_outputs = true;
  EXPECT_TRUE(judge_case(f.exercise, f.check, {output}, nullptr).passed);
}

TEST(JudgeCase, AnAccessPastTheEndIsNamedWithItsThread) {
  Fixture f;
  WireFault fault{};
  fault.hit = 1;
  fault.parameter = 1;
  fault.is_write = 1;
  fault.block[0] = 2;
  fault.thread[0] = 2;
  fault.row = 10;
  fault.col = -1;
  fault.rows = 10;
  fault.cols = -1;
  const CaseResult result = judge_case(f.exercise, f.check, {f.right_output()}, &fault);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.message, "block (2,0) thread (2,0) wrote c[10], past its end, size 10");
}

TEST(JudgeCase, AMatrixAccessOutsideIsNamedByRowAndColumn) {
  Fixture f;
  f.exercise.parameters[0].matrix = true;
  WireFault fault{};
  fault.hit = 1;
  fault.parameter = 0;
  fault.row = 1;
  fault.col = 5;
  fault.rows = 2;
  fault.cols = 5;
  const CaseResult result = judge_case(f.exercise, f.check, {f.right_output()}, &fault);
  EXPECT_EQ(result.message, "block (0,0) thread (0,0) read a(1, 5), outside its 2 × 5 elements");
  EXPECT_EQ(result.line, 0) << "no line known";
  // With the line the prelude's views recorded, the message names it and the case keeps it for
  // the editor's mark.
  fault.line = 4;
  const CaseResult on_line = judge_case(f.exercise, f.check, {f.right_output()}, &fault);
  EXPECT_EQ(on_line.message,
            "block (0,0) thread (0,0) read a(1, 5), outside its 2 × 5 elements (line 4)");
  EXPECT_EQ(on_line.line, 4);
}

TEST(JudgeCase, FloatsWithinTheToleranceAndIntegersExactly) {
  Fixture f;
  f.exercise.tolerance = {0.01, 0.0};
  ReturnedOutput output = f.right_output();
  output.values.words[3] = ArrayData::floats(1, 1, std::vector<float>{5.5f + 0.009f}).words[0];
  EXPECT_TRUE(judge_case(f.exercise, f.check, {output}, nullptr).passed);
  output.values.words[3] = ArrayData::floats(1, 1, std::vector<float>{5.5f + 0.02f}).words[0];
  EXPECT_FALSE(judge_case(f.exercise, f.check, {output}, nullptr).passed);
}

TEST(CheckData, SameSeedSameDataOtherSeedOtherData) {
  CheckData one(7);
  CheckData same(7);
  CheckData other(8);
  const auto a = one.floats(100, -1.0f, 1.0f);
  EXPECT_EQ(a, same.floats(100, -1.0f, 1.0f));
  EXPECT_NE(a, other.floats(100, -1.0f, 1.0f));
  for (float v : a) {
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
  }
  // Not uniform in the useless sense: the values differ from each other.
  EXPECT_NE(a[0], a[1]);
}

}  // namespace
}  // namespace tl::lab
