// Where lesson links and demo steps go, on a fake window that records the commands: no window, no
// GL context, no device. The order of the commands is what is checked (a lesson link switches
// first and launches once; a sweep link draws its picture untimed and sweeps after it).

#include "action_router.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/lessons/device_placeholders.hpp"

namespace tl::ui {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Every command as one line ("launch timed", "params n=1024"), in the order the router gave them.
class RecordingTarget : public ActionTarget {
 public:
  std::vector<std::string> calls;
  std::vector<std::string> messages;
  std::string lesson = "vector-add";
  // What the fake refuses, to see what the router does next.
  std::string refused_lesson;
  bool refuse_params = false;
  std::string grid_problem;
  DeviceInfo device = lessons::example_gpu_device_info();

  void post(Severity severity, std::string text) override {
    messages.push_back(std::string(severity == Severity::kError ? "error: " : "") + text);
  }
  const DeviceInfo& action_device() const override { return device; }
  const std::string& current_lesson_id() const override { return lesson; }
  bool switch_lesson(const std::string& id) override {
    calls.push_back("switch " + id);
    if (id == lesson || id == refused_lesson) return false;
    lesson = id;
    return true;
  }
  // What the device in use would run instead (the emulator's smaller sizes), and for which lesson
  // the values were fitted.
  lessons::ParamValues fit;
  std::string fitted_for;
  void fit_link_values(lessons::ParamValues& values) override {
    fitted_for = lesson;
    for (const auto& [name, value] : fit) {
      if (values.count(name) != 0) values[name] = value;
    }
  }
  bool set_params(const lessons::ParamValues& values) override {
    std::string line = "params";
    for (const auto& [name, value] : values) line += " " + name + "=" + value;
    calls.push_back(line);
    return !refuse_params;
  }
  void set_color_by(ColorBy mode) override {
    calls.push_back("color " + std::string(to_string(mode)));
  }
  void set_plot_quantity(plot::PlotQuantity) override { calls.push_back("plot quantity"); }
  void show_results(ResultsTab tab) override {
    calls.push_back("results tab " + std::to_string(static_cast<int>(tab)));
  }
  void show_lesson_tab(std::string_view id) override {
    calls.push_back("lesson tab " + std::string(id));
  }
  void show_workspace(Workspace workspace) override {
    calls.push_back(workspace == Workspace::kLab ? "workspace lab" : "workspace lesson");
  }
  bool has_lesson_tab(std::string_view id) const override { return id == "reads"; }
  void launch(bool timed) override { calls.push_back(timed ? "launch timed" : "launch untimed"); }
  void pick_element(std::uint64_t row, std::uint64_t col) override {
    calls.push_back("pick " + std::to_string(row) + "," + std::to_string(col));
  }
  void sweep_after_picture(SweepKind kind) override {
    calls.push_back(kind == SweepKind::kBlock ? "sweep blocks" : "sweep sizes");
  }
  bool open_exercise(const std::string& id) override {
    calls.push_back("exercise " + id);
    return id == "vector-add";
  }
  Status load_submission(const std::string& name) override {
    calls.push_back("submission " + name);
    return Status::ok();
  }
  std::string set_lab_grid(const std::string& text) override {
    calls.push_back("lab grid '" + text + "'");
    return grid_problem;
  }
  bool run_in_lab() override {
    calls.push_back("lab run");
    return true;
  }
  bool check_in_lab() override {
    calls.push_back("lab check");
    return false;  // as if a check were running already
  }
};

std::string tab_call(ResultsTab tab) {
  return "results tab " + std::to_string(static_cast<int>(tab));
}

TEST(ActionRouter, ALinkSetsTheValuesThenLaunchesTimed) {
  RecordingTarget target;
  ActionRouter router(target);
  EXPECT_TRUE(router.follow_link("threadlab:set?n=1024&block=128&launch"));
  EXPECT_THAT(target.calls, ElementsAre("params block=128 n=1024", "launch timed"));
  EXPECT_THAT(target.messages, IsEmpty());
}

TEST(ActionRouter, ALinkToAnotherLessonSwitchesFirstAndLaunchesOnce) {
  RecordingTarget target;
  ActionRouter router(target);
  router.follow_link("threadlab:set?lesson=matmul&n=64");
  // No launch of the new lesson's defaults before the link's values: one launch, with them.
  EXPECT_THAT(target.calls, ElementsAre("switch matmul", "params n=64", "launch timed"));
}

TEST(ActionRouter, ALinksValuesAreFittedToTheDeviceForTheLessonItNames) {
  RecordingTarget target;
  target.fit = {{"n", "192"}};
  ActionRouter router(target);
  router.follow_link("threadlab:set?lesson=matmul&n=4096&k=64&launch");
  // Fitted after the switch, for the lesson the link is for; what the device runs is what is set.
  EXPECT_EQ(target.fitted_for, "matmul");
  EXPECT_THAT(target.calls, ElementsAre("switch matmul", "params k=64 n=192", "launch timed"));
}

TEST(ActionRouter, RefusedValuesStillGiveTheNewLessonItsFirstPicture) {
  RecordingTarget target;
  target.refuse_params = true;
  ActionRouter router(target);
  router.follow_link("threadlab:set?lesson=matmul&n=64&color=warp");
  EXPECT_THAT(target.calls, ElementsAre("switch matmul", "params n=64", "launch timed"));
  // In the lesson open already, refused values launch nothing (the target said why).
  target.calls.clear();
  router.follow_link("threadlab:set?n=3&launch");
  EXPECT_THAT(target.calls, ElementsAre("params n=3"));
}

TEST(ActionRouter, ALessonThatCannotBeOpenedEndsTheLink) {
  RecordingTarget target;
  target.refused_lesson = "matmul";
  ActionRouter router(target);
  router.follow_link("threadlab:set?lesson=matmul&n=64&launch");
  EXPECT_THAT(target.calls, ElementsAre("switch matmul"));
}

TEST(ActionRouter, ASweepLinkDrawsItsPictureUntimedThenSweeps) {
  RecordingTarget target;
  ActionRouter router(target);
  router.follow_link("threadlab:set?n=2^20&sweep");
  // The picture's timed run would keep the runner busy and refuse the sweep: untimed.
  EXPECT_THAT(target.calls, ElementsAre("params n=2^20", "launch untimed",
                                        tab_call(ResultsTab::kTiming), "sweep sizes"));
  // Without new values nothing is redrawn; sweep=block sweeps block sizes.
  target.calls.clear();
  router.follow_link("threadlab:set?sweep=block");
  EXPECT_THAT(target.calls, ElementsAre(tab_call(ResultsTab::kTiming), "sweep blocks"));
}

TEST(ActionRouter, ASweepLinkThatNamesAViewShowsThatViewInstead) {
  RecordingTarget target;
  ActionRouter router(target);
  router.follow_link("threadlab:set?sweep&view=roofline");
  EXPECT_THAT(target.calls, ElementsAre(tab_call(ResultsTab::kRoofline), "sweep sizes"));
}

TEST(ActionRouter, DevicePlaceholdersAreFilledForTheDeviceInUse) {
  RecordingTarget target;  // an H100: 132 SMs
  ActionRouter router(target);
  router.follow_link("threadlab:set?grid={{device.sm_count*2}}&launch");
  EXPECT_THAT(target.calls, ElementsAre("params grid=264", "launch timed"));
}

TEST(ActionRouter, WhatDoesNotParseIsReportedAndNothingIsDone) {
  RecordingTarget target;
  ActionRouter router(target);
  EXPECT_FALSE(router.follow_link("threadlab:frobnicate"));
  EXPECT_THAT(target.calls, IsEmpty());
  ASSERT_EQ(target.messages.size(), 1u);
  EXPECT_THAT(target.messages[0], HasSubstr("error: "));
  // A bad colour, plot or pick is a warning; the rest of the link still applies.
  target.messages.clear();
  router.follow_link("threadlab:set?color=purple&pick=nine&launch");
  EXPECT_THAT(target.calls, ElementsAre("launch timed"));
  ASSERT_EQ(target.messages.size(), 2u);
  EXPECT_THAT(target.messages[1], HasSubstr("pick=nine: expected row,col"));
}

TEST(ActionRouter, APickFollowsTheLaunchItNames) {
  RecordingTarget target;
  ActionRouter router(target);
  router.follow_link("threadlab:set?pick=17,9&launch&color=warp");
  EXPECT_THAT(target.calls, ElementsAre("color warp", "launch timed", "pick 17,9"));
}

TEST(ActionRouter, ViewsByNameAreTheWorkspacesTheLessonsTabsAndTheResultsTabs) {
  RecordingTarget target;
  ActionRouter router(target);
  EXPECT_TRUE(router.show_view("lab").is_ok());
  EXPECT_TRUE(router.show_view("lesson").is_ok());
  EXPECT_TRUE(router.show_view("reads").is_ok());
  EXPECT_TRUE(router.show_view("occupancy").is_ok());
  EXPECT_TRUE(router.show_view("memory").is_ok());
  EXPECT_THAT(target.calls,
              ElementsAre("workspace lab", "workspace lesson", "lesson tab reads",
                          tab_call(ResultsTab::kOccupancy), tab_call(ResultsTab::kMemory)));
  const Status unknown = router.show_view("nowhere");
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_THAT(unknown.message(), HasSubstr("unknown view 'nowhere'"));
  // In a link, an unknown view is a warning and the rest goes on.
  target.calls.clear();
  router.follow_link("threadlab:set?view=nowhere&launch");
  EXPECT_THAT(target.calls, ElementsAre("launch timed"));
  EXPECT_THAT(target.messages.back(), HasSubstr("unknown view 'nowhere'"));
}

TEST(ActionRouter, LabLinksOpenTheLabAndSayWhatItRefused) {
  RecordingTarget target;
  target.grid_problem = "not a grid";
  ActionRouter router(target);
  router.follow_link("threadlab:set?exercise=vector-add&lab_grid=auto&check");
  EXPECT_THAT(target.calls, ElementsAre("exercise vector-add", "workspace lab", "workspace lab",
                                        "lab grid ''", "workspace lab", "lab check"));
  EXPECT_THAT(target.messages,
              ElementsAre("lab_grid=auto: not a grid", "The Lab is checking already."));
  // An exercise that does not exist leaves the window where it is.
  target.calls.clear();
  target.messages.clear();
  router.follow_link("threadlab:set?exercise=nope");
  EXPECT_THAT(target.calls, ElementsAre("exercise nope"));
  EXPECT_THAT(target.messages, ElementsAre("exercise=nope: no such exercise"));
}

// A demo step is an action already parsed: it goes the same way as its link.
TEST(ActionRouter, ADemoStepGoesTheWayOfItsLink) {
  RecordingTarget by_link;
  RecordingTarget by_step;
  ActionRouter(by_link).follow_link("threadlab:set?lesson=matmul&n=64&sweep");
  auto step = lessons::parse_lesson_action("threadlab:set?lesson=matmul&n=64&sweep");
  ASSERT_TRUE(step.is_ok());
  ActionRouter(by_step).apply(*step);
  EXPECT_EQ(by_step.calls, by_link.calls);
  EXPECT_THAT(by_step.calls, ElementsAre("switch matmul", "params n=64", "launch untimed",
                                         tab_call(ResultsTab::kTiming), "sweep sizes"));
}

}  // namespace
}  // namespace tl::ui
