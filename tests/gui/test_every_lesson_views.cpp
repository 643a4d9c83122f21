// Every registered lesson opens, launches and draws in the headless UI, and each of its own tabs
// (lesson_views.hpp) can be brought to the front and drawn: registering a lesson and its views is
// enough for them to be tested here.

#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "app_controller.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "controller_test_support.hpp"
#include "headless_ui.hpp"
#include "lesson_views.hpp"

namespace tl::ui {
namespace {

// The selected tab of the results tab bar in the last frame, by its label ("" when none). The
// window's workspace bar (Lesson | Kernel Lab) is another tab bar: it is the one with "Lesson".
std::string selected_results_tab() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int i = 0; i < g.TabBars.GetMapSize(); ++i) {
    ImGuiTabBar* bar = g.TabBars.TryGetMapData(i);
    if (bar == nullptr || bar->Tabs.Size == 0) continue;
    const bool workspace_bar = std::any_of(bar->Tabs.begin(), bar->Tabs.end(), [&](const auto& t) {
      return t.NameOffset >= 0 && std::string(bar->TabsNames.Buf.Data + t.NameOffset) == "Lesson";
    });
    if (workspace_bar) continue;
    for (const ImGuiTabItem& tab : bar->Tabs) {
      if (tab.ID != bar->SelectedTabId || tab.NameOffset < 0) continue;
      return std::string(bar->TabsNames.Buf.Data + tab.NameOffset);
    }
  }
  return {};
}

// The characters the last frame drew, read back from its draw lists: each glyph is a textured
// quad whose corners carry the glyph's atlas coordinates, so matching those against every loaded
// font's glyphs spells out what is on screen (spaces, which draw nothing, left out). The test reads
// what a user sees, not the state behind it.
std::string glyphs_drawn_last_frame() {
  struct Glyph {
    float u1 = 0;
    float v1 = 0;
    unsigned codepoint = 0;
  };
  std::map<std::pair<float, float>, Glyph> by_corner;
  for (const ImFont* font : ImGui::GetIO().Fonts->Fonts) {
    for (const ImFontGlyph& glyph : font->Glyphs) {
      if (glyph.Visible) by_corner[{glyph.U0, glyph.V0}] = {glyph.U1, glyph.V1, glyph.Codepoint};
    }
  }
  std::string drawn;
  const ImDrawData* data = ImGui::GetDrawData();
  for (int list = 0; data != nullptr && list < data->CmdListsCount; ++list) {
    const ImVector<ImDrawVert>& vertices = data->CmdLists[list]->VtxBuffer;
    for (int i = 0; i + 2 < vertices.Size; ++i) {
      const auto found = by_corner.find({vertices[i].uv.x, vertices[i].uv.y});
      if (found == by_corner.end()) continue;
      const Glyph& glyph = found->second;
      if (vertices[i + 2].uv.x != glyph.u1 || vertices[i + 2].uv.y != glyph.v1) continue;
      drawn += glyph.codepoint < 128 ? static_cast<char>(glyph.codepoint) : '?';
      i += 3;
    }
  }
  return drawn;
}

// `text` as glyphs_drawn_last_frame() finds it: without its spaces.
std::string without_spaces(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
  return text;
}

