// The subcommands' real behaviour, seen from outside: what `threadlab` prints and how it exits.
// Every test that depends on the device forces `--backend emulator`, so the results are the same
// on a laptop, on CI and on the GPU machine.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The line of `text` that contains `key`, or "" when none does.
std::string line_with(const std::string& text, const std::string& key) {
  for (const std::string& line : split_lines(text)) {
    if (line.find(key) != std::string::npos) return line;
  }
  return "";
}

TEST(CliLessons, ListsVectorAdd) {
  const ProcessResult r = run_threadlab({"lessons"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("vector-add")) << r.describe();
  EXPECT_EQ(r.err, "") << r.describe();
}

// Each line: number, id, title and summary, the columns apart by at least two spaces, however long
// a title is ("Training a network" filled its column and ran into its summary).
TEST(CliLessons, TheColumnsNeverRunTogether) {
  const ProcessResult r = run_threadlab({"lessons"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("Training a network  ")) << r.describe();
  EXPECT_THAT(r.out, Not(HasSubstr("Training a networkThe"))) << r.describe();
}

// `lab grade` takes a folder, and its usage says so (it said "file").
TEST(CliLabGrade, HelpNamesItsPositionalAFolder) {
  const ProcessResult r = run_threadlab({"lab", "grade", "--help"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("folder TEXT REQUIRED")) << r.describe();
  EXPECT_THAT(r.out, Not(HasSubstr("file TEXT REQUIRED"))) << r.describe();
}

TEST(CliRun, HelpDescribesASharedParameterForEachLessonThatTakesIt) {
  // --n is the matrix multiply's columns of B and C, and the thread hierarchy's element count,
  // each with its own default: the help gives both, each under its lesson.
  const ProcessResult r = run_threadlab({"run", "--help"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("matmul: Columns of B and of C (default 512)")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("thread-hierarchy: How many floats to transform (default 4096)"))
      << r.describe();
}

// The subcommands a help text lists under its "Subcommands:" heading (CLI11 spells it
// "SUBCOMMANDS:" in some versions), by name.
std::vector<std::string> listed_subcommands(const std::string& help) {
  std::vector<std::string> names;
  bool listing = false;
  for (const std::string& line : split_lines(help)) {
    if (line.rfind("SUBCOMMANDS:", 0) == 0 || line.rfind("Subcommands:", 0) == 0) {
      listing = true;
      continue;
    }
    if (!listing) continue;
    if (line.empty() || line[0] != ' ') {
      listing = line.empty() ? listing : false;
      continue;
    }
    std::istringstream words(line);
    std::string name;
    if (words >> name) names.push_back(name);
  }
  return names;
}

// No help text of any command shows CLI11's default flag values, which read as syntax to type
// ("--counters,--no-counters{false}", issue 36 item 11): every command and subcommand, found
// from the root's help down.
TEST(CliHelp, NoCommandsHelpShowsCli11Artefacts) {
  std::vector<std::vector<std::string>> commands = {{}};
  std::size_t checked = 0;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    std::vector<std::string> args = commands[i];
    args.push_back("--help");
    const ProcessResult r = run_threadlab(args);
    std::string name = "threadlab";
    for (const std::string& word : commands[i]) name += " " + word;
    ASSERT_TRUE(r.exited && r.exit_code == 0) << name << ": " << r.describe();
    ++checked;
    for (const std::string& line : split_lines(r.out)) {
      EXPECT_EQ(line.find("{false}"), std::string::npos) << name << ": " << line;
      EXPECT_EQ(line.find("{true}"), std::string::npos) << name << ": " << line;
    }
    // The lessons' own commands (train) have a help of their own, with no SUBCOMMANDS.
    for (const std::string& sub : listed_subcommands(r.out)) {
      std::vector<std::string> deeper = commands[i];
      deeper.push_back(sub);
      commands.push_back(deeper);
    }
  }
  EXPECT_GE(checked, 10u) << "the root, its commands and lab's";
}

TEST(CliInfo, EmulatorPrintsDeviceTableAndBackendWithReason) {
  const ProcessResult r = run_threadlab({"info", "--backend", "emulator"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();

  // The article's per-block limit, on one row of the device table.
  const std::string limit = line_with(r.out, "max threads per block");
  ASSERT_FALSE(limit.empty()) << r.describe();
  EXPECT_THAT(limit, HasSubstr("1024")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("warp size")) << r.describe();

  const std::string chosen = line_with(r.out, "chosen");
  EXPECT_THAT(chosen, HasSubstr("CPU emulator")) << r.describe();
  // A reason that says something, not just the key.
  const std::string reason = line_with(r.out, "reason");
  ASSERT_FALSE(reason.empty()) << r.describe();
  const std::size_t after_key = reason.find("reason") + std::string("reason").size();
  EXPECT_NE(reason.find_first_not_of(' ', after_key), std::string::npos) << r.describe();
}

// A machine without any NVIDIA driver (this CI's) is told so, not "the driver is insufficient",
// which would send its user off to update a driver they do not have.
TEST(CliInfo, WithoutAnNvidiaDriverTheReasonSaysSo) {
  if (std::filesystem::exists("/proc/driver/nvidia/version")) {
    GTEST_SKIP() << "an NVIDIA driver is loaded here";
  }
  const ProcessResult r = run_threadlab({"info"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::string reason = line_with(r.out, "reason");
  EXPECT_THAT(reason, HasSubstr("No NVIDIA GPU or driver found")) << r.describe();
  EXPECT_THAT(reason, Not(HasSubstr("insufficient"))) << r.describe();
}

TEST(CliRun, CoveringGridPassesCheck) {
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "vector-add", "--n", "1000", "--grid", "4", "--block",
                     "256", "--check", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("check passed")) << r.describe();
  EXPECT_THAT(r.out, Not(HasSubstr("FAILED"))) << r.describe();
}

// --counters on the emulator: one line says why there are none, and the run still succeeds; a
// lesson that counts no kernels says so too.
TEST(CliRun, CountersOnTheEmulatorSayWhyNotAndTheRunSucceeds) {
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "2d-blocks", "--rows", "64", "--cols", "64", "--counters",
                     "--repeats", "1", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("hardware counters need an NVIDIA GPU")) << r.describe();
  const ProcessResult none =
      run_threadlab({"run", "--lesson", "vector-add", "--n", "1000", "--counters", "--repeats", "1",
                     "--backend", "emulator"});
  EXPECT_EQ(none.exit_code, 0) << none.describe();
  EXPECT_THAT(none.out, HasSubstr("does not count its kernels")) << none.describe();
  const ProcessResult off =
      run_threadlab({"run", "--lesson", "2d-blocks", "--rows", "64", "--cols", "64",
                     "--no-counters", "--repeats", "1", "--backend", "emulator"});
  EXPECT_EQ(off.exit_code, 0) << off.describe();
  EXPECT_THAT(off.out, Not(HasSubstr("hardware counters"))) << off.describe();
}

TEST(CliRun, TooSmallGridFailsCheckAtFirstUncoveredIndex) {
  // 3 blocks × 256 threads cover elements 0..767: element 768 is the first nobody computed.
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "vector-add", "--n", "1000", "--grid", "3", "--block",
                     "256", "--check", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_THAT(r.out + r.err, HasSubstr("index 768")) << r.describe();
  // 1000 - 768 elements were never written.
  EXPECT_THAT(r.out + r.err, HasSubstr("232 wrong")) << r.describe();
}

// Per cli.hpp, every failure ends in one line on stderr; a failed check is a failure (exit 1).
TEST(CliRun, FailedCheckEndsWithOneLineOnStderr) {
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "vector-add", "--n", "1000", "--grid", "3", "--block",
                     "256", "--check", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("threadlab: ")) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("768")) << r.describe();
}

TEST(CliRun, SingleBlockBeyondLimitReportsTheLaunchError) {
  // The article's <<<1, N>>> with N over the 1024-thread limit: CUDA's own error, as one line.
  const ProcessResult r =
      run_threadlab({"run", "--single-block", "--n", "2048", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("threadlab: ")) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("invalid configuration argument")) << r.describe();
}

TEST(CliRun, TwoDimensionalBlockBeyondLimitIsLaunchedAndReportsTheLaunchError) {
  // 2000 x 2000 threads in one block: each dimension may look plausible, the product is not. It is
  // launched anyway, as the lesson wants, and fails with CUDA's wording and the reason.
  const ProcessResult r =
      run_threadlab({"run", "--n", "1000", "--block", "2000,2000", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("invalid configuration argument")) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("threads per block")) << r.describe();
}

TEST(CliRun, BlockBeyondLimitReportsTheLaunchError) {
  // Same lesson with --block: an invalid configuration is launched, not refused, so the user
  // sees what CUDA says.
  const ProcessResult r =
      run_threadlab({"run", "--n", "4096", "--block", "2048", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("threadlab: ")) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("invalid configuration argument")) << r.describe();
}

TEST(CliBench, CsvHasHeaderAndOneRowPerSize) {
  const ProcessResult r = run_threadlab({"bench", "--sizes", "2^10,2^12", "--format", "csv",
                                         "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::vector<std::string> lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.describe();
  EXPECT_TRUE(lines[0].starts_with("lesson,backend,size,grid,block,emulated_kernel_cpu_ms,"))
      << r.describe();
  const auto columns = std::count(lines[0].begin(), lines[0].end(), ',');
  EXPECT_TRUE(lines[1].starts_with("vector-add,emulator,1024,")) << r.describe();
  EXPECT_TRUE(lines[2].starts_with("vector-add,emulator,4096,")) << r.describe();
  for (std::size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(std::count(lines[i].begin(), lines[i].end(), ','), columns)
        << "row " << i << " does not match the header\n"
        << r.describe();
  }
}

TEST(CliBench, TheRatiosSuiteComparesEachResultInOneRun) {
  const ProcessResult r = run_threadlab({"bench", "--suite", "ratios", "--format", "json",
                                         "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << "not valid JSON\n" << r.describe();
  ASSERT_TRUE(doc.contains("ratios") && doc["ratios"].is_array()) << r.describe();
  std::vector<std::string> whats;
  for (const auto& row : doc["ratios"]) {
    whats.push_back(row.value("what", ""));
    // A ratio where there is something to compare with; on the emulator cuBLAS and interop are
    // absent, and the row says why.
    if (row["reference"].is_null()) {
      EXPECT_FALSE(row.value("absent", "").empty()) << row.dump();
    } else {
      EXPECT_GT(row.value("value", 0.0), 0.0) << row.dump();
      EXPECT_GT(row.value("ratio", 0.0), 0.0) << row.dump();
    }
  }
  const auto has = [&](const std::string& part) {
    return std::any_of(whats.begin(), whats.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
  };
  EXPECT_TRUE(has("vector add, one element per thread")) << r.describe();
  EXPECT_TRUE(has("vector add, float4 per thread")) << r.describe();
  EXPECT_TRUE(has("vector add end to end from pinned memory")) << r.describe();
  EXPECT_TRUE(has("branch on threadIdx.x % 2")) << r.describe();
  EXPECT_TRUE(has("naive kernel")) << r.describe();
  EXPECT_TRUE(has("TILE = 32")) << r.describe();
  EXPECT_TRUE(has("dense layer")) << r.describe();
  EXPECT_TRUE(has("traced frame")) << r.describe();
}

TEST(CliBench, TheUiSuiteMeasuresWholeFramesWithTheTracedLaunchsShare) {
  const ProcessResult r = run_threadlab(
      {"bench", "--suite", "ui", "--format", "json", "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << "not valid JSON\n" << r.describe();
  ASSERT_TRUE(doc.contains("ratios") && doc["ratios"].is_array()) << r.describe();
  ASSERT_EQ(doc["ratios"].size(), 2u) << r.describe();
  // The emulator has no interop to compare: the row is there and says why.
  const auto& delivery = doc["ratios"][0];
  EXPECT_NE(delivery.value("what", "").find("traced frame"), std::string::npos) << r.describe();
  EXPECT_FALSE(delivery.value("absent", "").empty()) << r.describe();
  const auto& frame = doc["ratios"][1];
  const std::string what = frame.value("what", "");
  ASSERT_NE(what.find("UI frame"), std::string::npos) << r.describe();
  if (frame.contains("absent")) GTEST_SKIP() << "no headless GL here: " << frame["absent"];
  EXPECT_NE(what.find("median of 120"), std::string::npos) << what;
  EXPECT_NE(what.find("the traced launch"), std::string::npos) << what;
  EXPECT_GT(frame.value("value", 0.0), 0.0) << r.describe();
  EXPECT_DOUBLE_EQ(frame.value("reference", 0.0), 1000.0 / 60.0) << r.describe();
}

TEST(CliBench, JsonIsValidWithOnePointPerSize) {
  const ProcessResult r = run_threadlab({"bench", "--sizes", "2^10,2^12", "--format", "json",
                                         "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << "not valid JSON\n" << r.describe();
  EXPECT_EQ(doc.value("backend", ""), "emulator") << r.describe();
  ASSERT_TRUE(doc.contains("points") && doc["points"].is_array()) << r.describe();
  ASSERT_EQ(doc["points"].size(), 2u) << r.describe();
  EXPECT_EQ(doc.value("lesson", ""), "vector-add") << r.describe();
  EXPECT_EQ(doc["points"][0].value("size", 0u), 1024u) << r.describe();
  EXPECT_EQ(doc["points"][1].value("size", 0u), 4096u) << r.describe();
  for (const auto& point : doc["points"]) {
    // One timed run per point: the emulated kernel was measured, with a real number, and checked.
    ASSERT_TRUE(point.contains("timings") && point["timings"].is_array()) << point.dump();
    const auto& kernel = point["timings"][0];
    EXPECT_EQ(kernel.value("name", ""), "Emulated kernel (CPU)") << point.dump();
    EXPECT_EQ(kernel["stats"].value("repeats", 0), 1) << point.dump();
    EXPECT_GE(kernel["stats"].value("median_ms", -1.0), 0.0) << point.dump();
    EXPECT_TRUE(point.value("check_passed", false)) << point.dump();
  }
}

// A temporary directory of the test's own, so parallel test processes never write the same file.
class CliMatmul : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "threadlab-cli-matmul-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  std::filesystem::path dir_;
};

TEST_F(CliMatmul, ABlockTheKernelDoesNotUseIsSaidNotIgnored) {
  // The tiled kernel launches TILE × TILE threads per block, whatever --block says.
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "matmul", "--m", "32", "--n", "32", "--k", "32", "--kernel",
                     "tiled", "--tile", "8", "--block", "16,16", "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("--block 16,16 is not used: this kernel launches blocks of 8×8"))
      << r.describe();
  // A block the kernel does use: no note.
  const ProcessResult naive =
      run_threadlab({"run", "--lesson", "matmul", "--m", "32", "--n", "32", "--k", "32", "--kernel",
                     "naive", "--block", "8,8", "--backend", "emulator"});
  ASSERT_TRUE(naive.exited && naive.exit_code == 0) << naive.describe();
  EXPECT_THAT(naive.out, Not(HasSubstr("is not used"))) << naive.describe();
}

TEST_F(CliMatmul, RunTracesEveryElementOfCAtItsRowAndColumn) {
  const std::filesystem::path path = dir_ / "trace.csv";
  const ProcessResult r = run_threadlab({"run", "--lesson", "matmul", "--m", "37", "--n", "53",
                                         "--k", "29", "--kernel", "tiled", "--tile", "8", "--check",
                                         "--backend", "emulator", "--trace", path.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("check passed")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("Emulated tiled kernel, TILE = 8 (CPU)")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("FLOP/s")) << r.describe();  // in whatever unit fits the emulator

  std::ifstream file(path);
  ASSERT_TRUE(file) << "no trace at " << path;
  std::string header;
  std::getline(file, header);
  std::map<std::string, std::size_t> column;
  {
    std::stringstream names(header);
    std::string name;
    for (std::size_t i = 0; std::getline(names, name, ','); ++i) column[name] = i;
  }
  for (const char* name : {"element", "row", "col", "block_x", "block_y", "thread_x", "thread_y"}) {
    ASSERT_EQ(column.count(name), 1u) << name << " missing from " << header;
  }
  std::uint64_t lines = 0;
  std::string line;
  while (std::getline(file, line)) {
    std::vector<std::int64_t> fields;
    std::stringstream values(line);
    std::string field;
    while (std::getline(values, field, ',')) fields.push_back(std::stoll(field));
    ASSERT_EQ(fields.size(), column.size()) << line;
    // C is row-major with N = 53 columns; the tiled kernel's 8×8 blocks: x along the columns.
    const std::int64_t element = fields[column["element"]];
    const std::int64_t row = element / 53, col = element % 53;
    ASSERT_EQ(element, static_cast<std::int64_t>(lines)) << line;
    EXPECT_EQ(fields[column["row"]], row) << line;
    EXPECT_EQ(fields[column["col"]], col) << line;
    EXPECT_EQ(fields[column["block_x"]], col / 8) << line;
    EXPECT_EQ(fields[column["block_y"]], row / 8) << line;
    EXPECT_EQ(fields[column["thread_x"]], col % 8) << line;
    EXPECT_EQ(fields[column["thread_y"]], row % 8) << line;
    ++lines;
  }
  EXPECT_EQ(lines, 37u * 53u);
}

TEST(CliBench, MatmulJsonHasOnePointPerSquareSize) {
  const ProcessResult r =
      run_threadlab({"bench", "--lesson", "matmul", "--sizes", "32,64", "--format", "json",
                     "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << "not valid JSON\n" << r.describe();
  EXPECT_EQ(doc.value("lesson", ""), "matmul") << r.describe();
  ASSERT_TRUE(doc.contains("points") && doc["points"].is_array()) << r.describe();
  ASSERT_EQ(doc["points"].size(), 2u) << r.describe();
  EXPECT_EQ(doc["points"][0].value("size", 0u), 32u) << r.describe();
  EXPECT_EQ(doc["points"][1].value("size", 0u), 64u) << r.describe();
  for (const auto& point : doc["points"]) {
    EXPECT_TRUE(point.value("check_passed", false)) << point.dump();
    // Both kernels were timed once, with a rate in GFLOP/s.
    std::vector<std::string> timed;
    for (const auto& timing : point["timings"]) {
      if (timing.contains("gflops") && timing.contains("gbps")) {
        // Both rates of one timing: their ratio is the roofline's x, FLOP per byte.
        EXPECT_NEAR(timing.value("flop_per_byte", 0.0),
                    timing.value("gflops", 0.0) / timing.value("gbps", 1.0),
                    1e-9 * timing.value("flop_per_byte", 1.0))
            << timing.dump();
      }
      if (!timing["stats"].is_null() && timing.contains("gflops")) {
        EXPECT_EQ(timing["stats"].value("repeats", 0), 1) << timing.dump();
        EXPECT_GT(timing.value("gflops", 0.0), 0.0) << timing.dump();
        timed.push_back(timing.value("name", ""));
      }
    }
    EXPECT_THAT(timed, ::testing::Contains("Emulated naive kernel, block 16×16 (CPU)"))
        << point.dump();
    EXPECT_THAT(timed, ::testing::Contains("Emulated tiled kernel, TILE = 16 (CPU)"))
        << point.dump();
  }
}

// Lessons 2 and 3 from the command line: their parameters as options, their traces and pictures.
// A temporary directory of the test's own, so parallel test processes never write the same file.
class CliLessonFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "threadlab-cli-lessons-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  // A trace CSV: its header's column names and its rows of integers.
  struct Csv {
    std::map<std::string, std::size_t> column;
    std::vector<std::vector<std::int64_t>> rows;
    std::string error;  // non-empty when the file could not be read
  };

  static Csv read_csv(const std::filesystem::path& path) {
    Csv csv;
    std::ifstream file(path);
    if (!file) {
      csv.error = "cannot open " + path.string();
      return csv;
    }
    std::string line;
    std::getline(file, line);
    std::stringstream header(line);
    std::string name;
    for (std::size_t i = 0; std::getline(header, name, ','); ++i) csv.column[name] = i;
    while (std::getline(file, line)) {
      std::vector<std::int64_t> row;
      std::stringstream fields(line);
      for (std::string field; std::getline(fields, field, ',');) {
        try {
          row.push_back(std::stoll(field));
        } catch (const std::exception&) {
          csv.error = "not an integer: '" + field + "' in line " + line;
          return csv;
        }
      }
      if (row.size() != csv.column.size()) {
        csv.error = "wrong field count in line " + line;
        return csv;
      }
      csv.rows.push_back(std::move(row));
    }
    return csv;
  }

  std::filesystem::path dir_;
};

TEST_F(CliLessonFiles, MatrixAddRunTimesBothMappingsAndTracesEveryElementAtItsPosition) {
  const std::filesystem::path trace = dir_ / "matrix.csv";
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "2d-blocks", "--rows", "100", "--cols", "70", "--check",
                     "--repeats", "1", "--backend", "emulator", "--trace", trace.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("check passed")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("x → column (coalesced)")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("x → row (strided)")) << r.describe();

  Csv csv = read_csv(trace);
  ASSERT_TRUE(csv.error.empty()) << csv.error;
  for (const char* name : {"element", "row", "col", "writes"}) {
    ASSERT_EQ(csv.column.count(name), 1u) << name;
  }
  ASSERT_EQ(csv.rows.size(), 7000u);
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    const auto& fields = csv.rows[i];
    const std::int64_t element = fields[csv.column["element"]];
    ASSERT_EQ(element, static_cast<std::int64_t>(i));
    // Row-major with 70 columns: element = row * 70 + col.
    EXPECT_EQ(fields[csv.column["row"]], element / 70) << "element " << i;
    EXPECT_EQ(fields[csv.column["col"]], element % 70) << "element " << i;
    EXPECT_EQ(fields[csv.column["writes"]], 1) << "element " << i;
  }
}

TEST_F(CliLessonFiles, ThreadHierarchyGridStrideTraceRecordsEachPass) {
  // 2 blocks of 64 threads over 1000 elements: passes 0 to 7.
  const std::filesystem::path trace = dir_ / "stride.csv";
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "thread-hierarchy", "--n", "1000", "--grid", "2", "--block",
                     "64", "--grid_stride", "1", "--check", "--repeats", "1", "--backend",
                     "emulator", "--trace", trace.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("check passed")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("up to 8 passes")) << r.describe();

  Csv csv = read_csv(trace);
  ASSERT_TRUE(csv.error.empty()) << csv.error;
  for (const char* name : {"element", "iteration"}) {
    ASSERT_EQ(csv.column.count(name), 1u) << name;
  }
  ASSERT_EQ(csv.rows.size(), 1000u);
  std::int64_t highest_pass = 0;
  for (const auto& fields : csv.rows) {
    // Element i is computed on pass i / 128, 128 being the grid's thread count.
    const std::int64_t element = fields[csv.column["element"]];
    const std::int64_t pass = fields[csv.column["iteration"]];
    EXPECT_EQ(pass, element / 128) << "element " << element;
    highest_pass = std::max(highest_pass, pass);
  }
  EXPECT_EQ(highest_pass, 7);
}

TEST_F(CliLessonFiles, RenderDrawsTheMatrixAddMappingToAPng) {
  const std::filesystem::path png = dir_ / "x.png";
  const ProcessResult r =
      run_threadlab({"render", "--lesson", "2d-blocks", "--rows", "64", "--cols", "48", "--mapping",
                     "x_to_row", "--color-by", "warp", "--width", "320", "--height", "240",
                     "--backend", "emulator", "--out", png.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("2d-blocks")) << r.describe();
  std::ifstream file(png, std::ios::binary);
  ASSERT_TRUE(file) << "no PNG at " << png << '\n' << r.describe();
  char signature[4] = {};
  file.read(signature, sizeof signature);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
}

// Colouring by SM on the emulator draws every element as "SM unknown": the CLI says so (#22).
TEST_F(CliLessonFiles, RenderBySmOnTheEmulatorWarnsThatThereAreNoSms) {
  const std::filesystem::path png = dir_ / "sm.png";
  const ProcessResult r = run_threadlab(
      {"render", "--lesson", "2d-blocks", "--rows", "16", "--cols", "16", "--color-by", "sm",
       "--width", "64", "--height", "64", "--backend", "emulator", "--out", png.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("the CPU emulator has no SMs")) << r.describe();
  const ProcessResult by_block = run_threadlab(
      {"render", "--lesson", "2d-blocks", "--rows", "16", "--cols", "16", "--color-by", "block",
       "--width", "64", "--height", "64", "--backend", "emulator", "--out", png.string()});
  EXPECT_THAT(by_block.err, Not(HasSubstr("no SMs"))) << by_block.describe();
}

// render's --out names the PNG; the dense layer's sizes are --inputs and --neurons, so both fit in
// one command line.
TEST_F(CliLessonFiles, RenderDrawsTheDenseLayerWithItsSizesAndThePngPath) {
  const std::filesystem::path png = dir_ / "dense.png";
  const ProcessResult r =
      run_threadlab({"render", "--lesson", "dense-layer", "--batch", "8", "--inputs", "40",
                     "--neurons", "24", "--color-by", "block", "--width", "320", "--height", "240",
                     "--backend", "emulator", "--out", png.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("192 elements")) << r.describe();
  EXPECT_TRUE(std::filesystem::exists(png)) << r.describe();
}

// Lesson 5 from the command line: --batch, --inputs, --neurons and --path, every path timed in one
// run, and the traced path's Y written element by element.
TEST_F(CliLessonFiles, RenderNamesTheLaunchTheFastDenseKernelsRanWith) {
  // The fast GEMM launches 128×128 tiles of Y with 256 threads each, whatever the block control
  // says (32 × 8 by default): the picture and its line describe that launch.
  const std::filesystem::path png = dir_ / "dense-fast.png";
  const ProcessResult r =
      run_threadlab({"render", "--lesson",   "dense-layer", "--batch",   "130",       "--inputs",
                     "40",     "--neurons",  "24",          "--product", "fast",      "--path",
                     "fused",  "--color-by", "block",       "--width",   "320",       "--height",
                     "240",    "--backend",  "emulator",    "--out",     png.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("dense-layer<<<(1, 2), 256>>>")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("3,120 elements")) << r.describe();
}

TEST_F(CliLessonFiles, DenseLayerRunTimesEveryPathAndTracesEveryOutputOfY) {
  const std::filesystem::path trace = dir_ / "dense.csv";
  const ProcessResult r = run_threadlab({"run", "--lesson", "dense-layer", "--batch", "3", "--in",
                                         "37", "--out", "29", "--path", "unfused", "--check",
                                         "--backend", "emulator", "--trace", trace.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("check passed")) << r.describe();
  for (const char* row :
       {"Emulated unfused, 3 launches (CPU)", "Emulated unfused 1/3: product X · Wᵀ (CPU)",
        "Emulated unfused 2/3: add bias (CPU)", "Emulated unfused 3/3: sigmoid (CPU)",
        "Emulated fused (CPU)", "CPU, 1 thread", "CPU, all threads"}) {
    EXPECT_THAT(r.out, HasSubstr(row)) << r.describe();
  }
  EXPECT_THAT(r.out, HasSubstr("fused speed-up over unfused")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("'cuBLAS + fused epilogue' not timed")) << r.describe();

  Csv csv = read_csv(trace);
  ASSERT_TRUE(csv.error.empty()) << csv.error;
  for (const char* name : {"element", "row", "col", "block_x", "block_y", "thread_x", "thread_y"}) {
    ASSERT_EQ(csv.column.count(name), 1u) << name;
  }
  // Y is 3 × 29, one 32 × 8 block: thread (x, y) computes neuron x of batch row y.
  ASSERT_EQ(csv.rows.size(), 87u);
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    const auto& fields = csv.rows[i];
    const std::int64_t element = fields[csv.column["element"]];
    ASSERT_EQ(element, static_cast<std::int64_t>(i));
    EXPECT_EQ(fields[csv.column["row"]], element / 29) << "element " << i;
    EXPECT_EQ(fields[csv.column["col"]], element % 29) << "element " << i;
    EXPECT_EQ(fields[csv.column["block_x"]], 0) << "element " << i;
    EXPECT_EQ(fields[csv.column["block_y"]], 0) << "element " << i;
    EXPECT_EQ(fields[csv.column["thread_x"]], element % 29) << "element " << i;
    EXPECT_EQ(fields[csv.column["thread_y"]], element / 29) << "element " << i;
  }
}

TEST(CliBench, DenseLayerCsvHasOneRowPerBatchWithTheSameColumns) {
  const ProcessResult r = run_threadlab({"bench", "--lesson", "dense-layer", "--sizes", "1,2",
                                         "--inputs", "64", "--neurons", "32", "--format", "csv",
                                         "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::vector<std::string> lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.describe();
  EXPECT_TRUE(
      lines[0].starts_with("lesson,backend,size,grid,block,emulated_unfused_3_launches_cpu_ms,"))
      << r.describe();
  for (const char* column :
       {",emulated_fused_cpu_ms,", ",cpu_1_thread_ms,", ",cpu_all_threads_ms,"}) {
    EXPECT_THAT(lines[0], HasSubstr(column)) << r.describe();
  }
  EXPECT_THAT(lines[0], Not(HasSubstr("cublas"))) << r.describe();
  // The batch is the size; 32 neurons fit one block 32 wide, the batch rows one block 8 high.
  EXPECT_TRUE(lines[1].starts_with("dense-layer,emulator,1,\"1\",\"32×8\",")) << r.describe();
  EXPECT_TRUE(lines[2].starts_with("dense-layer,emulator,2,\"1\",\"32×8\",")) << r.describe();
  const auto columns = std::count(lines[0].begin(), lines[0].end(), ',');
  for (std::size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(std::count(lines[i].begin(), lines[i].end(), ','), columns)
        << "row " << i << " does not match the header\n"
        << r.describe();
    // Every timing was measured: no "-" for a missing one.
    EXPECT_THAT(lines[i], Not(HasSubstr(",-,"))) << r.describe();
  }
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

// Lesson 2 drawn: a 2D grid of 2D blocks over 1D data, at the size asked for; the picture depends
// on the trace (coloured by block and by thread, the two images differ).
TEST_F(CliLessonFiles, RenderDrawsTheThreadHierarchyToAPngOfTheRequestedSize) {
  const std::filesystem::path by_block = dir_ / "hierarchy-block.png";
  const std::filesystem::path by_thread = dir_ / "hierarchy-thread.png";
  for (const auto& [png, color] : {std::pair{by_block, "block"}, std::pair{by_thread, "thread"}}) {
    const ProcessResult r =
        run_threadlab({"render", "--lesson", "thread-hierarchy", "--n", "1000", "--grid", "2,2",
                       "--block", "64,2", "--color-by", color, "--width", "320", "--height", "240",
                       "--backend", "emulator", "--out", png.string()});
    ASSERT_TRUE(r.exited) << r.describe();
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    EXPECT_EQ(r.err, "") << r.describe();
    EXPECT_THAT(r.out, HasSubstr("wrote " + png.string())) << r.describe();
    EXPECT_THAT(r.out, HasSubstr("thread-hierarchy<<<(2, 2), (64, 2)>>>")) << r.describe();
    EXPECT_THAT(r.out, HasSubstr("1,000 elements")) << r.describe();
    EXPECT_THAT(r.out, HasSubstr(std::string("colour by ") + color)) << r.describe();
    const PngHeader header = read_png_header(png);
    ASSERT_TRUE(header.ok) << "no PNG at " << png << '\n' << r.describe();
    EXPECT_EQ(header.width, 320u);
    EXPECT_EQ(header.height, 240u);
    EXPECT_GT(header.bytes, 100u);
  }
  EXPECT_NE(file_bytes(by_block), file_bytes(by_thread))
      << "colouring by block and by thread drew the same picture";
}

// Lesson 4 drawn: C (37 × 53) under the tiled kernel's 8 × 8 blocks, a 7 × 5 grid.
TEST_F(CliLessonFiles, RenderDrawsTheTiledMatmulOverCToAPngOfTheRequestedSize) {
  const std::filesystem::path png = dir_ / "matmul.png";
  const ProcessResult r =
      run_threadlab({"render", "--lesson",   "matmul",   "--m",      "37",        "--n",
                     "53",     "--k",        "29",       "--kernel", "tiled",     "--tile",
                     "8",      "--color-by", "warp",     "--width",  "400",       "--height",
                     "200",    "--backend",  "emulator", "--out",    png.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err, "") << r.describe();
  EXPECT_THAT(r.out, HasSubstr("matmul<<<(7, 5), (8, 8)>>>")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("1,961 elements")) << r.describe();  // 37 × 53
  EXPECT_THAT(r.out, HasSubstr("colour by warp")) << r.describe();
  const PngHeader header = read_png_header(png);
  ASSERT_TRUE(header.ok) << "no PNG at " << png << '\n' << r.describe();
  EXPECT_EQ(header.width, 400u);
  EXPECT_EQ(header.height, 200u);
  EXPECT_GT(header.bytes, 100u);
}

// A bench CSV split into its header's names and its rows' fields (no field holds a comma).
struct BenchCsv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

BenchCsv split_bench_csv(const std::string& text) {
  BenchCsv csv;
  const auto fields = [](const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, ',');) out.push_back(field);
    return out;
  };
  const std::vector<std::string> lines = split_lines(text);
  if (lines.empty()) return csv;
  csv.header = fields(lines[0]);
  for (std::size_t i = 1; i < lines.size(); ++i) csv.rows.push_back(fields(lines[i]));
  return csv;
}

// Checks a bench CSV: the five leading columns, then for every timing in `timings` its median,
// min and max in that order, and rows with as many fields, each timing a number >= 0.
void expect_bench_columns(const BenchCsv& csv, const std::vector<std::string>& timings,
                          const std::string& context) {
  std::vector<std::string> expected = {"lesson", "backend", "size", "grid", "block"};
  for (const std::string& t : timings) {
    expected.push_back(t + "_ms");
    expected.push_back(t + "_min_ms");
    expected.push_back(t + "_max_ms");
  }
  EXPECT_EQ(csv.header, expected) << context;
  for (const auto& row : csv.rows) {
    ASSERT_EQ(row.size(), expected.size()) << context;
    for (std::size_t i = 5; i < row.size(); ++i) {
      std::size_t used = 0;
      double value = -1;
      try {
        value = std::stod(row[i], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      EXPECT_EQ(used, row[i].size()) << expected[i] << " is not a number: " << row[i] << '\n'
                                     << context;
      EXPECT_GE(value, 0.0) << expected[i] << '\n' << context;
    }
  }
}

TEST(CliBench, ThreadHierarchyCsvHasOneRowPerNWithItsAutoGridAndTheLessonsColumns) {
  const ProcessResult r =
      run_threadlab({"bench", "--lesson", "thread-hierarchy", "--sizes", "1000,4096", "--format",
                     "csv", "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const BenchCsv csv = split_bench_csv(r.out);
  expect_bench_columns(csv,
                       {"emulated_kernel_cpu", "copy_in_emulated", "copy_out_emulated",
                        "emulated_end_to_end_cpu", "cpu_1_thread", "cpu_all_threads"},
                       r.describe());
  ASSERT_EQ(csv.rows.size(), 2u) << r.describe();
  // One element per thread: ceil(N / 256) blocks of the default 256 threads.
  EXPECT_EQ(std::vector<std::string>(csv.rows[0].begin(), csv.rows[0].begin() + 5),
            (std::vector<std::string>{"thread-hierarchy", "emulator", "1000", "\"4\"", "\"256\""}))
      << r.describe();
  EXPECT_EQ(std::vector<std::string>(csv.rows[1].begin(), csv.rows[1].begin() + 5),
            (std::vector<std::string>{"thread-hierarchy", "emulator", "4096", "\"16\"", "\"256\""}))
      << r.describe();
}

// A grid-stride loop keeps its grid at every size, with a 3D block; every point is checked.
TEST(CliBench, ThreadHierarchyJsonGridStrideKeepsTheGridAtEverySize) {
  const ProcessResult r =
      run_threadlab({"bench", "--lesson", "thread-hierarchy", "--sizes", "1000,4096", "--grid", "2",
                     "--block", "8,4,4", "--grid_stride", "1", "--format", "json", "--backend",
                     "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << "not valid JSON\n" << r.describe();
  EXPECT_EQ(doc.value("lesson", ""), "thread-hierarchy") << r.describe();
  EXPECT_EQ(doc.value("backend", ""), "emulator") << r.describe();
  ASSERT_TRUE(doc.contains("points") && doc["points"].is_array()) << r.describe();
  ASSERT_EQ(doc["points"].size(), 2u) << r.describe();
  EXPECT_EQ(doc["points"][0].value("size", 0u), 1000u) << r.describe();
  EXPECT_EQ(doc["points"][1].value("size", 0u), 4096u) << r.describe();
  for (const auto& point : doc["points"]) {
    EXPECT_EQ(point.value("launch", ""), "<<<2, (8, 4, 4)>>>") << point.dump();
    EXPECT_TRUE(point.value("check_passed", false)) << point.dump();
    std::vector<std::string> names;
    for (const auto& timing : point["timings"]) {
      names.push_back(timing.value("name", ""));
      EXPECT_EQ(timing["stats"].value("repeats", 0), 1) << timing.dump();
      EXPECT_GE(timing["stats"].value("median_ms", -1.0), 0.0) << timing.dump();
    }
    EXPECT_EQ(names, (std::vector<std::string>{"Emulated kernel (CPU)", "copy in (emulated)",
                                               "copy out (emulated)", "Emulated end to end (CPU)",
                                               "CPU, 1 thread", "CPU, all threads"}))
        << point.dump();
  }
}

TEST(CliBench, MatrixAddCsvHasOneRowPerSideWithBothMappingsTimed) {
  const ProcessResult r =
      run_threadlab({"bench", "--lesson", "2d-blocks", "--sizes", "64,100", "--format", "csv",
                     "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const BenchCsv csv = split_bench_csv(r.out);
  expect_bench_columns(
      csv,
      {"emulated_kernel_cpu_x_column_coalesced", "emulated_kernel_cpu_x_row_strided",
       "copy_a_b_emulated", "copy_c_emulated", "emulated_end_to_end_copies_kernel_x_column_cpu",
       "cpu_1_thread", "cpu_all_threads"},
      r.describe());
  ASSERT_EQ(csv.rows.size(), 2u) << r.describe();
  // Square matrices of the size's side under the default 16 × 16 blocks: ceil(side / 16) a side.
  EXPECT_EQ(std::vector<std::string>(csv.rows[0].begin(), csv.rows[0].begin() + 5),
            (std::vector<std::string>{"2d-blocks", "emulator", "64", "\"4×4\"", "\"16×16\""}))
      << r.describe();
  EXPECT_EQ(std::vector<std::string>(csv.rows[1].begin(), csv.rows[1].begin() + 5),
            (std::vector<std::string>{"2d-blocks", "emulator", "100", "\"7×7\"", "\"16×16\""}))
      << r.describe();
}

TEST(CliBench, MatrixAddJsonHasOneCheckedPointPerSideWithBothMappings) {
  const ProcessResult r =
      run_threadlab({"bench", "--lesson", "2d-blocks", "--sizes", "64,100", "--block", "32,8",
                     "--format", "json", "--backend", "emulator", "--repeats", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << "not valid JSON\n" << r.describe();
  EXPECT_EQ(doc.value("lesson", ""), "2d-blocks") << r.describe();
  ASSERT_TRUE(doc.contains("points") && doc["points"].is_array()) << r.describe();
  ASSERT_EQ(doc["points"].size(), 2u) << r.describe();
  // x counts columns: ceil(side / 32) blocks in x, ceil(side / 8) in y.
  EXPECT_EQ(doc["points"][0].value("size", 0u), 64u) << r.describe();
  EXPECT_EQ(doc["points"][0].value("launch", ""), "<<<(2, 8), (32, 8)>>>") << r.describe();
  EXPECT_EQ(doc["points"][1].value("size", 0u), 100u) << r.describe();
  EXPECT_EQ(doc["points"][1].value("launch", ""), "<<<(4, 13), (32, 8)>>>") << r.describe();
  for (const auto& point : doc["points"]) {
    EXPECT_TRUE(point.value("check_passed", false)) << point.dump();
    std::vector<std::string> kernels;
    for (const auto& timing : point["timings"]) {
      const std::string name = timing.value("name", "");
      if (name.starts_with("Emulated kernel")) {
        kernels.push_back(name);
        EXPECT_EQ(timing["stats"].value("repeats", 0), 1) << timing.dump();
        EXPECT_GT(timing.value("gbps", 0.0), 0.0) << timing.dump();
      }
    }
    EXPECT_EQ(kernels, (std::vector<std::string>{"Emulated kernel (CPU), x → column (coalesced)",
                                                 "Emulated kernel (CPU), x → row (strided)"}))
        << point.dump();
  }
}

}  // namespace
}  // namespace tl::cli_test
