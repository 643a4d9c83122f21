// Two windows' controllers in one class on loopback (headless OpenGL, the emulator): the presenter
// hosts, the student joins, and the student's window follows the presenter's lesson, guided step,
// parameters and view through the lesson-action path; stepping away leaves it alone, rejoining
// catches up; the presenter's server counts the follower. Bounded waits, no timing assertions.

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <future>
#include <thread>

#include "../cli/cli_process.hpp"
#include "app_controller.hpp"
#include "class_session.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "controller_test_support.hpp"
#include "core/classroom/demo_script.hpp"
#include "headless_ui.hpp"
#include "lab/lab_check.hpp"
#include "platform/egl_context.hpp"

namespace tl::ui {
namespace {

using namespace std::chrono_literals;

std::string describe(const lessons::ParamValues& values) {
  std::string text;
  for (const auto& [name, value] : values) text += name + "=" + value + " ";
  return text;
}

std::string all_messages(const AppController& app) {
  std::string text;
  for (const auto& message : app.state().messages) text += "\n  " + message.text;
  return text;
}

class ClassSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto gl = platform::EglContext::create({});
    ASSERT_TRUE(gl.is_ok()) << gl.message();
    gl_ = std::move(*gl);
    auto presenter = AppController::create(
        test_support::emulator_options(gl_->renderer(), "threadlab_class_presenter"));
    ASSERT_TRUE(presenter.is_ok()) << presenter.message();
    presenter_ = std::move(*presenter);
    auto student = AppController::create(
        test_support::emulator_options(gl_->renderer(), "threadlab_class_student"));
    ASSERT_TRUE(student.is_ok()) << student.message();
    student_ = std::move(*student);
    test_support::wait_until_idle(*presenter_);
    test_support::wait_until_idle(*student_);

    net::ClassServerOptions server;
    server.bind = "127.0.0.1";
    server.code = "K7QM2X";
    server.poll_wait = 2s;
    auto host = ClassSession::host(server);
    ASSERT_TRUE(host) << host.message();
    host_ = std::move(*host);
    net::ClassClientOptions client;
    client.address = {"127.0.0.1", host_->server()->port(), "K7QM2X"};
    client.name = "Ada";
    client.wait = 1s;
    client.retry_min = 20ms;
    joined_ = ClassSession::join(client);
  }

  // Frames of both windows until `condition` holds (60 s at most, the emulator's launches
  // included); false when it never did.
  bool frames_until(const std::function<bool()>& condition) {
    auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!condition()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      host_->update(*presenter_);
      joined_->update(*student_);
      presenter_->update();
      student_->update();
      std::this_thread::sleep_for(5ms);
    }
    return true;
  }

  std::unique_ptr<platform::EglContext> gl_;
  std::unique_ptr<AppController> presenter_;
  std::unique_ptr<AppController> student_;
  std::unique_ptr<ClassSession> host_;
  std::unique_ptr<ClassSession> joined_;
};

TEST_F(ClassSessionTest, TheStudentsWindowFollowsLessonStepAndParameters) {
  ASSERT_TRUE(frames_until([&] { return host_->server()->followers() == 1; }));
  const auto lessons = compute::registered_lessons();
  ASSERT_GE(lessons.size(), 2u);
  const std::string second(lessons[1]->info.id);

  presenter_->select_lesson(second);
  test_support::wait_until_idle(*presenter_);
  ASSERT_EQ(presenter_->state().controls.lesson_id, second);
  ASSERT_GE(presenter_->state().classroom.steps.size(), 2u);
  presenter_->go_to_step(1);
  test_support::wait_until_idle(*presenter_);
  ASSERT_TRUE(frames_until([&] {
    return student_->state().controls.lesson_id == second &&
           student_->state().classroom.cursor.current() == std::optional<std::size_t>(1);
  })) << "the student's window is on "
      << student_->state().controls.lesson_id;
  EXPECT_EQ(student_->current_lesson().values(), presenter_->current_lesson().values());
  EXPECT_EQ(view_name(student_->state().view), view_name(presenter_->state().view));

  // Stepping away: the presenter moves on, the student's window stays where it is.
  joined_->set_following(false);
  const std::string first(lessons[0]->info.id);
  presenter_->select_lesson(first);
  test_support::wait_until_idle(*presenter_);
  ASSERT_TRUE(frames_until([&] { return host_->server()->followers() == 0; }));
  EXPECT_EQ(student_->state().controls.lesson_id, second);

  // Rejoining catches up in one click.
  joined_->set_following(true);
  ASSERT_TRUE(frames_until([&] { return student_->state().controls.lesson_id == first; }));
  EXPECT_EQ(student_->current_lesson().values(), presenter_->current_lesson().values());
  ASSERT_TRUE(frames_until([&] { return host_->server()->followers() == 1; }));
  EXPECT_NE(host_->status_line().find("1 following"), std::string::npos) << host_->status_line();
}