class EveryLessonViews : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto ui = HeadlessUi::create(1600, 1000, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    auto controller = AppController::create(
        test_support::emulator_options(ui_->renderer(), "threadlab_every_lesson_views"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
    test_support::wait_until_idle(*app_);
  }
  std::unique_ptr<HeadlessUi> ui_;
  std::unique_ptr<AppController> app_;
};

TEST_P(EveryLessonViews, OpensLaunchesAndDrawsEachOfItsTabs) {
  app_->select_lesson(GetParam());
  ASSERT_EQ(app_->state().controls.lesson_id, GetParam());
  test_support::wait_until_idle(*app_);
  ui_->draw_frame(*app_);
  const AppState& state = app_->state();
  EXPECT_TRUE(state.trace.valid) << state.trace.error;
  ASSERT_TRUE(state.timed.report.has_value()) << state.timed.error;
  EXPECT_TRUE(state.lesson.error.empty()) << state.lesson.error;
  for (const Message& message : state.messages) {
    EXPECT_NE(message.severity, Severity::kError) << message.text;
  }
  const LessonViews& views = app_->views();
  for (const LessonTab& tab : views.tabs) {
    ASSERT_NE(tab.draw, nullptr) << tab.id;
    EXPECT_FALSE(tab.label.empty());
    app_->show_lesson_tab(tab.id);
    ui_->draw_frame(*app_);
    ui_->draw_frame(*app_);
    EXPECT_EQ(selected_results_tab(), std::string(tab.label)) << tab.id;
    // A link's view=<id> reaches it too.
    EXPECT_TRUE(app_->show_view(std::string(tab.id)).is_ok());
  }
  if (!views.opens_on.empty()) {
    const bool known = std::any_of(views.tabs.begin(), views.tabs.end(),
                                   [&](const LessonTab& t) { return t.id == views.opens_on; });
    EXPECT_TRUE(known) << "opens on a tab it does not have: " << views.opens_on;
  }
  if (!views.beside.empty() && views.beside != kGridOfBlocks) {
    const bool known = std::any_of(views.tabs.begin(), views.tabs.end(),
                                   [&](const LessonTab& t) { return t.id == views.beside; });
    EXPECT_TRUE(known) << "puts beside the mapping view a tab it does not have: " << views.beside;
  }
}

// On the emulator the Occupancy tab draws its figures as a model of a named GPU, and says so.
TEST(OccupancyTab, OnTheEmulatorShowsTheModelOfTheChosenGpu) {
  auto ui = HeadlessUi::create(1600, 1000, 1.0f);
  ASSERT_TRUE(ui.is_ok()) << ui.message();
  auto app = AppController::create(
      test_support::emulator_options((*ui)->renderer(), "threadlab_occupancy_tab"));
  ASSERT_TRUE(app.is_ok()) << app.message();
  test_support::wait_until_idle(**app);
  // The tab comes to the front in the frame after it is asked for (and a launch finishing in
  // between may bring the timings forward again): ask until it is the one drawn.
  for (int frame = 0; frame < 5 && selected_results_tab() != "Occupancy"; ++frame) {
    ASSERT_TRUE((*app)->show_view("occupancy").is_ok());
    (*ui)->draw_frame(**app);
    (*ui)->draw_frame(**app);
  }
  ASSERT_EQ(selected_results_tab(), "Occupancy");
  std::string drawn = glyphs_drawn_last_frame();
  EXPECT_NE(drawn.find(without_spaces("a model of H100 SXM, not measured")), std::string::npos)
      << drawn;
  EXPECT_NE(drawn.find(without_spaces("warp slots = ")), std::string::npos) << drawn;
  EXPECT_NE(drawn.find(without_spaces("assumed 32 registers per thread")), std::string::npos)
      << drawn;
  (*app)->set_occupancy_model({"RTX 4090", 32, 0});
  (*ui)->draw_frame(**app);
  drawn = glyphs_drawn_last_frame();
  EXPECT_NE(drawn.find(without_spaces("a model of RTX 4090, not measured")), std::string::npos)
      << drawn;
  EXPECT_EQ(drawn.find(without_spaces("a model of H100 SXM")), std::string::npos) << drawn;
}

// Lesson 7's Streams tab with a kernel on the legacy default stream: the kernel has a lane of its
// own, labelled, and the tab says (from the timeline it draws) that it stood as a barrier, which
// the emulator's model makes it between blocking streams.
TEST(MovingDataStreamsTab, DrawsTheDefaultStreamKernelInALaneOfItsOwn) {
  auto ui = HeadlessUi::create(1600, 1000, 1.0f);
  ASSERT_TRUE(ui.is_ok()) << ui.message();
  auto app = AppController::create(
      test_support::emulator_options((*ui)->renderer(), "threadlab_moving_data_streams"));
  ASSERT_TRUE(app.is_ok()) << app.message();
  test_support::wait_until_idle(**app);
  (*app)->select_lesson("moving-data");
  test_support::wait_until_idle(**app);
  ASSERT_TRUE((*app)->set_params({{"schedule", "legacy-default"}, {"work", "2"}}));
  (*app)->launch();
  test_support::wait_until_idle(**app);
  (*ui)->draw_frame(**app);
  ASSERT_TRUE((*app)->state().timed.report.has_value()) << (*app)->state().timed.error;
  for (int frame = 0; frame < 5 && selected_results_tab() != "Streams"; ++frame) {
    ASSERT_TRUE((*app)->show_view("streams").is_ok());
    (*ui)->draw_frame(**app);
    (*ui)->draw_frame(**app);
  }
  ASSERT_EQ(selected_results_tab(), "Streams");
  const std::string drawn = glyphs_drawn_last_frame();
  EXPECT_NE(drawn.find(without_spaces("legacy default stream")), std::string::npos) << drawn;
  EXPECT_NE(drawn.find(without_spaces("schedule: legacy-default")), std::string::npos) << drawn;
  EXPECT_NE(drawn.find(without_spaces("default-stream kernel (its own lane, outlined)")),
            std::string::npos)
      << drawn;
  EXPECT_NE(drawn.find(without_spaces("a barrier: everything issued before it had ended")),
            std::string::npos)
      << drawn;
}

// `text` as glyphs_drawn_last_frame() spells it: no spaces, every non-ASCII character a '?'.
std::string as_drawn(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == ' ') continue;
    if (byte < 0x80) {
      out += text[i];
    } else if ((byte & 0xC0) != 0x80) {
      out += '?';  // the lead byte of a UTF-8 sequence; its continuation bytes are skipped
    }
  }
  return out;
}

