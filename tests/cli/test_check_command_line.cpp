// cli::check_command_line in-process: the seam the command-line fuzzer drives. Each seed of the
// fuzzer's corpus is a valid command line of its subcommand, and together they cover every
// subcommand; out-of-range and malformed numbers are refused with one line; nothing is run, opened
// or written by a check.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "command_line_input.hpp"

namespace tl::cli_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct Checked {
  int status = -1;
  std::string out;
  std::string err;
};

Checked check(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  Checked checked;
  checked.status = cli::check_command_line(args, out, err);
  checked.out = out.str();
  checked.err = err.str();
  return checked;
}

std::string shown(const std::vector<std::string>& args) {
  std::string line = "threadlab";
  for (const std::string& arg : args) line += " '" + arg + "'";
  return line;
}

// Exit 2 and one printable line, "threadlab: <reason>".
void expect_refused(const std::vector<std::string>& args, const std::string& reason = {}) {
  const Checked c = check(args);
  EXPECT_EQ(c.status, 2) << shown(args) << "\n" << c.err;
  ASSERT_FALSE(c.err.empty()) << shown(args);
  EXPECT_TRUE(c.err.starts_with("threadlab: ")) << shown(args) << "\n" << c.err;
  EXPECT_EQ(std::count(c.err.begin(), c.err.end(), '\n'), 1) << shown(args) << "\n" << c.err;
  EXPECT_EQ(c.err.back(), '\n') << shown(args);
  EXPECT_TRUE(std::none_of(c.err.begin(), c.err.end() - 1,
                           [](char ch) { return static_cast<unsigned char>(ch) < 0x20; }))
      << shown(args) << "\n"
      << c.err;
  if (!reason.empty()) EXPECT_THAT(c.err, HasSubstr(reason)) << shown(args);
}

TEST(CheckCommandLine, EveryCorpusSeedIsAValidCommandLineAndEverySubcommandHasOne) {
  const fs::path corpus = fs::path(THREADLAB_SOURCE_DIR) / "tests/fuzz/corpus/fuzz_command_line";
  std::set<std::size_t> picked;
  std::size_t seeds = 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(bytes.empty()) << entry.path();
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
    const std::vector<std::string> args =
        fuzz::command_line_from_bytes(std::span<const std::uint8_t>(data, bytes.size()));
    const Checked c = check(args);
    EXPECT_EQ(c.status, 0) << entry.path().filename() << ": " << shown(args) << "\n" << c.err;
    EXPECT_EQ(c.err, "") << entry.path().filename();
    picked.insert(data[0] % (fuzz::command_prefixes().size() + 1));
    ++seeds;
  }
  EXPECT_GT(seeds, 0u);
  for (std::size_t i = 0; i < fuzz::command_prefixes().size(); ++i) {
    EXPECT_TRUE(picked.contains(i))
        << "no seed for threadlab " << shown(fuzz::command_prefixes()[i]);
  }
}