TEST_F(ClassSessionTest, TheStudentsWindowFollowsADemoScriptStepByStep) {
  ASSERT_TRUE(frames_until([&] { return host_->server()->followers() == 1; }));
  auto script = classroom::parse_demo_script(R"(
title = "class"
[[step]]
caption = "first"
lesson = "matmul"
set = { m = 40, n = 48, k = 36, kernel = "tiled", tile = 8 }
launch = true
[[step]]
caption = "second"
lesson = "2d-blocks"
set = { rows = 64, cols = 64, block = [32, 8] }
launch = true
)",
                                             "class.toml");
  ASSERT_TRUE(script.is_ok()) << script.message();
  presenter_->start_demo(*script, /*timed_advance=*/false);
  for (std::size_t step = 0; step < 2; ++step) {
    SCOPED_TRACE("demo step " + std::to_string(step + 1));
    if (step > 0) presenter_->play_demo_step(step);
    test_support::wait_until_idle(*presenter_);
    const std::string lesson = presenter_->state().controls.lesson_id;
    ASSERT_TRUE(frames_until([&] {
      return student_->state().controls.lesson_id == lesson &&
             student_->current_lesson().values() == presenter_->current_lesson().values();
    })) << "the student's window is on "
        << student_->state().controls.lesson_id << " with "
        << describe(student_->current_lesson().values()) << "; the presenter's on " << lesson
        << " with " << describe(presenter_->current_lesson().values()) << "; the student's last "
        << "message: " << all_messages(*student_)
        << "\nrefused: " << joined_->client()->status().follow_refused << ", seq "
        << joined_->client()->status().seq << " of " << host_->server()->board().follow->seq << ": "
        << joined_->client()->status().message;
  }
  EXPECT_EQ(student_->state().controls.lesson_id, "2d-blocks");
}

TEST_F(ClassSessionTest, AVerdictBecomesABoardResultWithoutTheCode) {
  lab::CheckVerdict verdict;
  verdict.outcome = lab::Outcome::kFailed;
  verdict.reason = "case 3: element 7 is 0,\nexpected 14";
  verdict.kernel_ms = 0;
  auto failed = lab_result_of("vector-add", verdict);
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->outcome, net::LabOutcome::kFailed);
  EXPECT_EQ(failed->failed_check, "case 3: element 7 is 0, expected 14");
  verdict.outcome = lab::Outcome::kPassed;
  verdict.kernel_ms = 0.5;
  verdict.solution_ms = 0.4;
  auto passed = lab_result_of("vector-add", verdict);
  ASSERT_TRUE(passed);
  EXPECT_EQ(passed->failed_check, "");
  EXPECT_DOUBLE_EQ(passed->kernel_ms, 0.5);
  EXPECT_DOUBLE_EQ(passed->reference_ms, 0.4);
  verdict.run_only = true;  // a Run is not a check: nothing for the board
  EXPECT_FALSE(lab_result_of("vector-add", verdict));

  // Posted through the student's session, it reaches the presenter's board.
  joined_->client()->post_result(*passed);
  ASSERT_TRUE(frames_until([&] {
    auto board = host_->server()->board();
    return !board.students.empty() && board.students.begin()->second.results.contains("vector-add");
  }));
  EXPECT_EQ(host_->server()->board().students.begin()->second.name, "Ada");
}