// On the emulator, after a launch, the Roofline tab draws each timed kernel of the lesson as a
// point labelled with its share of its own ceiling, against this CPU's memcpy, and says so.
TEST(RooflineTab, OnTheEmulatorDrawsTheLaunchedKernelsWithTheirShares) {
  auto ui = HeadlessUi::create(1600, 1000, 1.0f);
  ASSERT_TRUE(ui.is_ok()) << ui.message();
  auto app = AppController::create(
      test_support::emulator_options((*ui)->renderer(), "threadlab_roofline_tab"));
  ASSERT_TRUE(app.is_ok()) << app.message();
  test_support::wait_until_idle(**app);
  for (const char* lesson : {"vector-add", "matmul"}) {
    SCOPED_TRACE(lesson);
    (*app)->select_lesson(lesson);
    test_support::wait_until_idle(**app);
    (*ui)->draw_frame(**app);
    const AppState& state = (*app)->state();
    ASSERT_TRUE(state.timed.report.has_value()) << state.timed.error;
    ASSERT_TRUE(state.ceilings.has_value());
    for (int frame = 0; frame < 5 && selected_results_tab() != "Roofline"; ++frame) {
      ASSERT_TRUE((*app)->show_view("roofline").is_ok());
      (*ui)->draw_frame(**app);
      (*ui)->draw_frame(**app);
    }
    ASSERT_EQ(selected_results_tab(), "Roofline");
    const plot::Roofline& roofline = state.roofline.roofline;
    EXPECT_TRUE(state.roofline.emulator);
    ASSERT_FALSE(roofline.points.empty()) << roofline.empty_reason;
    ASSERT_FALSE(roofline.lines.empty());
    EXPECT_TRUE(roofline.lines[0].memory);
    EXPECT_NE(roofline.lines[0].label.find("host memcpy (emulator)"), std::string::npos);
    const std::string drawn = glyphs_drawn_last_frame();
    EXPECT_NE(drawn.find(without_spaces("Emulator: CPU times against this CPU's memcpy")),
              std::string::npos)
        << drawn;
    EXPECT_NE(drawn.find(without_spaces("FLOP per byte moved")), std::string::npos) << drawn;
    // Every point's label is on screen. The vector add is memory bound: each label carries its
    // share of the memcpy. The emulator has no FP32 ceiling (no cuBLAS), so the matrix product's
    // points have none, and the tab's list of what is not plotted says why.
    for (const plot::RooflinePoint& point : roofline.points) {
      EXPECT_NE(drawn.find(as_drawn(point.label)), std::string::npos)
          << point.label << " in " << drawn;
      EXPECT_EQ(point.label.find('%') != std::string::npos, std::string(lesson) == "vector-add")
          << point.label;
    }
    if (std::string(lesson) == "matmul") {
      const bool says_why = std::any_of(
          roofline.left_out.begin(), roofline.left_out.end(),
          [](const std::string& line) { return line.find("No FP32 roof") != std::string::npos; });
      EXPECT_TRUE(says_why);
    }
    // The view as drawn, for the record (a test artifact; nothing is compared against it), a frame
    // later: the results panel takes its room the frame after a tab other than the timings opens.
    (*ui)->draw_frame(**app);
    const std::string png = ::testing::TempDir() + "threadlab_roofline_" + lesson + ".png";
    EXPECT_TRUE((*ui)->save_png(png).is_ok()) << png;
  }
}

std::vector<std::string> registered_ids() {
  std::vector<std::string> ids;
  for (const compute::LessonModule* module : compute::registered_lessons()) {
    ids.emplace_back(module->info.id);
  }
  return ids;
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryLessonViews, ::testing::ValuesIn(registered_ids()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace tl::ui
