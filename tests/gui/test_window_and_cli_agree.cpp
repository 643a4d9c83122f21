// The window and the command line launch through one session (interop/launch_session.hpp): the
// same configuration gives the same report through both, field by field — what ran, the counts the
// picture and `run --trace` give (never written, written twice, idle threads), the check and the
// timing rows.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "app_controller.hpp"
#include "cli/launch_request.hpp"
#include "controller_test_support.hpp"
#include "headless_ui.hpp"

namespace tl::ui {
namespace {

struct Case {
  std::string lesson;
  lessons::ParamValues values;
};

class WindowAndCli : public ::testing::TestWithParam<Case> {};

TEST_P(WindowAndCli, GiveTheSameReportForTheSameConfiguration) {
  const Case& c = GetParam();
  auto ui = HeadlessUi::create(800, 600, 1.0f);
  ASSERT_TRUE(ui.is_ok()) << ui.message();
  auto controller = AppController::create(
      test_support::emulator_options((*ui)->renderer(), "threadlab_window_and_cli"));
  ASSERT_TRUE(controller.is_ok()) << controller.message();
  AppController& app = **controller;
  test_support::wait_until_idle(app);
  app.select_lesson(c.lesson);
  test_support::wait_until_idle(app);
  ASSERT_TRUE(app.set_params(c.values));
  app.launch();
  test_support::wait_until_idle(app);
  const AppState& window = app.state();
  ASSERT_TRUE(window.trace.valid) << window.trace.error;
  ASSERT_TRUE(window.timed.report.has_value()) << window.timed.error;

  cli::LaunchOptions options;
  options.lesson = c.lesson;
  options.params = {c.values.begin(), c.values.end()};
  options.backend = "emulator";
  std::ostringstream notes;
  auto session = cli::open_launch(options, nullptr, notes);
  ASSERT_TRUE(session.is_ok()) << session.message();
  auto traced = (*session)->trace();
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  auto report = (*session)->time(*(*session)->lesson());
  ASSERT_TRUE(report.is_ok()) << report.message();

  // What ran and what the picture counts.
  EXPECT_EQ(window.controls.values, (*session)->lesson()->values());
  EXPECT_EQ(window.trace.shape, traced->launch.shape);
  EXPECT_EQ(window.trace.config, traced->launch.config);
  EXPECT_EQ(window.trace.unwritten, traced->counts.unwritten);
  EXPECT_EQ(window.trace.written_more, traced->counts.written_more);
  EXPECT_EQ(window.trace.idle_threads, traced->counts.idle_threads);
  ASSERT_EQ(window.trace.check.has_value(), traced->launch.check.has_value());
  if (window.trace.check) {
    EXPECT_EQ(window.trace.check->passed, traced->launch.check->passed);
    EXPECT_EQ(window.trace.check->description, traced->launch.check->description);
  }
  // The timed report: the same rows, in the same order, and the same check.
  const compute::LessonReport& timed = *window.timed.report;
  ASSERT_EQ(timed.rows.size(), report->rows.size());
  for (std::size_t i = 0; i < timed.rows.size(); ++i) {
    EXPECT_EQ(timed.rows[i].name, report->rows[i].name);
    EXPECT_EQ(timed.rows[i].bytes, report->rows[i].bytes) << timed.rows[i].name;
    EXPECT_EQ(timed.rows[i].flops, report->rows[i].flops) << timed.rows[i].name;
    EXPECT_EQ(timed.rows[i].on_device, report->rows[i].on_device) << timed.rows[i].name;
  }
  ASSERT_EQ(timed.check.has_value(), report->check.has_value());
  if (timed.check) {
    EXPECT_EQ(timed.check->passed, report->check->passed);
    EXPECT_EQ(timed.check->description, report->check->description);
  }
  // The notes quote the timings measured, which differ run to run: as many, not the same words.
  EXPECT_EQ(timed.notes.size(), report->notes.size());
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, WindowAndCli,
    ::testing::Values(
        // Idle threads: 4 blocks of 256 over 1000 elements.
        Case{"vector-add", {{"n", "1000"}, {"block", "256"}}},
        // A grid too small: elements never written, the check fails the same way.
        Case{"vector-add", {{"n", "1000"}, {"block", "128"}, {"grid", "3"}}},
        // A grid-stride loop: idle threads are not counted by either.
        Case{"thread-hierarchy",
             {{"n", "5000"}, {"grid", "4"}, {"block", "256"}, {"grid_stride", "1"}}},
        Case{"2d-blocks", {{"rows", "40"}, {"cols", "72"}, {"mapping", "x_to_row"}}},
        Case{"matmul", {{"m", "40"}, {"n", "24"}, {"k", "16"}, {"kernel", "tiled"}}}),
    [](const ::testing::TestParamInfo<Case>& info) { return "case" + std::to_string(info.index); });

}  // namespace
}  // namespace tl::ui