// A slider dragged: the values change every frame, and the presenter publishes at most once per
// kMinPublishInterval (the session's clock held still here), then the newest value; the student
// ends on it. Fewer states reach the followers, so their polls stay under the rate limit.
TEST_F(ClassSessionTest, ADraggedSliderIsPublishedAtAPaceAndItsLastValueArrives) {
  ASSERT_TRUE(frames_until([&] { return host_->server()->followers() == 1; }));
  ASSERT_EQ(presenter_->state().controls.lesson_id, "vector-add");
  auto clock = std::chrono::steady_clock::now() + std::chrono::hours(1);
  host_->set_clock([&] { return clock; });
  host_->update(*presenter_);  // whatever the window shows now is published
  const std::uint64_t before = host_->server()->board().follow->seq;
  for (int frame = 0; frame < 30; ++frame) {
    presenter_->set_param("n", std::to_string(2000 + frame));
    host_->update(*presenter_);
  }
  EXPECT_EQ(host_->server()->board().follow->seq, before + 1) << "each frame's value was published";
  EXPECT_EQ(host_->server()->board().follow->values.at("n"), "2000");
  EXPECT_TRUE(host_->publish_pending());
  clock += ClassSession::kMinPublishInterval;
  host_->update(*presenter_);
  EXPECT_FALSE(host_->publish_pending());
  EXPECT_EQ(host_->server()->board().follow->seq, before + 2);
  ASSERT_TRUE(frames_until([&] { return student_->current_lesson().values().at("n") == "2029"; }))
      << "the student's n is " << student_->current_lesson().values().at("n");
  EXPECT_EQ(joined_->client()->status().reconnects, 0u) << joined_->client()->status().message;
}

// "Share with the teacher": until the student presses it, the board has the student's results and
// none of their code; pressed, the Lab's own source for the open exercise reaches the board.
TEST_F(ClassSessionTest, TheStudentsCodeReachesTheTeacherOnlyWhenShared) {
  ASSERT_TRUE(frames_until([&] { return host_->server()->followers() == 1; }));
  student_->lab().select_exercise("vector-add", /*remember=*/false);
  ASSERT_EQ(student_->lab().state().current, "vector-add");
  lab::CheckVerdict verdict;
  verdict.outcome = lab::Outcome::kFailed;
  verdict.reason = "case 1: element 0 is 0, expected 1";
  joined_->client()->post_result(*lab_result_of("vector-add", verdict));
  ASSERT_TRUE(frames_until([&] { return joined_->client()->status().results_sent == 1; }));
  for (const auto& [id, student] : host_->server()->board().students)
    EXPECT_TRUE(student.shared.empty()) << "code on the board before the student shared it";

  ASSERT_TRUE(joined_->share_lab_code(*student_));
  ASSERT_TRUE(frames_until([&] {
    const net::Board board = host_->server()->board();
    return !board.students.empty() && board.students.begin()->second.shared.contains("vector-add");
  }));
  const net::SharedCode shared =
      host_->server()->board().students.begin()->second.shared.at("vector-add");
  EXPECT_EQ(shared.code, student_->lab().source());
  EXPECT_FALSE(shared.code.empty());
  EXPECT_EQ(shared.name, "Ada");
  ASSERT_TRUE(frames_until([&] {
    return all_messages(*student_).find("The teacher has your code for vector-add.") !=
           std::string::npos;
  })) << all_messages(*student_);
  // The presenter has nobody to share with.
  EXPECT_FALSE(host_->share_lab_code(*presenter_));
}

}  // namespace
}  // namespace tl::ui

