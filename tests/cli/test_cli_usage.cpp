// Bad command lines: each must exit 2 with exactly one line on stderr, "threadlab: <reason>", and
// never crash. Scripts rely on the status; people read the one line.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

struct UsageCase {
  std::string name;  // the test's name suffix
  std::vector<std::string> args;
};

void PrintTo(const UsageCase& c, std::ostream* os) {
  *os << "threadlab";
  for (const std::string& arg : c.args) *os << " '" << arg << "'";
}

class CliUsage : public ::testing::TestWithParam<UsageCase> {};

TEST_P(CliUsage, ExitsTwoWithOneLineOnStderr) {
  const ProcessResult r = run_threadlab(GetParam().args);
  ASSERT_TRUE(r.spawned) << r.describe();
  ASSERT_TRUE(r.exited) << "crashed\n" << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("threadlab: ")) << r.describe();
  // The reason says something beyond the prefix.
  EXPECT_GT(lines[0].size(), std::string("threadlab: ").size() + 5) << r.describe();
  EXPECT_EQ(r.err.back(), '\n') << "the line must end with a newline\n" << r.describe();
  // The command line's own check (what the fuzzer drives) refuses it too, without running it.
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(cli::check_command_line(GetParam().args, out, err), 2) << err.str();
}

// `threadlab --headless`, as the no-display message once suggested: the one line names the command.
TEST(CliUsageHints, HeadlessWithoutACommandNamesGuiHeadlessScreenshot) {
  const ProcessResult r = run_threadlab({"--headless"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("threadlab gui --headless --screenshot out.png"), std::string::npos)
      << r.describe();
}

const std::vector<std::string> kRun = {"run", "--backend", "emulator", "--repeats", "1"};

std::vector<std::string> run_with(std::vector<std::string> extra) {
  std::vector<std::string> args = kRun;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<std::string> bench_with(std::vector<std::string> extra) {
  std::vector<std::string> args = {"bench", "--backend", "emulator", "--sizes", "2^10"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

INSTANTIATE_TEST_SUITE_P(
    BadArguments, CliUsage,
    ::testing::Values(
        UsageCase{"UnknownSubcommand", {"frobnicate"}},
        UsageCase{"ClassWithoutSubcommand", {"class"}},
        UsageCase{"GuiJoinNotAnAddress", {"gui", "--join", "teacher-pc"}},
        UsageCase{"GuiJoinAndHost", {"gui", "--join", "127.0.0.1:8737/K7QM2X", "--host-class"}},
        UsageCase{"GuiNameWithoutJoin", {"gui", "--name", "Ada"}},
        UsageCase{"GuiBadClassCode", {"gui", "--host-class", "--class-code", "0000"}},
        UsageCase{"GuiClassBindWithoutHost", {"gui", "--class-bind", "127.0.0.1"}},
        UsageCase{
            "DemoHeadlessHostClass",
            {"demo", "docs/demos/why-blocks.toml", "--headless", "--out", "x", "--host-class"}},
        UsageCase{"DemoBadClassCode",
                  {"demo", "docs/demos/why-blocks.toml", "--host-class", "--class-code", "I0O1"}},
        UsageCase{"ClassServeBadCode", {"class", "serve", "--code", "AB0O"}},
        UsageCase{"ClassServeBadPort", {"class", "serve", "--port", "70000"}},
        UsageCase{"ClassBenchNoStudents", {"class", "bench", "--students", "0"}},
        UsageCase{"ClassBenchTooManyStudents", {"class", "bench", "--students", "5000"}},
        UsageCase{"UnknownOption", run_with({"--frobnicate"})},
        UsageCase{"UnknownInfoOption", {"info", "--frobnicate"}},
        UsageCase{"MissingOptionValue", {"run", "--n"}},
        UsageCase{"NNotANumber", run_with({"--n", "abc"})},
        UsageCase{"NZero", run_with({"--n", "0"})}, UsageCase{"NNegative", run_with({"--n", "-5"})},
        UsageCase{"NTooLarge", run_with({"--n", "2^64"})},
        // A zero dimension is not a dimension (parse_dim3 itself asks for positive integers), and
        // vector add is a 1D lesson: both are bad command lines, unlike a 1D block over the
        // 1024 limit, which is launched so that CUDA's own error shows (CliRun tests).
        UsageCase{"BlockZero", run_with({"--n", "1000", "--block", "0"})},
        UsageCase{"GridZero", run_with({"--n", "1000", "--grid", "0"})},
        UsageCase{"SingleBlockWithBlock",
                  run_with({"--n", "1000", "--single-block", "--block", "64"})},
        UsageCase{"BlockNotADimension", run_with({"--block", "16,16,16,16"})},
        UsageCase{"GridNotADimension", run_with({"--grid", "x"})},
        UsageCase{"SingleBlockWithGrid", run_with({"--single-block", "--grid", "2"})},
        UsageCase{"RunRepeatsZero", run_with({"--n", "1000", "--repeats", "0"})},
        UsageCase{"UnknownLesson", run_with({"--lesson", "no-such-lesson"})},
        UsageCase{"UnknownBackend", run_with({"--backend", "quantum"})},
        UsageCase{"InfoUnknownBackend", {"info", "--backend", "quantum"}},
        UsageCase{"BenchUnknownLesson", bench_with({"--lesson", "no-such-lesson"})},
        UsageCase{"BenchFormatXml", bench_with({"--format", "xml"})},
        UsageCase{"BenchSizesEmpty", {"bench", "--backend", "emulator", "--sizes", ""}},
        UsageCase{"BenchSizesNotANumber", {"bench", "--backend", "emulator", "--sizes", "1,x"}},
        UsageCase{"BenchSizesZero", {"bench", "--backend", "emulator", "--sizes", "0"}},
        UsageCase{"BenchBlockZero", bench_with({"--block", "0"})},
        UsageCase{"BenchRepeatsZero", bench_with({"--repeats", "0"})},
        UsageCase{"BenchUnknownSuite", bench_with({"--suite", "fastest"})},
        UsageCase{"BenchRatiosBadFormat",
                  {"bench", "--backend", "emulator", "--suite", "ratios", "--format", "xml"}},
        UsageCase{"BenchUiBadFormat",
                  {"bench", "--backend", "emulator", "--suite", "ui", "--format", "yaml"}},
        UsageCase{"BenchParameterOfAnotherLesson", bench_with({"--rows", "16"})},
        UsageCase{"GuiScaleNotANumber", {"gui", "--scale", "nan"}},
        UsageCase{"GuiScaleTooLarge", {"gui", "--scale", "9"}},
        // Offscreen frames nobody sees would exit 0 having done nothing.
        UsageCase{"GuiHeadlessWithoutScreenshot", {"gui", "--headless", "--frames", "2"}},
        UsageCase{"HeadlessWithoutACommand", {"--headless"}},
        UsageCase{"LabRunGridZero",
                  {"lab", "run", "x.cu", "--exercise", "vector-add", "--grid", "0"}},
        // An argument echoed back with a newline in it stays on the one line, escaped.
        UsageCase{"LabExerciseWithANewline", {"lab", "check", "x.cu", "--exercise", "vector\nadd"}},
        UsageCase{"LabBlockWithANewline",
                  {"lab", "check", "x.cu", "--exercise", "vector-add", "--block", "256\n2"}},
        UsageCase{"DemoScaleNotANumber", {"demo", "script.toml", "--scale", "nan"}},
        UsageCase{"SoakSecondsZero", {"soak", "--seconds", "0"}},
        UsageCase{"SoakSecondsNotANumber", {"soak", "--seconds", "nan"}},
        // Numbers out of their range, or not decimal, once accepted (a week of repeats, a run
        // that never stops, a seed of 2^64 - 1, "" as 0, a suite ignoring the sweep's options).
        UsageCase{"RunRepeatsHuge", run_with({"--repeats", "2000000000"})},
        UsageCase{"BenchRepeatsHuge", bench_with({"--repeats", "100000"})},
        UsageCase{"BenchSuiteWithSizes", {"bench", "--suite", "ratios", "--sizes", "abc"}},
        UsageCase{"BenchSuiteWithLesson", {"bench", "--suite", "perf", "--lesson", "nope"}},
        UsageCase{"LabWatchMaxChecksNegative",
                  {"lab", "watch", "x.cu", "--exercise", "vector-add", "--max-checks", "-1"}},
        UsageCase{"LabSeedNegative",
                  {"lab", "check", "x.cu", "--exercise", "vector-add", "--seed", "-1"}},
        UsageCase{
            "LabSeedPast64Bits",
            {"lab", "check", "x.cu", "--exercise", "vector-add", "--seed", "18446744073709551616"}},
        UsageCase{"GuiFramesEmpty", {"gui", "--frames", ""}},
        UsageCase{"GuiUnknownBackend", {"gui", "--backend", "quantum"}},
        UsageCase{"SoakSampleEveryPastSeconds",
                  {"soak", "--seconds", "10", "--sample-every", "20"}},
        UsageCase{"RenderWidthZero", {"render", "--out", "x.png", "--width", "0"}}),
    [](const ::testing::TestParamInfo<UsageCase>& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace tl::cli_test
