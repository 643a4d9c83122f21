#include "core/classroom/demo_script.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace tl::classroom {
namespace {

constexpr const char* kScript = R"(title = "Why blocks?"
presenter = true

[[step]]
caption = "One block of 1000 threads"
lesson = "vector-add"
set = { n = 1000, grid = 1, block = "1000" }
color = "thread"
launch = true
wait = 2.5

[[step]]
lesson = "thread-hierarchy"
set = { n = "2^22", grid = [4, 3, 2], grid_stride = true }
view = "grid"
shot = "hierarchy"

[[step]]
sweep = "block"
plot = "gbps"
)";

TEST(DemoScript, ReadsEveryKindOfStep) {
  auto script = parse_demo_script(kScript, "demo.toml");
  ASSERT_TRUE(script.is_ok()) << script.message();
  EXPECT_EQ(script->title, "Why blocks?");
  EXPECT_TRUE(script->presenter);
  ASSERT_EQ(script->steps.size(), 3u);

  const DemoStep& first = script->steps[0];
  EXPECT_EQ(first.line, 4u);
  EXPECT_EQ(first.caption, "One block of 1000 threads");
  EXPECT_EQ(first.action.lesson, "vector-add");
  EXPECT_EQ(first.action.values.at("n"), "1000");
  EXPECT_EQ(first.action.values.at("block"), "1000");
  EXPECT_EQ(first.action.color_by, "thread");
  EXPECT_TRUE(first.action.launch);
  EXPECT_DOUBLE_EQ(first.wait_seconds.value_or(-1), 2.5);
  EXPECT_EQ(first.shot, "step-01");

  const DemoStep& second = script->steps[1];
  EXPECT_EQ(second.action.values.at("grid"), "4,3,2");
  EXPECT_EQ(second.action.values.at("grid_stride"), "1");
  EXPECT_EQ(second.action.view, "grid");
  EXPECT_FALSE(second.action.launch);
  EXPECT_FALSE(second.wait_seconds.has_value()) << "no wait: the window waits for a key";
  EXPECT_EQ(second.shot, "hierarchy");

  const DemoStep& third = script->steps[2];
  EXPECT_TRUE(third.action.sweep);
  EXPECT_TRUE(third.action.sweep_blocks);
  EXPECT_EQ(third.action.plot, "gbps");
  EXPECT_EQ(third.shot, "step-03");
}

TEST(DemoScript, ReadsTheKernelLabsKeys) {
  auto script = parse_demo_script(R"(
[[step]]
exercise = "matmul-tiled"
submission = "one_tile_too_few"
check = true
)",
                                  "lab.toml");
  ASSERT_TRUE(script.is_ok()) << script.message();
  const lessons::LessonAction& action = script->steps[0].action;
  EXPECT_EQ(action.exercise, "matmul-tiled");
  EXPECT_EQ(action.submission, "one_tile_too_few");
  EXPECT_TRUE(action.check);
}

TEST(DemoScript, ReadsALabRunWithItsGrid) {
  auto script = parse_demo_script(R"(
[[step]]
exercise = "vector-add"
submission = "solution"
lab_grid = "2"
run = true
)",
                                  "lab.toml");
  ASSERT_TRUE(script.is_ok()) << script.message();
  const lessons::LessonAction& action = script->steps[0].action;
  EXPECT_EQ(action.lab_grid, "2");
  EXPECT_TRUE(action.run);
  EXPECT_FALSE(action.check);
}

struct BadScript {
  const char* text;
  const char* expected_location;  // "file:line"
  const char* expected_words;
};