namespace tl::ui {
namespace {

// The same class held by the controllers themselves, as the Class menu and --join/--host-class
// do: each controller's own update() (once a frame) runs its session.
TEST(ClassFromTheController, TheControllersRunTheirOwnSessions) {
  auto gl = platform::EglContext::create({});
  ASSERT_TRUE(gl.is_ok()) << gl.message();
  auto presenter = AppController::create(
      test_support::emulator_options((*gl)->renderer(), "threadlab_class_presenter_owned"));
  ASSERT_TRUE(presenter.is_ok()) << presenter.message();
  auto student = AppController::create(
      test_support::emulator_options((*gl)->renderer(), "threadlab_class_student_owned"));
  ASSERT_TRUE(student.is_ok()) << student.message();
  test_support::wait_until_idle(**presenter);
  test_support::wait_until_idle(**student);

  net::ClassServerOptions server;
  server.bind = "127.0.0.1";
  server.port = 0;
  server.code = "K7QM2X";
  ASSERT_TRUE((*presenter)->host_class(server));
  ASSERT_NE((*presenter)->class_session(), nullptr);
  ASSERT_TRUE((*presenter)->class_session()->presenting());
  net::ClassClientOptions client;
  client.address = {"127.0.0.1", (*presenter)->class_session()->server()->port(), "K7QM2X"};
  client.name = "Ada";
  client.wait = std::chrono::seconds(1);
  (*student)->join_class(client);

  const std::string second(compute::registered_lessons()[1]->info.id);
  (*presenter)->select_lesson(second);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((*student)->state().controls.lesson_id != second &&
         std::chrono::steady_clock::now() < deadline) {
    (*presenter)->update();
    (*student)->update();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ((*student)->state().controls.lesson_id, second);
  // A change held back by the publishing pace keeps the presenter's window drawing (it would
  // otherwise wait for input and publish the last value only then).
  auto clock = std::chrono::steady_clock::now() + std::chrono::hours(1);
  (*presenter)->class_session()->set_clock([&] { return clock; });
  (*presenter)->select_lesson(std::string(compute::registered_lessons()[0]->info.id));
  test_support::wait_until_idle(**presenter);
  (*presenter)->update();  // published: the first change after a quiet time goes at once
  (*presenter)->select_lesson(second);
  test_support::wait_until_idle(**presenter);
  (*presenter)->update();  // held back
  EXPECT_TRUE((*presenter)->class_session()->publish_pending());
  EXPECT_TRUE((*presenter)->wants_frames());
  clock += ClassSession::kMinPublishInterval;
  (*presenter)->update();
  EXPECT_FALSE((*presenter)->class_session()->publish_pending());
  (*student)->leave_class();
  EXPECT_EQ((*student)->class_session(), nullptr);
  (*presenter)->leave_class();
}

}  // namespace
}  // namespace tl::ui

namespace tl::ui {
namespace {

// The real program in a real window (Xvfb): `threadlab gui --join` joins the class under its
// name, is counted as a follower while it runs, and closes cleanly.
TEST(ClassWindow, AWindowStartedWithJoinIsOnTheBoardAndFollows) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "no X display: run under xvfb-run";
  net::ClassServerOptions options;
  options.bind = "127.0.0.1";
  options.code = "K7QM2X";
  options.poll_wait = std::chrono::seconds(2);
  net::ClassServer server(options);
  ASSERT_TRUE(server.start());
  net::FollowState state;
  state.lesson = std::string(compute::registered_lessons()[1]->info.id);
  ASSERT_TRUE(server.publish(state));
  const std::string address = "127.0.0.1:" + std::to_string(server.port()) + "/K7QM2X";
  auto window = std::async(std::launch::async, [&] {
    return cli_test::run_threadlab({"gui", "--join", address, "--name", "Ada", "--backend",
                                    "emulator", "--frames", "400", "--width", "1000", "--height",
                                    "700"});
  });
  bool joined = false;
  bool counted = false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!(joined && counted) && std::chrono::steady_clock::now() < deadline &&
         window.wait_for(std::chrono::milliseconds(10)) != std::future_status::ready) {
    const net::Board board = server.board();
    for (const auto& [id, student] : board.students) joined = joined || student.name == "Ada";
    counted = counted || server.followers() == 1;
  }
  const cli_test::ProcessResult result = window.get();
  ASSERT_TRUE(result.exited) << result.describe();
  EXPECT_EQ(result.exit_code, 0) << result.describe();
  EXPECT_TRUE(joined) << "the window never joined the class\n" << result.describe();
  EXPECT_TRUE(counted) << "the server never counted the window as following\n" << result.describe();
}

}  // namespace
}  // namespace tl::ui

