// The command line on the one launch session (interop/launch_session.hpp): the backend-adapted
// defaults, and a refused launch that leaves no picture behind. Forced onto the emulator, so the
// results are the same everywhere.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

using ::testing::HasSubstr;

TEST(CliSession, RunUsesTheEmulatorsSmallerDefaultsAndSaysWhichItChose) {
  // 512³ would take minutes on the CPU: the window opens the lesson smaller, and so does `run`.
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "matmul", "--backend", "emulator", "--check"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("defaults are smaller: ")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("m=")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("check passed")) << r.describe();
}

TEST(CliSession, SizesGivenOnTheCommandLineWinOverTheAdaptedDefaults) {
  const ProcessResult r = run_threadlab({"run", "--lesson", "matmul", "--backend", "emulator",
                                         "--m", "40", "--n", "24", "--k", "16", "--check"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("m=160"))) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("40")) << r.describe();
}

TEST(CliSession, ARefusedRenderWritesNoFileAndSaysOnlyWhy) {
  const std::filesystem::path png =
      std::filesystem::path(::testing::TempDir()) / "threadlab_refused_render.png";
  std::filesystem::remove(png);
  // The article's <<<1, 2048>>>: more threads in one block than CUDA allows.
  const ProcessResult r =
      run_threadlab({"render", "--lesson", "vector-add", "--n", "2048", "--grid", "1", "--block",
                     "2048", "--backend", "emulator", "--out", png.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_FALSE(std::filesystem::exists(png)) << "a failed launch leaves no picture";
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("wrote"))) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("invalid configuration argument")) << r.describe();
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
}

TEST(CliSession, RenderOnTheEmulatorUsesTheAdaptedDefaultsAndWritesThePicture) {
  const std::filesystem::path png =
      std::filesystem::path(::testing::TempDir()) / "threadlab_adapted_render.png";
  std::filesystem::remove(png);
  const ProcessResult r = run_threadlab(
      {"render", "--lesson", "matmul", "--backend", "emulator", "--out", png.string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(std::filesystem::exists(png));
  EXPECT_THAT(r.out, HasSubstr("0 never written")) << r.describe();
}

TEST(CliConventions, ALessonsHelpListsOnlyItsParametersWithDefaultsAndValues) {
  const ProcessResult r = run_threadlab({"run", "--lesson", "2d-blocks", "--help"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("--rows")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("one of x-to-col, x-to-row")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("(default 1024")) << r.describe();
  // Other lessons' parameters are not offered.
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("--neurons"))) << r.describe();
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("--grid-stride"))) << r.describe();
}

TEST(CliConventions, YesNoParametersAreFlagsAndTheValueFormStaysAccepted) {
  const std::vector<std::string> base = {
      "run",    "--lesson", "thread-hierarchy", "--backend", "emulator", "--n", "5000",
      "--grid", "4",        "--block",          "256",       "--check"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_threadlab(args);
  };
  // 1024 threads cover 5000 elements only with the grid-stride loop.
  const ProcessResult on = with({"--grid-stride"});
  EXPECT_EQ(on.exit_code, 0) << on.describe();
  const ProcessResult off = with({"--no-grid-stride"});
  EXPECT_EQ(off.exit_code, 1) << off.describe();
  EXPECT_THAT(off.err, HasSubstr("check FAILED")) << off.describe();
  const ProcessResult old_spelling = with({"--grid_stride", "1"});
  EXPECT_EQ(old_spelling.exit_code, 0) << old_spelling.describe();
}

TEST(CliConventions, ChoicesAreHyphenatedAndTheUnderscoreSpellingsStayAccepted) {
  for (const char* mapping : {"x-to-row", "x_to_row"}) {
    const ProcessResult r =
        run_threadlab({"run", "--lesson", "2d-blocks", "--backend", "emulator", "--rows", "40",
                       "--cols", "72", "--mapping", mapping, "--check"});
    EXPECT_EQ(r.exit_code, 0) << mapping << ": " << r.describe();
    EXPECT_THAT(r.out, HasSubstr("check passed")) << r.describe();
  }
  const ProcessResult bad = run_threadlab(
      {"run", "--lesson", "2d-blocks", "--backend", "emulator", "--mapping", "sideways"});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_THAT(bad.err, HasSubstr("x-to-col")) << bad.describe();
}

}  // namespace
}  // namespace tl::cli_test
