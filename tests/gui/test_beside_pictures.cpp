// The lesson's own picture drawn beside the mapping view, whatever results tab is open: the dense
// layer once a timed run made its picture, the thread hierarchy's grid of blocks; the other lessons
// give the mapping view the whole area. Checked on ImGui's own windows after a headless frame.

#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <string>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "headless_ui.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"
#include "ui_root.hpp"

namespace tl::ui {
namespace {

// A child window drawn in the last frame whose name is "<parent>/<name>_<id>", ImGui's naming.
const ImGuiWindow* drawn_child(const std::string& name) {
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    const std::string full = window->Name;
    if (window->Active && full.find("/" + name + "_") != std::string::npos) return window;
  }
  return nullptr;
}

class BesidePicturesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ui = HeadlessUi::create(1600, 1000, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    auto controller = AppController::create(
        test_support::emulator_options(ui_->renderer(), "threadlab_beside_test"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
  }

  // The lesson selected and launched at a small size, its timed run finished and collected.
  void launch(std::string_view lesson, const lessons::ParamValues& values) {
    select(lesson);
    ASSERT_TRUE(app_->set_params(values));
    app_->launch();
    test_support::wait_until_idle(*app_);
    ui_->draw_frame(*app_);
    ui_->draw_frame(*app_);  // child windows settle their sizes on the second frame
  }

  // The controller refuses to switch lessons while measurements run (its first launch, the one
  // that selecting a lesson starts): wait for them on both sides.
  void select(std::string_view lesson) {
    test_support::wait_until_idle(*app_);
    app_->select_lesson(std::string(lesson));
    ASSERT_EQ(app_->state().controls.lesson_id, lesson);
    test_support::wait_until_idle(*app_);
  }

  // `picture` lies right of the mapping view, at its height, and inside the window.
  static void expect_beside_mapping(const ImGuiWindow* picture) {
    const ImGuiWindow* mapping = drawn_child("mapping");
    ASSERT_NE(mapping, nullptr);
    ASSERT_NE(picture, nullptr);
    EXPECT_GE(picture->Pos.x, mapping->Pos.x + mapping->Size.x);
    EXPECT_FLOAT_EQ(picture->Pos.y, mapping->Pos.y);
    EXPECT_FLOAT_EQ(picture->Size.y, mapping->Size.y);
    EXPECT_LE(picture->Pos.x + picture->Size.x, 1600.0f);
    // A fixed share of the area, leaving the mapping view the larger part.
    EXPECT_GT(picture->Size.x, 100.0f);
    EXPECT_LT(picture->Size.x, mapping->Size.x);
  }

  std::unique_ptr<HeadlessUi> ui_;
  std::unique_ptr<AppController> app_;
};

TEST_F(BesidePicturesTest, TheDenseLayerPictureSitsBesideTheMappingView) {
  launch(lessons::kDenseLayerId, {{"batch", "1"}, {"inputs", "64"}, {"neurons", "48"}});
  ASSERT_TRUE(app_->state().lesson_picture) << "the timed run draws the layer";
  const BesidePicture beside = beside_picture(app_->state(), app_->views());
  EXPECT_EQ(beside.kind, BesidePicture::Kind::kLessonTab);
  ASSERT_NE(beside.tab, nullptr);
  EXPECT_EQ(beside.tab->id, "layer");
  // Before a timed run has drawn the layer there is nothing to put beside the mapping view.
  AppState before = app_->state();
  before.lesson_picture.reset();
  EXPECT_EQ(beside_picture(before, app_->views()).kind, BesidePicture::Kind::kNone);
  expect_beside_mapping(drawn_child("lesson_beside"));
  EXPECT_EQ(drawn_child("grid_beside"), nullptr);
}

TEST_F(BesidePicturesTest, TheThreadHierarchyGridOfBlocksSitsBesideTheMappingView) {
  launch(lessons::kThreadHierarchyId, {{"n", "1000"}});
  EXPECT_EQ(beside_picture(app_->state(), app_->views()).kind, BesidePicture::Kind::kGrid);
  expect_beside_mapping(drawn_child("grid_beside"));
  EXPECT_EQ(drawn_child("lesson_beside"), nullptr);
}

TEST_F(BesidePicturesTest, OtherLessonsGiveTheMappingViewTheWholeArea) {
  launch(lessons::kVectorAddId, {{"n", "1000"}});
  EXPECT_EQ(beside_picture(app_->state(), app_->views()).kind, BesidePicture::Kind::kNone);
  EXPECT_EQ(drawn_child("lesson_beside"), nullptr);
  EXPECT_EQ(drawn_child("grid_beside"), nullptr);
  const ImGuiWindow* mapping = drawn_child("mapping");
  ASSERT_NE(mapping, nullptr);
  EXPECT_GE(mapping->Pos.x + mapping->Size.x, 1600.0f - 2 * ImGui::GetStyle().WindowPadding.x);
}

}  // namespace
}  // namespace tl::ui