namespace tl::ui {
namespace {

// The tab a presenter clicks by hand, not one a link or a demo step asked for: the click goes
// through ImGui as a mouse's does, the presenter's state says which tab is open, the follow
// message carries it and the student's window brings the same tab forward.
TEST(ClassTabs, ATabThePresenterClicksByHandReachesTheFollowers) {
  auto ui = HeadlessUi::create(1600, 1000, 1.0f);
  ASSERT_TRUE(ui.is_ok()) << ui.message();
  auto presenter = AppController::create(
      test_support::emulator_options((*ui)->renderer(), "threadlab_class_tab_presenter"));
  ASSERT_TRUE(presenter.is_ok()) << presenter.message();
  auto student = AppController::create(
      test_support::emulator_options((*ui)->renderer(), "threadlab_class_tab_student"));
  ASSERT_TRUE(student.is_ok()) << student.message();
  test_support::wait_until_idle(**presenter);
  test_support::wait_until_idle(**student);

  net::ClassServerOptions server;
  server.bind = "127.0.0.1";
  server.code = "K7QM2X";
  server.poll_wait = std::chrono::seconds(2);
  auto host = ClassSession::host(server);
  ASSERT_TRUE(host) << host.message();
  net::ClassClientOptions client;
  client.address = {"127.0.0.1", (*host)->server()->port(), "K7QM2X"};
  client.name = "Ada";
  client.wait = std::chrono::seconds(1);
  client.retry_min = std::chrono::milliseconds(20);
  auto joined = ClassSession::join(client);

  auto frame = [&] {
    (*presenter)->update();
    (*student)->update();
    (*ui)->draw_frame(**presenter);
    (*host)->update(**presenter);
    joined->update(**student);
  };
  auto frames_until = [&](const std::function<bool()>& condition) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!condition()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      frame();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
  };
  ASSERT_TRUE(frames_until([&] { return (*host)->server()->followers() == 1; }));
  for (int i = 0; i < 5; ++i) frame();
  ASSERT_EQ(view_name((*presenter)->state().view), "plot") << "the window opens on its timings";

  // Where ImGui drew the "Grid of blocks" tab in the last frame.
  std::optional<ImVec2> at;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int i = 0; i < g.TabBars.GetMapSize(); ++i) {
    ImGuiTabBar* bar = g.TabBars.TryGetMapData(i);
    if (bar == nullptr) continue;
    for (const ImGuiTabItem& item : bar->Tabs) {
      if (std::string(bar->GetTabName(&item)) != "Grid of blocks") continue;
      at = ImVec2(bar->BarRect.Min.x + item.Offset - bar->ScrollingAnim + item.Width * 0.5f,
                  (bar->BarRect.Min.y + bar->BarRect.Max.y) * 0.5f);
    }
  }
  ASSERT_TRUE(at) << "no Grid of blocks tab was drawn";
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = *at;
  frame();
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  ASSERT_TRUE(frames_until([&] { return view_name((*presenter)->state().view) == "grid"; }))
      << "the click did not reach the presenter's state";
  ASSERT_TRUE(frames_until([&] { return view_name((*student)->state().view) == "grid"; }))
      << "the student's window is on " << view_name((*student)->state().view);
  EXPECT_EQ((*host)->server()->board().follow->view, "grid");
  joined.reset();
  (*host).reset();
}

}  // namespace
}  // namespace tl::ui
