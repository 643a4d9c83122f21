// Lesson 10 on the CPU emulator, through the Lesson interface the window and the command line
// use: what the lesson's text says the emulator shows of each planted bug.

#include <gtest/gtest.h>

#include <string>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "compute/trace_sink.hpp"

namespace tl::compute {
namespace {

class DebuggingLessonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lesson = make_lesson("debugging");
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    lesson_ = std::move(*lesson);
    lesson_->set_repeats(1);
  }

  Result<LessonReport> run(const std::string& bug, const std::string& n = "1000") {
    const Status configured = lesson_->configure({{"bug", bug}, {"n", n}, {"block", "256"}});
    if (!configured) return configured.error();
    return lesson_->run_timed(*device_, nullptr);
  }

  std::unique_ptr<Device> device_ = make_emulator_device();
  std::unique_ptr<Lesson> lesson_;
};

TEST_F(DebuggingLessonTest, IsTheTenthLessonAndRefusesABugItDoesNotPlant) {
  EXPECT_EQ(lesson_->info().number, 10);
  EXPECT_EQ(lesson_->values().at("bug"), "none");
  const Status refused = lesson_->configure({{"bug", "typo"}});
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("typo"), std::string::npos) << refused.message();
  EXPECT_FALSE(lesson_->configure({{"block", "16,16"}}).is_ok()) << "the kernels index with x";
}

TEST_F(DebuggingLessonTest, TheWrongIndexLeavesTheTailNeverWrittenAndTheTraceShowsTheOverlap) {
  auto report = run("wrong-index");
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_FALSE(report->check->passed);
  EXPECT_NE(report->check->description.find("648 never written"), std::string::npos)
      << report->check->description;
  EXPECT_NE(report->check->description.find("first at index 352"), std::string::npos)
      << report->check->description;

  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  std::size_t twice = 0, never = 0;
  for (const TraceRecord& record : sink.records()) {
    twice += record.writes > 1 ? 1 : 0;
    never += record.writes == 0 ? 1 : 0;
  }
  EXPECT_EQ(twice, 320u - 32u) << "elements 32 to 319 are written more than once";
  EXPECT_EQ(never, 648u) << "elements 352 to 999";
}

TEST_F(DebuggingLessonTest, NoGuardWritesPastTheEndIntoTheGuardZoneAndTheCheckCountsThem) {
  auto report = run("no-guard");
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_FALSE(report->check->passed);
  // 4 blocks of 256 for 1000 elements: 24 spare threads, each writing one float past the end.
  EXPECT_NE(report->check->description.find("24 float(s) written past the end of out, the first at "
                                            "out[1000]"),
            std::string::npos)
      << report->check->description;
  // The traced run records only the writes inside out, and the check still sees the others.
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_FALSE(traced->check->passed);
  for (const TraceRecord& record : sink.records()) EXPECT_EQ(record.writes, 1u);
}

// The race without a barrier gives the right values here: the emulator runs a barrier-free
// block's threads one after another. The lesson says so, and sends the learner to the Lab.
TEST_F(DebuggingLessonTest, TheMissingBarrierGivesTheRightValuesOnTheEmulator) {
  auto report = run("no-barrier");
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
}

TEST_F(DebuggingLessonTest, TheDivergentBarrierIsReportedWithItsBlockAndRunsWhenNoThreadSkipsIt) {
  auto report = run("divergent");
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("__syncthreads() was not reached by every thread of block "
                                  "(3, 0, 0)"),
            std::string::npos)
      << report.message();
  auto whole_blocks = run("divergent", "1024");
  ASSERT_TRUE(whole_blocks.is_ok()) << whole_blocks.message();
  EXPECT_TRUE(whole_blocks->check->passed) << whole_blocks->check->description;
}

// out is left as allocated and the kernel adds to it: the check passes exactly when the memory
// held zeros, and the run itself never fails.
TEST_F(DebuggingLessonTest, TheAccumulatingKernelRunsOnMemoryNobodyInitialised) {
  auto report = run("accumulates");
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_EQ(report->check->description.find("past the end"), std::string::npos)
      << "the guard zone is marked even where out is not: " << report->check->description;
}

TEST_F(DebuggingLessonTest, TheNullBugIsRefusedOnTheEmulatorWithTheReason) {
  auto report = run("null");
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("would end it"), std::string::npos) << report.message();
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_FALSE(traced.is_ok());
  EXPECT_NE(traced.message().find("Run it on a GPU"), std::string::npos) << traced.message();
}

}  // namespace
}  // namespace tl::compute