TEST(DemoScript, EveryMistakeIsALineNumberedError) {
  const BadScript cases[] = {
      {"[[step]]\nlaunch = tru\n", "bad.toml:2:", ""},
      {"[[step]]\ncaption = \"a\"\nlaunch = \"yes\"\n",
       "bad.toml:3:", "launch must be true or false"},
      {"title = \"t\"\n\n[[step]]\nlesson = \"vector-add\"\nsped = 3\n",
       "bad.toml:5:", "unknown key 'sped'"},
      {"[[step]]\nwait = -1\n", "bad.toml:2:", "wait must be"},
      {"[[step]]\nwait = 1e9\n", "bad.toml:2:", "wait must be"},
      {"[[step]]\nsweep = \"sideways\"\n", "bad.toml:2:", "sweep must be"},
      {"[[step]]\nset = { n = 1.5 }\n", "bad.toml:2:", "n must be"},
      {"[[step]]\nset = { grid = [4, \"x\"] }\n", "bad.toml:2:", "whole numbers"},
      {"[[step]]\nset = 3\n", "bad.toml:2:", "set must be a table"},
      {"[[step]]\nshot = \"../etc\"\n", "bad.toml:2:", "shot must be"},
      {"[[step]]\nshot = \"a\"\n[[step]]\nshot = \"a\"\n", "bad.toml:3:", "used twice"},
      {"speed = 2\n[[step]]\n", "bad.toml:1:", "unknown key 'speed'"},
      {"step = 3\n", "bad.toml:1:", "[[step]] tables"},
      {"title = \"no steps\"\n", "bad.toml", "no steps"},
      // A quoted key may hold a newline; the message stays one line.
      {"[[step]]\n\"la\\nunch\" = true\n", "bad.toml:2:", "unknown key 'la\\nunch'"},
  };
  for (const BadScript& bad : cases) {
    auto script = parse_demo_script(bad.text, "bad.toml");
    ASSERT_FALSE(script.is_ok()) << bad.text;
    EXPECT_EQ(script.error().kind, ErrorKind::kParseError);
    EXPECT_EQ(script.message().rfind(bad.expected_location, 0), 0u)
        << bad.text << " -> " << script.message();
    EXPECT_NE(script.message().find(bad.expected_words), std::string::npos)
        << bad.text << " -> " << script.message();
    EXPECT_EQ(script.message().find('\n'), std::string::npos) << "one line: " << script.message();
  }
}

TEST(DemoScript, LaterErrorsNameTheStepAndItsLine) {
  auto script = parse_demo_script(kScript, "demo.toml");
  ASSERT_TRUE(script.is_ok());
  EXPECT_EQ(step_error(*script, 1, "n: not a number"), "demo.toml:12: step 2: n: not a number");
}

TEST(DemoScript, AMissingFileIsAnIoError) {
  auto script = load_demo_script("/nonexistent/demo.toml");
  ASSERT_FALSE(script.is_ok());
  EXPECT_EQ(script.error().kind, ErrorKind::kIoError);
}

// 20,000 characters overflowed ImGui's 16-bit draw list and aborted the app: refused at its line.
TEST(DemoScript, AnOverlongCaptionIsRefusedAtItsLine) {
  const std::string text = "[[step]]\ncaption = \"" + std::string(20000, 'x') + "\"\n";
  auto script = parse_demo_script(text, "c.toml");
  ASSERT_FALSE(script.is_ok());
  EXPECT_NE(script.message().find("c.toml:2"), std::string::npos) << script.message();
  EXPECT_NE(script.message().find("caption"), std::string::npos) << script.message();
  EXPECT_TRUE(parse_demo_script(
                  "[[step]]\ncaption = \"" + std::string(kMaxCaptionBytes, 'x') + "\"\n", "c.toml")
                  .is_ok());
}

// `demo /dev/zero` read without end, and a FIFO blocked at open: both refused at once.
TEST(DemoScript, OnlyARegularFileOfBoundedSizeIsRead) {
  auto zero = load_demo_script("/dev/zero");
  ASSERT_FALSE(zero.is_ok());
  EXPECT_NE(zero.message().find("not a regular file"), std::string::npos) << zero.message();
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_demo_fifo";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ASSERT_EQ(::mkfifo((dir / "demo.toml").c_str(), 0600), 0);
  auto fifo = load_demo_script((dir / "demo.toml").string());
  ASSERT_FALSE(fifo.is_ok());
  EXPECT_NE(fifo.message().find("FIFO"), std::string::npos) << fifo.message();
}

}  // namespace
}  // namespace tl::classroom
