// The keys a clicker and a teacher press, fed through ImGui as the GLFW backend feeds them, and the
// screenshot button's PNG of the whole window, on a headless UI with the emulator.

#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "headless_ui.hpp"
#include "keyboard_shortcuts.hpp"
#include "ui_root.hpp"

namespace tl::ui {
namespace {

// GLFW's key codes, as ImGui 1.86's GLFW backend stores them in io.KeysDown.
constexpr int kRight = 262;
constexpr int kLeft = 263;
constexpr int kPageDown = 267;
constexpr int kF5 = 294;

class KeysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ui = HeadlessUi::create(1280, 800, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    auto controller = AppController::create(
        test_support::emulator_options(ui_->renderer(), "threadlab_keys_test"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_RightArrow] = kRight;
    io.KeyMap[ImGuiKey_LeftArrow] = kLeft;
    io.KeyMap[ImGuiKey_PageDown] = kPageDown;
    settle();
  }

  void settle() {
    test_support::wait_until_idle(*app_);
    ui_->draw_frame(*app_);
  }

  // One frame with `key` down (a press), then one with it up, as a real key goes.
  void press(int key) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[key] = true;
    frame_with_shortcuts();
    io.KeysDown[key] = false;
    frame_with_shortcuts();
    settle();
  }

  void type(char character) {
    ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(character));
    frame_with_shortcuts();
  }

  void frame_with_shortcuts() {
    ImGui::NewFrame();
    handle_shortcuts(*app_, PlatformKeys{-1, kF5, -1, -1, -1, -1, -1, -1});
    ImGui::EndFrame();
  }

  std::unique_ptr<HeadlessUi> ui_;
  std::unique_ptr<AppController> app_;
};

TEST_F(KeysTest, TheClickersKeysWalkTheSteps) {
  press(kPageDown);
  EXPECT_EQ(app_->state().classroom.cursor.current(), 0u);
  press(kRight);
  EXPECT_EQ(app_->state().classroom.cursor.current(), 1u);
  press(kLeft);
  EXPECT_EQ(app_->state().classroom.cursor.current(), 0u);
  EXPECT_EQ(app_->state().controls.values.at("n"), "1000") << "the step's controls applied";
}

TEST_F(KeysTest, F5TogglesPresenterModeAndQuestionMarkTheOverlay) {
  press(kF5);
  EXPECT_TRUE(app_->state().classroom.presenter);
  ui_->draw_frame(*app_);  // the atlas is rebuilt at the presenter scale without trouble
  press(kF5);
  EXPECT_FALSE(app_->state().classroom.presenter);
  type('?');
  EXPECT_TRUE(app_->state().classroom.show_shortcuts);
  ui_->draw_frame(*app_);  // and the overlay draws
  // It lists the Kernel Lab's keys too (the review found none of them there).
  const ImGuiWindow* overlay = ImGui::FindWindowByName("Keyboard shortcuts");
  ASSERT_NE(overlay, nullptr);
  EXPECT_TRUE(overlay->Active);
  std::vector<std::string> lab_keys;
  for (const Shortcut& shortcut : lab_shortcuts()) lab_keys.emplace_back(shortcut.keys);
  for (const char* key : {"Ctrl+Enter", "Ctrl+Shift+Enter", "Ctrl+F"}) {
    EXPECT_NE(std::find(lab_keys.begin(), lab_keys.end(), key), lab_keys.end()) << key;
  }
  type('?');
  EXPECT_FALSE(app_->state().classroom.show_shortcuts);
}

// Sharp at every scale: presenter mode rasterises the fonts again at its size (a new atlas with
// larger glyphs), instead of stretching the normal glyphs with FontGlobalScale.
TEST_F(KeysTest, PresenterModeRebuildsTheFontAtlasAtItsScale) {
  // A window that holds the presenter scale whole (max_scale_for_window: 2 at 1920 × 1200).
  ASSERT_TRUE(ui_->resize(1920, 1200));
  ui_->draw_frame(*app_);
  ImGuiIO& io = ImGui::GetIO();
  const float normal_size = io.Fonts->Fonts[0]->FontSize;
  const float normal_glyph =
      io.Fonts->Fonts[0]->FindGlyph('M')->Y1 - io.Fonts->Fonts[0]->FindGlyph('M')->Y0;
  press(kF5);
  ui_->draw_frame(*app_);
  ASSERT_TRUE(app_->state().classroom.presenter);
  const float scale = app_->state().classroom.presenter_scale;
  ASSERT_GE(scale, 1.5f);
  EXPECT_NEAR(io.Fonts->Fonts[0]->FontSize, normal_size * scale, 0.5f);
  // The glyph itself is rasterised taller in the new atlas, not drawn larger from the old one.
  const ImFontGlyph* glyph = io.Fonts->Fonts[0]->FindGlyph('M');
  EXPECT_NEAR(glyph->Y1 - glyph->Y0, normal_glyph * scale, 2.0f);
  EXPECT_FLOAT_EQ(io.FontGlobalScale, 1.0f) << "no bitmap stretching";
  // In a window too small for it, presenter mode draws at what the window holds: 1.375 at 1280 ×
  // 800 (presenter mode's own least height, 560 scale-1 pixels: theme_keeper.hpp).
  ASSERT_TRUE(ui_->resize(1280, 800));
  ui_->draw_frame(*app_);
  EXPECT_FLOAT_EQ(ui_->drawn_scale(), 1.375f);
  EXPECT_NEAR(io.Fonts->Fonts[0]->FontSize, normal_size * 1.375f, 0.5f);
  press(kF5);
  ui_->draw_frame(*app_);
  EXPECT_NEAR(io.Fonts->Fonts[0]->FontSize, normal_size, 0.01f);
}

TEST_F(KeysTest, TheScreenshotButtonSavesTheWholeWindow) {
  const auto pictures = std::filesystem::path(::testing::TempDir()) / "threadlab_pictures";
  std::filesystem::remove_all(pictures);
  std::filesystem::create_directories(pictures);
  ::setenv("XDG_PICTURES_DIR", pictures.c_str(), 1);
  app_->request_screenshot(1280, 800);
  ui_->draw_frame(*app_);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(pictures)) {
    ++files;
    EXPECT_EQ(entry.path().extension(), ".png");
    EXPECT_GT(std::filesystem::file_size(entry.path()), 10'000u) << "a real picture of the UI";
  }
  EXPECT_EQ(files, 1);
  EXPECT_NE(app_->state().messages.back().text.find("Saved "), std::string::npos);
}

}  // namespace
}  // namespace tl::ui
