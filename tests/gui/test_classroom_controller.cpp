// Classroom mode through the controller, on a headless OpenGL context with the emulator: the
// clicker's walk through a lesson's steps and on to the next lesson, demo playback with its
// waits, presenter mode, and what the settings file is given to remember.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "app_controller.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "controller_test_support.hpp"
#include "core/classroom/demo_script.hpp"
#include "platform/egl_context.hpp"

namespace tl::ui {
namespace {

class ClassroomTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto gl = platform::EglContext::create({});
    ASSERT_TRUE(gl.is_ok()) << gl.message();
    gl_ = std::move(*gl);
    ControllerOptions options =
        test_support::emulator_options(gl_->renderer(), "threadlab_classroom_test");
    options.settings = settings_;
    auto controller = AppController::create(options);
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    controller_ = std::move(*controller);
    wait_until_idle();
  }

  void wait_until_idle() { test_support::wait_until_idle(*controller_); }

  [[nodiscard]] const AppState& state() const { return controller_->state(); }
  [[nodiscard]] std::string value(const std::string& name) const {
    return state().controls.values.at(name);
  }

  classroom::Settings settings_;
  std::unique_ptr<platform::EglContext> gl_;
  std::unique_ptr<AppController> controller_;
};

TEST_F(ClassroomTest, EveryLessonHasGuidedSteps) {
  for (const lessons::LessonInfo& info : lessons::catalog()) {
    controller_->select_lesson(std::string(info.id));
    wait_until_idle();
    ASSERT_EQ(state().controls.lesson_id, info.id);
    EXPECT_TRUE(state().classroom.steps_error.empty())
        << info.id << ": " << state().classroom.steps_error;
    EXPECT_GE(state().classroom.steps.size(), 4u) << info.id;
    EXPECT_TRUE(state().classroom.cursor.at_start()) << "a lesson opens on its introduction";
  }
}

TEST_F(ClassroomTest, NextStepSetsTheControlsAndLaunches) {
  const auto& steps = state().classroom.steps;
  ASSERT_FALSE(steps.empty());
  const std::uint64_t launches = state().trace.launch_number;
  controller_->next_step();
  wait_until_idle();
  EXPECT_EQ(state().classroom.cursor.current(), 0u);
  EXPECT_EQ(state().classroom.cursor.progress_text(), "Step 1 of " + std::to_string(steps.size()));
  // The vector-add lesson's first step: one block of 1000 threads.
  EXPECT_EQ(value("n"), "1000");
  EXPECT_EQ(value("block"), "1000");
  EXPECT_EQ(state().view.color_by, ColorBy::kThread);
  EXPECT_GT(state().trace.launch_number, launches) << "the step launches";
  EXPECT_TRUE(state().trace.valid) << state().trace.error;

  controller_->next_step();
  wait_until_idle();
  EXPECT_EQ(value("n"), "2048") << "the second step: a block of 2048, refused by CUDA's limit";
  controller_->previous_step();
  wait_until_idle();
  EXPECT_EQ(value("n"), "1000");
  controller_->previous_step();
  EXPECT_TRUE(state().classroom.cursor.at_start()) << "back to the introduction";
}

TEST_F(ClassroomTest, PastTheLastStepComesTheNextLessonAndBackAgain) {
  const std::size_t count = state().classroom.steps.size();
  controller_->go_to_step(count - 1);
  wait_until_idle();
  EXPECT_TRUE(state().classroom.cursor.at_end());
  controller_->next_step();
  wait_until_idle();
  EXPECT_EQ(state().controls.lesson_id, "thread-hierarchy");
  EXPECT_TRUE(state().classroom.cursor.at_start());
  controller_->previous_step();
  wait_until_idle();
  EXPECT_EQ(state().controls.lesson_id, "vector-add");
  EXPECT_EQ(state().classroom.cursor.current(), count - 1) << "back at the last step";
}

// The status bar shows the newest message of the lesson and workspace on screen: another
// lesson's "Step 8 of 9: …" stayed there after a switch (issue 36 item 10), and a lesson's message
// showed inside the Lab.
TEST_F(ClassroomTest, AStepsMessageStaysWithItsLessonAndOutOfTheLab) {
  controller_->next_step();
  wait_until_idle();
  const Message* step = current_message(state());
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->text.rfind("Step 1 of ", 0), 0u) << step->text;
  EXPECT_EQ(step->lesson_id, "vector-add");

  controller_->select_lesson("reductions");
  wait_until_idle();
  const Message* there = current_message(state());
  if (there != nullptr) {
    EXPECT_EQ(there->lesson_id, "reductions");
    EXPECT_EQ(there->text.find("Step 1 of "), std::string::npos) << there->text;
  }
  controller_->select_lesson("vector-add");
  wait_until_idle();
  ASSERT_TRUE(controller_->show_view("lab").is_ok());
  const Message* in_lab = current_message(state());
  if (in_lab != nullptr) {
    EXPECT_EQ(in_lab->workspace, Workspace::kLab);
    EXPECT_EQ(in_lab->text.find("Step 1 of "), std::string::npos) << in_lab->text;
  }
  ASSERT_TRUE(controller_->show_view("lesson").is_ok());
  const Message* back = current_message(state());
  ASSERT_NE(back, nullptr) << "the lesson's own messages are still there";
  EXPECT_EQ(back->lesson_id, "vector-add");
}

