// Lesson 1 through the Lesson interface the UI and the command line use.

#include <gtest/gtest.h>

#include "report_rows.hpp"

#include <algorithm>
#include <string>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"

namespace tl::compute {
namespace {

class VectorAddLessonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lesson = make_lesson("vector-add");
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    lesson_ = std::move(*lesson);
    lesson_->set_repeats(1);
  }
  std::unique_ptr<Device> device_ = make_emulator_device();
  std::unique_ptr<Lesson> lesson_;
};

TEST_F(VectorAddLessonTest, AutoGridCoversTheData) {
  ASSERT_TRUE(lesson_->configure({{"n", "1000"}, {"block", "256"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{4, 1, 1}, {256, 1, 1}}));
  EXPECT_EQ(lesson_->data_shape().elements(), 1000u);
  ASSERT_TRUE(lesson_->configure({{"grid", "3"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config().grid, (Dim3{3, 1, 1}));
}

TEST_F(VectorAddLessonTest, ABadValueChangesNothing) {
  ASSERT_TRUE(lesson_->configure({{"n", "5000"}}).is_ok());
  EXPECT_FALSE(lesson_->configure({{"n", "0"}, {"block", "128"}}).is_ok());
  EXPECT_EQ(lesson_->values().at("n"), "5000");
  EXPECT_EQ(lesson_->values().at("block"), "256");
  EXPECT_FALSE(lesson_->configure({{"rows", "4"}}).is_ok());
}

TEST_F(VectorAddLessonTest, TimedRunReportsRowsAndTheCheck) {
  ASSERT_TRUE(lesson_->configure({{"n", "4097"}}).is_ok());
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
  ASSERT_NE(row_named(*report, "Emulated kernel (CPU)"), nullptr);
  EXPECT_EQ(row_named(*report, "Emulated kernel (CPU)")->stats.repeats, 1);
  ASSERT_NE(row_named(*report, "CPU, 1 thread"), nullptr);
  EXPECT_DOUBLE_EQ(row_named(*report, "CPU, 1 thread")->bytes, 12.0 * 4097);
  // Both end-to-end series, plotted, each the kernel plus its own copies.
  const TimingRow* pageable = report->find({TimingRole::kEndToEndPageable, ""});
  const TimingRow* pinned = report->find({TimingRole::kEndToEndPinned, ""});
  ASSERT_NE(pageable, nullptr);
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(pinned->name, "Emulated end to end, pinned (CPU)");
  EXPECT_TRUE(pinned->plotted);
  const TimingRow* kernel = report->find({TimingRole::kKernel, ""});
  const TimingRow* in = report->find({TimingRole::kCopy, "to-device-pinned"});
  const TimingRow* out = report->find({TimingRole::kCopy, "to-host-pinned"});
  ASSERT_NE(in, nullptr);
  ASSERT_NE(out, nullptr);
  EXPECT_FALSE(in->plotted);
  EXPECT_NEAR(pinned->stats.median_ms,
              in->stats.median_ms + kernel->stats.median_ms + out->stats.median_ms, 1e-9);
  EXPECT_NE(std::find_if(report->notes.begin(), report->notes.end(),
                         [](const std::string& note) {
                           return note.find("no link to cross") != std::string::npos;
                         }),
            report->notes.end());
}

TEST_F(VectorAddLessonTest, TracedRunDescribesWhatRan) {
  ASSERT_TRUE(lesson_->configure({{"n", "1000"}, {"grid", "3"}}).is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_EQ(traced->shape.elements(), 1000u);
  EXPECT_EQ(traced->config.grid.x, 3u);
  EXPECT_FALSE(traced->check->passed);
  EXPECT_EQ(summarize(sink.records(), traced->config).unwritten, 232u);
}

TEST_F(VectorAddLessonTest, SweepSizesArePowersOfTwoWithinWhatTheEmulatorDoes) {
  const auto sizes = lesson_->sweep_sizes(*device_);
  ASSERT_FALSE(sizes.empty());
  EXPECT_EQ(sizes.front(), 1024u);
  EXPECT_LE(sizes.back(), std::uint64_t{1} << 24);
  const auto values = lesson_->values_for_size(1 << 16);
  EXPECT_EQ(values.at("n"), std::to_string(1 << 16));
  EXPECT_EQ(values.at("grid"), "auto");
  const auto presets = lesson_->presets();
  ASSERT_EQ(presets.size(), 1u);
  EXPECT_EQ(presets[0].values.at("grid"), "1");
}

TEST(LessonRegistry, UnknownLessonsAreErrorsThatListTheLessons) {
  auto lesson = make_lesson("quantum");
  ASSERT_FALSE(lesson.is_ok());
  EXPECT_NE(lesson.message().find("vector-add"), std::string::npos);
}

}  // namespace
}  // namespace tl::compute