// Every numeric option refuses what is out of its range, with the reason, before anything runs.
TEST(CheckCommandLine, OutOfRangeNumbersAreRefused) {
  const std::vector<std::string> lab_check = {"lab", "check", "k.cu", "--exercise", "vector-add"};
  const auto with = [](std::vector<std::string> args, std::vector<std::string> more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  expect_refused({"run", "--repeats", "0"}, "--repeats must be between 1 and 10000");
  expect_refused({"run", "--repeats", "-3"}, "--repeats");
  expect_refused({"run", "--repeats", "1000000"}, "--repeats must be between 1 and 10000");
  expect_refused({"run", "--repeats", "99999999999"}, "--repeats");
  expect_refused({"bench", "--repeats", "20000"}, "--repeats must be between 1 and 10000");
  expect_refused({"bench", "--suite", "perf", "--repeats", "0"}, "--repeats");
  expect_refused({"run", "--block", "0"});
  expect_refused({"run", "--n", "-5"});
  expect_refused({"bench", "--sizes", "-1"});
  expect_refused({"render", "--out", "m.png", "--width", "0"}, "--width and --height");
  expect_refused({"render", "--out", "m.png", "--height", "20000"}, "--width and --height");
  expect_refused({"render", "--out", "m.png", "--warp", "2"}, "--warp is for --memory-line N");
  expect_refused({"render", "--out", "m.png", "--memory-kernel", "tiled"},
                 "--memory-kernel is for --memory-line N");
  expect_refused({"render", "--out", "m.png", "--memory-line", "-4"}, "--memory-line must be");
  expect_refused({"render", "--out", "m.png", "--memory-line", "17", "--width", "200"},
                 "--width must be at least 320");
  expect_refused({"render", "--out", "m.png", "--memory-line", "17", "--warp", "-1"},
                 "--warp must be 0 or more");
  expect_refused({"gui", "--frames", "-1"}, "--frames");
  expect_refused({"gui", "--width", "10"}, "--width and --height");
  expect_refused({"gui", "--scale", "inf"}, "--scale");
  expect_refused({"demo", "s.toml", "--frames", "-2"}, "--frames");
  expect_refused({"soak", "--seconds", "-1"}, "--seconds");
  expect_refused({"soak", "--seconds", "100000"}, "--seconds");
  expect_refused({"soak", "--seconds", "10", "--sample-every", "60"}, "--sample-every");
  expect_refused({"soak", "--sample-every", "0"}, "--sample-every");
  expect_refused(with(lab_check, {"--block", "0"}), "a block holds 1 to 1024 threads");
  expect_refused(with(lab_check, {"--block", "2048"}), "a block holds 1 to 1024 threads");
  expect_refused(with(lab_check, {"--grid", "0"}));
  expect_refused(with(lab_check, {"--timeout-ms", "0"}), "--timeout-ms");
  expect_refused(with(lab_check, {"--timeout-ms", "600001"}), "--timeout-ms");
  expect_refused({"lab", "watch", "k.cu", "--exercise", "vector-add", "--max-checks", "-1"},
                 "--max-checks");
  expect_refused({"train", "--epochs", "0"}, "epochs");
  expect_refused({"train", "--samples", "3"}, "samples");
  expect_refused({"train", "--batch", "100000"}, "batch");
  expect_refused({"train", "--boundary-size", "8"}, "--boundary-size");
  expect_refused({"train", "--scaling-repeats", "0", "--gpus", "2"}, "--scaling-repeats");
}

// CLI11 2.1 read numbers with strtoull in base 0: "" was 0, "-1" a seed of 2^64 - 1, 2^64 and
// more saturated, "0x10" was hex. Numbers are decimal now; "010" is ten, not octal eight.
TEST(CheckCommandLine, NumbersAreDecimalAndWhole) {
  const std::vector<std::string> lab_check = {"lab", "check", "k.cu", "--exercise", "vector-add"};
  const auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = lab_check;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  expect_refused(with({"--seed", "-1"}), "--seed");
  expect_refused(with({"--seed", "18446744073709551616"}), "out of range");
  expect_refused(with({"--seed", "0x10"}), "--seed");
  expect_refused(with({"--seed", ""}), "--seed");
  expect_refused(with({"--seed", "2^64"}), "--seed");
  EXPECT_EQ(check(with({"--seed", "18446744073709551615"})).status, 0);
  expect_refused({"gui", "--frames", ""}, "--frames");
  expect_refused({"gui", "--frames", "1.5"}, "--frames");
  expect_refused({"soak", "--seed", "-1"}, "--seed");
  expect_refused({"soak", "--seconds", "nan"}, "--seconds");
  expect_refused({"run", "--repeats", "0x10"}, "--repeats");
  EXPECT_EQ(check({"run", "--repeats", "010"}).status, 0);
}

// A suite measures fixed sizes of every lesson: a sweep's option with it was ignored (exit 0).
TEST(CheckCommandLine, ASuiteRefusesTheSweepsOptions) {
  expect_refused({"bench", "--suite", "ratios", "--sizes", "abc"}, "--sizes is for a sweep");
  expect_refused({"bench", "--suite", "perf", "--lesson", "nope"}, "--lesson is for a sweep");
  expect_refused({"bench", "--suite", "ui", "--n", "1000"}, "--n is for a sweep");
  expect_refused({"bench", "--suite", "ratios", "--no-cpu"}, "--no-cpu is for a sweep");
  EXPECT_EQ(check({"bench", "--suite", "ratios", "--backend", "emulator"}).status, 0);
}

// Checked, not run: no file is written, no window or device opened, a missing input not looked at.
TEST(CheckCommandLine, NothingIsRunOrWritten) {
  const fs::path dir = fs::path(::testing::TempDir()) / "threadlab_check_command_line";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string png = (dir / "m.png").string();
  EXPECT_EQ(check({"render", "--out", png, "--backend", "emulator"}).status, 0);
  EXPECT_EQ(check({"gui", "--headless", "--screenshot", png}).status, 0);
  EXPECT_EQ(check({"train", "--epochs", "1", "--curves", (dir / "c.csv").string()}).status, 0);
  EXPECT_EQ(
      check({"lab", "watch", (dir / "missing.cu").string(), "--exercise", "vector-add"}).status, 0);
  EXPECT_TRUE(fs::is_empty(dir));
  const Checked help = check({"run", "--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_THAT(help.out, HasSubstr("--repeats"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tl::cli_test