TEST_F(ClassroomTest, AStepIsNotRefusedByMeasurementsStillRunning) {
  controller_->start_sweep(SweepKind::kSize);
  ASSERT_TRUE(controller_->busy());
  controller_->next_step();  // in front of a class the click must do something
  wait_until_idle();
  EXPECT_EQ(state().classroom.cursor.current(), 0u);
  EXPECT_EQ(value("n"), "1000");
}

TEST_F(ClassroomTest, ClickingAStepsLinkMovesTheCursorThere) {
  const auto& steps = state().classroom.steps;
  ASSERT_GE(steps.size(), 3u);
  controller_->apply_lesson_action(steps[2].action);
  wait_until_idle();
  EXPECT_EQ(state().classroom.cursor.current(), 2u);
}

TEST_F(ClassroomTest, ADemoPlaysItsStepsWithKeysAndWaits) {
  auto script = classroom::parse_demo_script(R"(
title = "test"
presenter = true
[[step]]
caption = "first"
lesson = "matmul"
set = { m = 40, n = 48, k = 36, kernel = "tiled", tile = 8 }
launch = true
wait = 0
[[step]]
caption = "second"
lesson = "2d-blocks"
set = { rows = 64, cols = 64, block = [32, 8] }
launch = true
[[step]]
caption = "third"
set = { rows = 100 }
launch = true
)",
                                             "test.toml");
  ASSERT_TRUE(script.is_ok()) << script.message();
  controller_->start_demo(*script);
  EXPECT_TRUE(state().classroom.presenter) << "the script asks for presenter mode";
  EXPECT_TRUE(state().classroom.fullscreen);
  EXPECT_EQ(state().classroom.caption(), "first");
  EXPECT_EQ(state().controls.lesson_id, "matmul");
  EXPECT_EQ(value("tile"), "8");
  // wait = 0: once measured, the next update moves on by itself.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (state().classroom.caption() == "first" && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    controller_->update();
  }
  EXPECT_EQ(state().classroom.caption(), "second");
  EXPECT_EQ(state().controls.lesson_id, "2d-blocks");
  // No wait on the second step: only a key moves on.
  wait_until_idle();
  for (int i = 0; i < 5; ++i) controller_->update();
  EXPECT_EQ(state().classroom.caption(), "second");
  controller_->next_step();
  wait_until_idle();
  EXPECT_EQ(state().classroom.caption(), "third");
  EXPECT_EQ(value("rows"), "100");
  EXPECT_EQ(value("cols"), "64") << "a step keeps what earlier steps set";
  controller_->next_step();  // past the end: stays, says so
  EXPECT_EQ(state().classroom.caption(), "third");
  controller_->previous_step();
  wait_until_idle();
  EXPECT_EQ(state().classroom.caption(), "second");
  controller_->stop_demo();
  EXPECT_TRUE(state().classroom.caption().empty());
}

TEST_F(ClassroomTest, PresenterModeIsLargerHighContrastAndFullScreen) {
  ClassroomState c = state().classroom;
  EXPECT_EQ(c.scale_factor(), 1.0f);
  EXPECT_EQ(c.shown_theme(), classroom::Theme::kDark);
  controller_->set_presenter_scale(2.5f);
  controller_->set_presenter(true);
  c = state().classroom;
  EXPECT_EQ(c.scale_factor(), 2.5f);
  EXPECT_EQ(c.shown_theme(), classroom::Theme::kHighContrast);
  EXPECT_TRUE(c.fullscreen);
  controller_->set_presenter_scale(9.0f);
  EXPECT_EQ(state().classroom.presenter_scale, classroom::kMaxPresenterScale);
  controller_->set_presenter(false);
  EXPECT_FALSE(state().classroom.fullscreen);
  EXPECT_EQ(state().classroom.scale_factor(), 1.0f);
}

TEST_F(ClassroomTest, TheSettingsRememberTheLessonScaleThemeAndWindow) {
  controller_->select_lesson("dense-layer");
  wait_until_idle();
  controller_->set_presenter_scale(1.75f);
  controller_->set_theme(classroom::Theme::kHighContrast);
  const classroom::Settings saved = controller_->settings_to_save(1280, 720);
  EXPECT_EQ(saved.last_lesson, "dense-layer");
  EXPECT_EQ(saved.presenter_scale, 1.75f);
  EXPECT_EQ(saved.theme, classroom::Theme::kHighContrast);
  EXPECT_EQ(saved.window_width, 1280);
  EXPECT_EQ(saved.window_height, 720);
}

class ClassroomFromSettingsTest : public ClassroomTest {
 protected:
  void SetUp() override {
    settings_.last_lesson = "matmul";
    settings_.theme = classroom::Theme::kHighContrast;
    settings_.presenter_scale = 3.0f;
    ClassroomTest::SetUp();
  }
};

TEST_F(ClassroomFromSettingsTest, OpensWhereTheClassLeftOff) {
  EXPECT_EQ(state().controls.lesson_id, "matmul");
  EXPECT_EQ(state().classroom.theme, classroom::Theme::kHighContrast);
  EXPECT_EQ(state().classroom.presenter_scale, 3.0f);
  EXPECT_TRUE(state().trace.valid) << state().trace.error;
}

class ClassroomUnknownLessonTest : public ClassroomTest {
 protected:
  void SetUp() override {
    settings_.last_lesson = "lesson-from-a-newer-version";
    ClassroomTest::SetUp();
  }
};

TEST_F(ClassroomUnknownLessonTest, FallsBackToTheFirstLesson) {
  EXPECT_EQ(state().controls.lesson_id, "vector-add");
}

}  // namespace
}  // namespace tl::ui
