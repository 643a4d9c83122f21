// Registering an exercise is enough to have it tested: its files, its kernel's parameters, its
// hidden checks, and its sources compiled through NVRTC for the GPU (no GPU needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "lab/exercise_registry.hpp"
#include "lab/gpu/cuda_libraries.hpp"
#include "lab/kernel_signature.hpp"
#include "lab/lab_check.hpp"

namespace tl::lab {
namespace {

std::string names(const Exercise& e) {
  return e.id;
}

class EveryExercise : public ::testing::TestWithParam<const Exercise*> {};

TEST(ExerciseRegistry, AtLeastTwelveExercisesWithDistinctIds) {
  std::set<std::string> ids;
  for (const Exercise* e : registered_exercises()) {
    EXPECT_TRUE(ids.insert(e->id).second) << "two exercises are called " << e->id;
    EXPECT_EQ(find_exercise(e->id), e);
  }
  EXPECT_GE(ids.size(), 12u);
  EXPECT_EQ(find_exercise("no-such-exercise"), nullptr);
}

TEST_P(EveryExercise, HasItsTextsAndAKnownWrongSubmissionWithTheWordsItsVerdictMustSay) {
  const Exercise& e = *GetParam();
  EXPECT_FALSE(e.title.empty());
  EXPECT_FALSE(e.lesson_id.empty());
  EXPECT_NE(e.statement.find("# "), std::string::npos) << "statement.md needs a title";
  EXPECT_FALSE(e.starter.empty());
  EXPECT_FALSE(e.solution.empty());
  EXPECT_NE(e.starter, e.solution);
  ASSERT_FALSE(e.known_wrong.empty()) << e.id << " has no wrong/*.cu";
  for (const KnownWrongSubmission& wrong : e.known_wrong) {
    EXPECT_FALSE(wrong.expected_words.empty()) << wrong.path << " lacks `// expect: <words>`";
  }
}

TEST_P(EveryExercise, StarterSolutionAndWrongSubmissionsDeclareTheExercisesKernel) {
  const Exercise& e = *GetParam();
  std::vector<std::pair<std::string, std::string>> sources{{"starter.cu", e.starter},
                                                           {"solution.cu", e.solution}};
  for (const KnownWrongSubmission& wrong : e.known_wrong)
    sources.emplace_back(wrong.path, wrong.source);
  for (const auto& [name, source] : sources) {
    const auto signature = find_kernel(source, e.kernel_name);
    ASSERT_TRUE(signature) << name << ": " << signature.error().message;
    const Status matches = match_parameters(*signature, e);
    EXPECT_TRUE(matches) << name << ": " << matches.message();
  }
  EXPECT_TRUE(broken_rules(e.solution, e.rules).empty()) << "the solution breaks its own rules";
}

TEST_P(EveryExercise, HiddenChecksCoverAwkwardSizesDeterministically) {
  const Exercise& e = *GetParam();
  ASSERT_TRUE(e.make_cases);
  const auto cases = e.make_cases(1, e.default_block);
  ASSERT_GE(cases.size(), 5u);
  bool has_one_element_case = false;
  for (const CheckCase& check : cases) {
    ASSERT_EQ(check.arguments.size(), e.parameters.size()) << check.label;
    ASSERT_EQ(check.expected.size(), e.parameters.size()) << check.label;
    EXPECT_GE(check.launch.grid.volume(), 1u);
    EXPECT_LE(check.launch.block.volume(), 1024u);
    for (std::size_t i = 0; i < e.parameters.size(); ++i) {
      const ParameterSpec& p = e.parameters[i];
      if (!is_array(p)) continue;
      const ArrayData& data = check.arguments[i].array;
      EXPECT_EQ(static_cast<std::int64_t>(data.words.size()), data.size()) << p.name;
      EXPECT_EQ(data.type, p.element) << p.name;
      if (data.size() == 1) has_one_element_case = true;
      if (p.kind == ParameterKind::kOutputArray) {
        EXPECT_EQ(check.expected[i].size(), data.size()) << check.label << " " << p.name;
      } else if (data.size() > 8) {
        // Non-uniform data: a wrong index must not pass by reading an equal neighbour.
        std::set<std::uint32_t> distinct(data.words.begin(), data.words.end());
        EXPECT_GT(distinct.size(), 2u) << check.label << " " << p.name;
      }
    }
  }
  EXPECT_TRUE(has_one_element_case) << "no check with a single element";
  // The same seed gives the same checks; another seed gives other data (grading on a fresh seed).
  const auto again = e.make_cases(1, e.default_block);
  const auto other = e.make_cases(2, e.default_block);
  EXPECT_EQ(again.back().arguments[0].array.words, cases.back().arguments[0].array.words);
  EXPECT_NE(other.back().arguments[0].array.words, cases.back().arguments[0].array.words);
}

// A kernel that writes one value everywhere (all zeros, a constant it guessed) must fail some
// check: in at least one case, some output holds two values that no single value is within the
// tolerance of at once. Judged as the checks judge (judge_case), for 0 and for each case's first
// expected value.
TEST_P(EveryExercise, NoConstantOutputPassesEveryCheck) {
  const Exercise& e = *GetParam();
  const auto cases = e.make_cases(1, e.default_block);
  std::vector<std::uint32_t> guesses = {0u};
  for (const CheckCase& check : cases) {
    for (std::size_t i = 0; i < e.parameters.size(); ++i) {
      if (e.parameters[i].kind == ParameterKind::kOutputArray && check.expected[i].size() > 0) {
        guesses.push_back(check.expected[i].words[0]);
      }
    }
  }
  for (const std::uint32_t guess : guesses) {
    bool some_case_fails = false;
    for (const CheckCase& check : cases) {
      std::vector<ReturnedOutput> outputs;
      for (std::size_t i = 0; i < e.parameters.size(); ++i) {
        if (e.parameters[i].kind != ParameterKind::kOutputArray) continue;
        ReturnedOutput output;
        output.parameter = i;
        output.values = check.arguments[i].array;
        std::fill(output.values.words.begin(), output.values.words.end(), guess);
        outputs.push_back(std::move(output));
      }
      if (!judge_case(e, check, outputs, nullptr).passed) {
        some_case_fails = true;
        break;
      }
    }
    EXPECT_TRUE(some_case_fails) << e.id << ": the constant output " << guess
                                 << " (as bits) passes every hidden check";
  }
}

// CI has NVRTC (the toolkit) but no GPU: compiling here means a GPU-only compile error (a typo in
// device code the emulator's host compiler would accept) cannot land.
TEST_P(EveryExercise, EverySourceCompilesThroughNvrtcTracedAndUntraced) {
  const auto nvrtc = Nvrtc::load();
  if (!nvrtc) GTEST_SKIP() << nvrtc.error().message;
  const Exercise& e = *GetParam();
  std::vector<std::pair<std::string, std::string>> sources{{"starter.cu", e.starter},
                                                           {"solution.cu", e.solution}};
  for (const KnownWrongSubmission& wrong : e.known_wrong)
    sources.emplace_back(wrong.path, wrong.source);
  for (const auto& [name, source] : sources) {
    for (bool traced : {true, false}) {
      const auto compiled = compile_with_nvrtc(**nvrtc, source, e.kernel_name, 90, traced);
      ASSERT_TRUE(compiled) << name << (traced ? " (traced)" : "") << ":\n"
                            << compiled.error().message;
      EXPECT_FALSE(compiled->cubin.empty());
      EXPECT_FALSE(compiled->lowered_name.empty());
    }
  }
}

TEST(Nvrtc, ACompileErrorNamesTheLearnersLine) {
  const auto nvrtc = Nvrtc::load();
  if (!nvrtc) GTEST_SKIP() << nvrtc.error().message;
  const auto compiled = compile_with_nvrtc(
      **nvrtc, "__global__ void k(Array<float> c, int n) {\n  c[0] = undefined_name;\n}\n", "k", 90,
      true);
  ASSERT_FALSE(compiled);
  EXPECT_NE(compiled.error().message.find("kernel.cu(2): error"), std::string::npos)
      << compiled.error().message;
}

TEST(Nvrtc, WritingToAConstInputDoesNotCompileInEitherBuild) {
  const auto nvrtc = Nvrtc::load();
  if (!nvrtc) GTEST_SKIP() << nvrtc.error().message;
  for (bool traced : {true, false}) {
    EXPECT_FALSE(compile_with_nvrtc(
        **nvrtc, "__global__ void k(Array<const float> a) { a[0] = 1.0f; }\n", "k", 90, traced));
  }
}

INSTANTIATE_TEST_SUITE_P(Lab, EveryExercise,
                         ::testing::ValuesIn(registered_exercises().begin(),
                                             registered_exercises().end()),
                         [](const auto& info) {
                           std::string name = names(*info.param);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace tl::lab
