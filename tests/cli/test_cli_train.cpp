// `threadlab train` through the real executable, on the emulator: the per-epoch lines, the CSV
// curves and the PNG boundary; exit 1 naming the step when training diverges; exit 2 with one
// line for bad usage.

#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kSmall = {
    "train",   "--backend", "emulator", "--data",   "blobs", "--samples",       "120", "--layers",
    "2,8,8,2", "--batch",   "20",       "--epochs", "3",     "--learning-rate", "0.02"};

std::vector<std::string> with(std::vector<std::string> args, std::vector<std::string> more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliTrain, HelpListsTheOptions) {
  const ProcessResult r = run_threadlab({"train", "--help"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  for (const char* option :
       {"--backend", "--data", "--layers", "--batch", "--learning-rate", "--epochs", "--optimizer",
        "--seed", "--curves", "--boundary", "--gpus", "--format", "--scaling-repeats"}) {
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  }
}

TEST(CliTrain, TrainsAndWritesCurvesAndBoundary) {
  const fs::path dir =
      fs::temp_directory_path() / ("threadlab-train-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string csv = (dir / "curves.csv").string(), png = (dir / "boundary.png").string();
  const ProcessResult r =
      run_threadlab(with(kSmall, {"--curves", csv, "--boundary", png, "--boundary-size", "32"}));
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("epoch 1/3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("epoch 3/3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("accuracy"), std::string::npos) << r.out;
  std::ifstream curves(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(curves, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "epoch,steps,train_loss,train_accuracy,loss,accuracy,seconds");
  EXPECT_TRUE(lines[3].starts_with("3,18,")) << lines[3];  // 6 steps per epoch
  std::ifstream image(png, std::ios::binary);
  char magic[4] = {};
  image.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  fs::remove_all(dir);
}

TEST(CliTrain, DivergenceExitsOneNamingTheStep) {
  const ProcessResult r =
      run_threadlab(with(kSmall, {"--learning-rate", "1e6", "--optimizer", "sgd"}));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_NE(lines[0].find("diverged at step "), std::string::npos) << lines[0];
}

TEST(CliTrain, BadUsageExitsTwoWithOneLine) {
  const std::vector<std::vector<std::string>> bad = {{"--layers", "2,x,2"},
                                                     {"--batch", "abc"},
                                                     {"--optimizer", "rmsprop"},
                                                     {"--no-such-option"},
                                                     {"--data", "moons"},
                                                     {"--layers", "3,8,2"},
                                                     {"--learning-rate", "-1"},
                                                     {"--backend", "tpu"},
                                                     {"--epochs"},
                                                     {"--gpus", "0"},
                                                     {"--gpus", "two"},
                                                     {"--format", "csv"},
                                                     {"--gpus", "2", "--format", "xml"},
                                                     {"--data", "digits", "--boundary", "x.png"},
                                                     // Out of range: refused before training.
                                                     {"--epochs", "0"},
                                                     {"--epochs", "-5"},
                                                     {"--samples", "1"},
                                                     {"--batch", "0"},
                                                     {"--momentum", "1"},
                                                     {"--boundary-size", "99999"},
                                                     {"--epochs", "99999999999"},
                                                     // Echoed back: still one printable line.
                                                     {"--data", "spi\nrals\x1b[31m"},
                                                     {"--optimizer", "a\rb\tc"},
                                                     {"--no\nsuch"}};
  for (const auto& extra : bad) {
    const ProcessResult r = run_threadlab(with(kSmall, extra));
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    const std::vector<std::string> lines = split_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.describe();
    EXPECT_TRUE(lines[0].starts_with("threadlab: train: ")) << lines[0];
    EXPECT_TRUE(std::none_of(lines[0].begin(), lines[0].end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20;
    })) << lines[0];
  }
}

// Data parallel needs GPUs: on the emulator, or asking for more GPUs than any machine here has, the
// run is refused with one line that says why (exit 1, not a usage error: the request is sound).
TEST(CliTrain, DataParallelWithoutTheGpusIsRefusedWithTheReason) {
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {"--gpus", "2"},                           // kSmall asks for the emulator
           {"--backend", "auto", "--gpus", "64"}}) {  // no machine here has 64
    const ProcessResult r = run_threadlab(with(kSmall, extra));
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 1) << r.describe();
    const std::vector<std::string> lines = split_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.describe();
    EXPECT_TRUE(lines[0].starts_with("threadlab: train: --gpus ")) << lines[0];
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
}  // namespace tl::cli_test
