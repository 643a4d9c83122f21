// `threadlab soak`, short, on the emulator: dozens of random actions (invalid settings
// among them) leave the app running and the backend in place. Memory is judged over the real run's
// ten minutes (docs/PERFORMANCE.md): twelve seconds are too few to tell a leak from the allocator
// settling, so here the verdict is printed but not asserted.

#include <gtest/gtest.h>

#include <string>

#include "../cli/cli_process.hpp"

namespace tl {
namespace {

TEST(SoakCommand, AShortSoakOnTheEmulatorKeepsTheAppRunning) {
  auto run = cli_test::run_threadlab(
      {"soak", "--seconds", "12", "--sample-every", "2", "--seed", "3", "--backend", "emulator"});
  ASSERT_TRUE(run.exited) << "crashed: " << run.describe();
  EXPECT_EQ(run.err.find("backend fell"), std::string::npos) << run.describe();
  const auto summary = run.out.find("soak: ");
  const auto last = run.out.rfind("soak: ");
  ASSERT_NE(summary, last) << "no final summary: " << run.out;
  const long actions = std::stol(run.out.substr(last + 6));
  // How many actions fit in 12 s is the machine's business, not the app's: one timed run of a
  // larger lesson takes ten seconds on a loaded 2-core runner (seed 3 managed 16 there, and over 50
  // alone). A crash fails `exited` above; a hang is background work still running after the final
  // wait.
  EXPECT_GE(actions, 1) << run.out;
  EXPECT_EQ(run.err.find("still running"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find(" traced launches"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("memory "), std::string::npos) << run.out;
}

TEST(SoakCommand, BadArgumentsAreOneLine) {
  auto run = cli_test::run_threadlab({"soak", "--seconds", "-1"});
  EXPECT_EQ(run.exit_code, 2) << run.describe();
  EXPECT_EQ(cli_test::split_lines(run.err).size(), 1u) << run.describe();
}

}  // namespace
}  // namespace tl
