// The app's controller on a headless OpenGL context with the emulator: the commands a user gives
// through the panels, and what the panels then show.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app_controller.hpp"
#include "platform/egl_context.hpp"

namespace tl::ui {
namespace {

class AppControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto gl = platform::EglContext::create({});
    ASSERT_TRUE(gl.is_ok()) << gl.message();
    gl_ = std::move(*gl);
    auto controller =
        AppController::create({interop::BackendPreference::kEmulator, gl_->renderer()});
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    controller_ = std::move(*controller);
    wait_until_idle();
  }

  void wait_until_idle() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (controller_->busy() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    controller_->update();
  }

  std::unique_ptr<platform::EglContext> gl_;
  std::unique_ptr<AppController> controller_;
};

TEST_F(AppControllerTest, StartsOnTheEmulatorWithTheLessonAndAFirstLaunch) {
  const AppState& s = controller_->state();
  EXPECT_EQ(s.backend, BackendKind::kEmulator);
  EXPECT_FALSE(s.backend_reason.empty());
  EXPECT_EQ(s.lesson.title, "Vector add");
  EXPECT_TRUE(s.lesson.error.empty());
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  EXPECT_TRUE(s.timed.report->check->passed);
  EXPECT_TRUE(
      controller_->embedded_source("kernels/vector_add.cuh")->find("__global__ void vector_add") !=
      std::string::npos);
}

TEST_F(AppControllerTest, TooFewBlocksLeaveElementsUnwrittenAndTheCheckSaysWhere) {
  controller_->apply_lesson_action("threadlab:set?n=1000&grid=3&block=256&color=writes&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  EXPECT_EQ(s.trace.unwritten, 232u);
  EXPECT_EQ(s.trace.idle_threads, 0u);
  EXPECT_EQ(s.view.color_by, ColorBy::kWrites);
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  EXPECT_FALSE(s.timed.report->check->passed);
  EXPECT_EQ(s.timed.report->check->first_wrong, 768u);
}

TEST_F(AppControllerTest, OneBlockOfTooManyThreadsShowsCudasErrorAndTheAppKeepsWorking) {
  controller_->apply_lesson_action("threadlab:set?n=2048&grid=1&block=2048&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_FALSE(s.launch_problems.empty());
  EXPECT_NE(s.trace.error.find("invalid configuration argument"), std::string::npos)
      << s.trace.error;
  EXPECT_NE(s.timed.error.find("invalid configuration argument"), std::string::npos)
      << s.timed.error;
  // The picture shows the honest outcome: nothing written.
  EXPECT_EQ(s.trace.unwritten, 2048u);

  controller_->apply_lesson_action("threadlab:set?n=1000&grid=4&block=256&launch");
  wait_until_idle();
  EXPECT_TRUE(controller_->state().trace.error.empty());
  EXPECT_EQ(controller_->state().trace.idle_threads, 24u);
  EXPECT_TRUE(controller_->state().timed.report->check->passed);
}

TEST_F(AppControllerTest, InvalidInputsAreRefusedAndThePreviousStateKept) {
  controller_->set_n(5000);
  controller_->set_n(0);
  EXPECT_EQ(controller_->state().controls.n, 5000u);
  EXPECT_EQ(controller_->state().messages.back().severity, Severity::kWarning);
  controller_->apply_lesson_action("threadlab:set?n=lots");
  EXPECT_EQ(controller_->state().controls.n, 5000u);
  EXPECT_EQ(controller_->state().messages.back().severity, Severity::kError);
}

TEST_F(AppControllerTest, SingleBlockIsTheArticlesLaunch) {
  controller_->set_n(1000);
  controller_->use_single_block();
  EXPECT_EQ(controller_->state().controls.config(), (LaunchConfig{{1, 1, 1}, {1000, 1, 1}}));
  EXPECT_TRUE(controller_->state().launch_problems.empty());
  controller_->set_n(1500);
  controller_->use_single_block();
  EXPECT_FALSE(controller_->state().launch_problems.empty());
}

TEST_F(AppControllerTest, HoverReportsTheThreadThatWroteTheElement) {
  controller_->apply_lesson_action("threadlab:set?n=1000&grid=4&block=256&launch");
  wait_until_idle();
  const Viewport viewport{640, 480};
  ASSERT_TRUE(controller_->render_mapping(viewport).is_ok());
  const AppState& s = controller_->state();
  const PixelPoint centre = cell_center_pixel(s.trace.layout, s.view.transform, 300);
  controller_->hover(centre, viewport);
  ASSERT_TRUE(controller_->state().view.hover.has_value());
  const HoverInfo& hover = *controller_->state().view.hover;
  EXPECT_EQ(hover.hit.cell, 300u);
  ASSERT_TRUE(hover.record.has_value());
  EXPECT_EQ(hover.record->block.x, 1u);
  EXPECT_EQ(hover.record->thread.x, 44u);
  // Past the data: the idle threads of the last block.
  const PixelPoint idle = cell_center_pixel(s.trace.layout, s.view.transform, 1010);
  controller_->hover(idle, viewport);
  ASSERT_TRUE(controller_->state().view.hover.has_value());
  EXPECT_EQ(controller_->state().view.hover->hit.kind, CellKind::kIdleThread);
}

TEST_F(AppControllerTest, SweepFillsTheSeriesAndCanBeCancelled) {
  controller_->set_n(1 << 12);
  controller_->start_sweep();
  EXPECT_TRUE(controller_->state().timing.sweeping);
  EXPECT_FALSE(controller_->can_launch());
  controller_->cancel_sweep();
  wait_until_idle();
  EXPECT_FALSE(controller_->state().timing.sweeping);
  EXPECT_TRUE(controller_->can_launch());
  ASSERT_EQ(controller_->state().timing.series.size(), 4u);
  EXPECT_EQ(controller_->state().timing.series[2].name, "Emulated kernel (CPU)");
}

}  // namespace
}  // namespace tl::ui
