// A long traced launch on the emulator runs in the background: the window keeps drawing frames
// while it runs (counted, not timed), and Cancel leaves the earlier picture and table as they were.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "headless_ui.hpp"

namespace tl::ui {
namespace {

// 2^24 elements: the largest picture, the 1.7-second freeze on the emulator.
constexpr const char* kLargeLaunch = "threadlab:set?lesson=vector-add&n=16777216&grid=auto&launch";

class BackgroundTraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ui = HeadlessUi::create(1280, 720, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    auto controller = AppController::create(
        test_support::emulator_options(ui_->renderer(), "threadlab_background_trace_test"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    controller_ = std::move(*controller);
    test_support::wait_until_idle(*controller_);
  }
  void TearDown() override {
    controller_.reset();  // its GL objects go before the context
    ui_.reset();
  }

  std::unique_ptr<HeadlessUi> ui_;
  std::unique_ptr<AppController> controller_;
};

TEST_F(BackgroundTraceTest, FramesKeepComingWhileALargeEmulatedTraceRuns) {
  const std::uint64_t before = controller_->state().trace.launch_number;
  controller_->apply_lesson_action(kLargeLaunch);
  // The launch returned before its trace finished: the picture is still the earlier one, and the
  // launch's progress is shown.
  ASSERT_TRUE(controller_->state().tracing.running);
  EXPECT_EQ(controller_->state().trace.launch_number, before);
  int frames_while_tracing = 0;
  while (controller_->state().tracing.running) {
    ui_->draw_frame(*controller_);
    ++frames_while_tracing;
    if (frames_while_tracing == 2) {
      // The progress bar and Cancel over the earlier picture, kept as the layouts' shots are.
      const char* keep = std::getenv("THREADLAB_LAYOUT_SHOTS");
      const std::filesystem::path folder =
          keep != nullptr && *keep != '\0'
              ? std::filesystem::path(keep)
              : std::filesystem::path(::testing::TempDir()) / "threadlab-layouts";
      std::filesystem::create_directories(folder);
      const Status saved = ui_->save_png((folder / "tracing-1280x720.png").string());
      EXPECT_TRUE(saved.is_ok()) << saved.message();
    }
    ASSERT_LT(frames_while_tracing, 1'000'000) << "the trace never finished";
  }
  // Each of those frames was drawn while the emulator traced (the first one at least: 2^24
  // emulated threads take far longer than one update).
  EXPECT_GE(frames_while_tracing, 2);
  const AppState& s = controller_->state();
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  EXPECT_EQ(s.trace.launch_number, before + 1);
  EXPECT_EQ(s.trace.n, 16777216u);
  EXPECT_EQ(s.trace.unwritten, 0u);
  EXPECT_TRUE(s.trace.launched.matches(s.controls));
  // The timed run followed the picture.
  EXPECT_TRUE(s.timed.pending);
  EXPECT_EQ(s.timed.n, 16777216u);
  controller_->cancel_launch();
  test_support::wait_until_idle(*controller_);
  EXPECT_FALSE(controller_->busy());
}

TEST_F(BackgroundTraceTest, CancelKeepsTheEarlierPictureAndTableMarkedAsEarlier) {
  const AppState& s = controller_->state();
  ASSERT_TRUE(s.trace.valid);
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  const std::uint64_t before = s.trace.launch_number;
  const std::uint64_t earlier_n = s.trace.n;
  controller_->apply_lesson_action(kLargeLaunch);
  ASSERT_TRUE(s.tracing.running);
  ui_->draw_frame(*controller_);
  controller_->cancel_launch();
  test_support::wait_until_idle(*controller_);
  ui_->draw_frame(*controller_);
  EXPECT_FALSE(s.tracing.running);
  EXPECT_FALSE(controller_->busy());
  // Nothing of the cancelled launch replaced what was there: the earlier picture and timings,
  // which no longer match the fields and so are drawn as the earlier launch's.
  ASSERT_TRUE(s.trace.valid);
  EXPECT_EQ(s.trace.launch_number, before);
  EXPECT_EQ(s.trace.n, earlier_n);
  EXPECT_FALSE(s.trace.launched.matches(s.controls));
  ASSERT_TRUE(s.timed.report.has_value());
  EXPECT_FALSE(s.timed.pending);
  EXPECT_EQ(s.timed.n, earlier_n);
  EXPECT_FALSE(s.timed.launched.matches(s.controls));
  ASSERT_FALSE(s.messages.empty());
  EXPECT_NE(s.messages.back().text.find("Cancelled"), std::string::npos) << s.messages.back().text;
  // And the app goes on: a small launch draws and times as before.
  controller_->apply_lesson_action("threadlab:set?n=5000&launch");
  test_support::wait_until_idle(*controller_);
  EXPECT_TRUE(s.trace.valid);
  EXPECT_EQ(s.trace.n, 5000u);
  EXPECT_EQ(s.trace.launch_number, before + 1);
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  EXPECT_EQ(s.timed.n, 5000u);
}

// A sweep link whose picture is traced in the background sweeps once the picture is drawn (the
// runner does one thing at a time: the sweep had been refused).
TEST_F(BackgroundTraceTest, ASweepLinkSweepsAfterItsBackgroundPicture) {
  controller_->apply_lesson_action("threadlab:set?lesson=vector-add&n=2097152&grid=auto&sweep");
  const AppState& s = controller_->state();
  ASSERT_TRUE(s.tracing.running);
  EXPECT_TRUE(controller_->busy());
  EXPECT_FALSE(controller_->can_launch());
  test_support::wait_until_idle(*controller_);
  EXPECT_FALSE(controller_->busy());
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  EXPECT_EQ(s.trace.n, 2097152u);
  ASSERT_FALSE(s.timing.series.empty());
  EXPECT_FALSE(s.timing.series.front().points.empty());
  for (const Message& m : s.messages) {
    EXPECT_EQ(m.text.find("already running"), std::string::npos) << m.text;
  }
}

// Another lesson while the trace runs: not refused, offered; the offer declined changes nothing,
// accepted it cancels without waiting (update() opens the lesson once the runner stopped). The
// window test (test_window_runs.cpp) times it.
TEST_F(BackgroundTraceTest, AnotherLessonWhileItRunsIsOfferedAndOpensOnceCancelled) {
  const AppState& s = controller_->state();
  controller_->apply_lesson_action(kLargeLaunch);
  ASSERT_TRUE(s.tracing.running);
  controller_->select_lesson("matmul");
  EXPECT_EQ(s.controls.lesson_id, "vector-add");
  ASSERT_TRUE(s.switch_offer.has_value());
  EXPECT_EQ(s.switch_offer->lesson_id, "matmul");
  EXPECT_FALSE(s.switch_offer->cancelling);
  EXPECT_NE(s.switch_offer->running.find("traced launch"), std::string::npos)
      << s.switch_offer->running;
  for (const Message& m : s.messages) EXPECT_EQ(m.text.find("wait or cancel"), std::string::npos);
  ui_->draw_frame(*controller_);  // the offer drawn
  controller_->decline_switch_offer();
  EXPECT_FALSE(s.switch_offer.has_value());
  EXPECT_TRUE(s.tracing.running);
  // A lesson link to another lesson is offered the same way, and followed once accepted.
  controller_->apply_lesson_action("threadlab:set?lesson=matmul&n=96&launch");
  ASSERT_TRUE(s.switch_offer.has_value());
  EXPECT_EQ(s.switch_offer->link, "threadlab:set?lesson=matmul&n=96&launch");
  controller_->accept_switch_offer();
  EXPECT_TRUE(s.switch_offer->cancelling);
  ui_->draw_frame(*controller_);  // "Cancelling ..."
  test_support::wait_until_idle(*controller_);
  EXPECT_FALSE(s.switch_offer.has_value());
  EXPECT_EQ(s.controls.lesson_id, "matmul");
  EXPECT_EQ(s.controls.values.at("n"), "96") << "the link was followed";
}

// Small launches stay on the UI thread: their picture is there when launch() returns.
TEST_F(BackgroundTraceTest, SmallLaunchesAreDrawnAtOnce) {
  controller_->apply_lesson_action("threadlab:set?n=5000&launch");
  const AppState& s = controller_->state();
  EXPECT_FALSE(s.tracing.running);
  EXPECT_TRUE(s.trace.valid);
  EXPECT_EQ(s.trace.n, 5000u);
  test_support::wait_until_idle(*controller_);
}

}  // namespace
}  // namespace tl::ui
