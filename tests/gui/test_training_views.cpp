// The capstone's live views in the window: the training lesson opens with its network prepared in
// the background, Step trains while frames keep being drawn, and the boundary (beside the mapping
// view), the loss and accuracy curves and the first layer's weights are on screen with their
// pixels in the picture. A diverging setting shows its error and the app goes on; Reset recovers.
// The same ImGui code as the window, drawn headless into an offscreen target (as test_layouts.cpp).

#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <stb_image.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "headless_ui.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "lessons/09_training/training.hpp"
#include "lessons/09_training/training_picture.hpp"
#include "lessons/09_training/views/training_live.hpp"

namespace tl::ui {
namespace {

using training_views::TrainingLive;

struct Rect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// A child window drawn in the last frame whose name ends in "/<name>_<id>", ImGui's naming.
std::optional<Rect> drawn_child(const std::string& name) {
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    const std::string full = window->Name;
    const std::size_t slash = full.rfind('/');
    if (!window->Active || slash == std::string::npos) continue;
    if (full.compare(slash + 1, name.size() + 1, name + "_") != 0) continue;
    return Rect{static_cast<int>(window->Pos.x), static_cast<int>(window->Pos.y),
                static_cast<int>(window->Pos.x + window->Size.x),
                static_cast<int>(window->Pos.y + window->Size.y)};
  }
  return std::nullopt;
}

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  // Pixels in `r` within `tolerance` of `colour`.
  [[nodiscard]] std::size_t count(const Rect& r, std::array<int, 3> colour, int tolerance) const {
    std::size_t n = 0;
    for (int y = std::max(0, r.y0); y < std::min(height, r.y1); ++y) {
      for (int x = std::max(0, r.x0); x < std::min(width, r.x1); ++x) {
        const std::uint8_t* p = &rgb[(static_cast<std::size_t>(y) * width + x) * 3];
        if (std::abs(p[0] - colour[0]) <= tolerance && std::abs(p[1] - colour[1]) <= tolerance &&
            std::abs(p[2] - colour[2]) <= tolerance) {
          ++n;
        }
      }
    }
    return n;
  }
  // Pixels in `r` for which `keep(pixel)` holds.
  template <class Keep>
  [[nodiscard]] std::size_t count_if(const Rect& r, Keep keep) const {
    std::size_t n = 0;
    for (int y = std::max(0, r.y0); y < std::min(height, r.y1); ++y) {
      for (int x = std::max(0, r.x0); x < std::min(width, r.x1); ++x) {
        if (keep(&rgb[(static_cast<std::size_t>(y) * width + x) * 3])) ++n;
      }
    }
    return n;
  }
  // Distinct colours in `r` (a blank area has one or two).
  [[nodiscard]] std::size_t distinct(const Rect& r) const {
    std::vector<std::uint32_t> seen;
    for (int y = std::max(0, r.y0); y < std::min(height, r.y1); ++y) {
      for (int x = std::max(0, r.x0); x < std::min(width, r.x1); ++x) {
        const std::uint8_t* p = &rgb[(static_cast<std::size_t>(y) * width + x) * 3];
        seen.push_back((std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2]);
      }
    }
    std::sort(seen.begin(), seen.end());
    return static_cast<std::size_t>(std::unique(seen.begin(), seen.end()) - seen.begin());
  }
};

class TrainingViewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ui = HeadlessUi::create(1600, 1000, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    auto controller = AppController::create(
        test_support::emulator_options(ui_->renderer(), "threadlab_training_views_test"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
    test_support::wait_until_idle(*app_);
    app_->select_lesson(std::string(lessons::kTrainingId));
    ASSERT_EQ(app_->state().controls.lesson_id, lessons::kTrainingId);
    test_support::wait_until_idle(*app_);
    live_ = training_views::training_live(*app_);
    ASSERT_NE(live_, nullptr) << "the lesson's live work is made when it opens";
  }

  // Draws frames (each collects the session's news) until `done`, within a generous bound.
  template <class Done>
  void frames_until(Done done, const char* what) {
    const auto limit = std::chrono::steady_clock::now() + std::chrono::minutes(3);
    while (!done()) {
      ASSERT_LT(std::chrono::steady_clock::now(), limit) << "never: " << what;
      ui_->draw_frame(*app_);
    }
    ui_->draw_frame(*app_);
    ui_->draw_frame(*app_);  // child windows settle their sizes on the second frame
  }

  Image screenshot(const std::string& name) {
    const std::filesystem::path path =
        std::filesystem::path(::testing::TempDir()) / ("threadlab-training-" + name + ".png");
    EXPECT_TRUE(ui_->save_png(path.string()).is_ok());
    Image image;
    int channels = 0;
    unsigned char* data =
        stbi_load(path.string().c_str(), &image.width, &image.height, &channels, 3);
    if (data != nullptr) {
      image.rgb.assign(data, data + static_cast<std::size_t>(image.width) * image.height * 3);
      stbi_image_free(data);
    }
    return image;
  }

  std::unique_ptr<HeadlessUi> ui_;
  std::unique_ptr<AppController> app_;
  TrainingLive* live_ = nullptr;
};

// Whether `p` is class `c`'s colour paled as the class map pales it: 255 + (colour - 255) · f for
// one f in [0.25, 0.70] in every channel (within rounding).
bool on_class_ramp(const std::uint8_t* p, int c) {
  std::uint8_t rgb[3];
  lessons::class_colour(c, rgb);
  int widest = 0;
  for (int ch = 1; ch < 3; ++ch) {
    if (std::abs(rgb[ch] - 255) > std::abs(rgb[widest] - 255)) widest = ch;
  }
  const double f = (p[widest] - 255.0) / (rgb[widest] - 255.0);
  if (f < 0.24 || f > 0.71) return false;
  for (int ch = 0; ch < 3; ++ch) {
    if (std::abs(p[ch] - (255.0 + (rgb[ch] - 255.0) * f)) > 3.0) return false;
  }
  return true;
}

// On the emulator the launch panel shows the gpus field greyed with its reason; another lesson has
// nothing greyed.
TEST_F(TrainingViewsTest, TheGpusFieldIsGreyedWithItsReasonOnTheEmulator) {
  const auto& unavailable = app_->state().controls.unavailable;
  ASSERT_EQ(unavailable.count("gpus"), 1u);
  EXPECT_NE(unavailable.at("gpus").find("emulator"), std::string::npos) << unavailable.at("gpus");
  ui_->draw_frame(*app_);  // the launch panel draws the field greyed, its reason under it
  app_->select_lesson(std::string(lessons::kVectorAddId));
  test_support::wait_until_idle(*app_);
  EXPECT_TRUE(app_->state().controls.unavailable.empty());
}

TEST_F(TrainingViewsTest, StepTrainsInTheBackgroundAndEveryViewShowsIt) {
  frames_until(
      [&] {
        return live_->snapshot().phase == lessons::TrainingPhase::kPaused &&
               live_->boundary_texture() != 0;
      },
      "the network prepared and its boundary drawn");
  EXPECT_EQ(live_->snapshot().steps, 0);

  live_->form().steps_per_click = 24;
  live_->step();
  frames_until(
      [&] {
        return live_->snapshot().steps == 24 &&
               live_->snapshot().phase == lessons::TrainingPhase::kPaused &&
               live_->boundary_step() == 24;
      },
      "24 steps trained and the boundary redrawn");
  EXPECT_TRUE(live_->snapshot().error.empty());
  ASSERT_EQ(live_->loss_series().size(), 2u);
  EXPECT_EQ(live_->loss_series()[0].points.size(), 24u) << "the batch loss of every step";

  // The training tab: the curves, with their series drawn.
  app_->show_lesson_tab("training");
  ui_->draw_frame(*app_);
  ui_->draw_frame(*app_);
  Image image = screenshot("curves");
  ASSERT_GT(image.width, 0);
  const auto loss_plot = drawn_child("loss_plot");
  const auto accuracy_plot = drawn_child("accuracy_plot");
  ASSERT_TRUE(loss_plot && accuracy_plot) << "both plots are drawn";
  EXPECT_GT(loss_plot->x1 - loss_plot->x0, 150);
  EXPECT_GT(loss_plot->y1 - loss_plot->y0, 60);
  const std::array<int, 3> batch{0x9A, 0xA4, 0xB8};
  EXPECT_GT(image.count(*loss_plot, batch, 10), 30u) << "the batch loss curve";
  EXPECT_GT(image.count(*accuracy_plot, batch, 10), 30u) << "the batch accuracy curve";

  // The boundary beside the mapping view: the classes' colours, and the points over them.
  const auto beside = drawn_child("lesson_beside");
  ASSERT_TRUE(beside) << "the boundary sits beside the mapping view";
  std::size_t class_pixels[2] = {0, 0};
  for (int c = 0; c < 2; ++c) {
    class_pixels[c] =
        image.count_if(*beside, [c](const std::uint8_t* p) { return on_class_ramp(p, c); });
  }
  EXPECT_GT(class_pixels[0], 500u) << "class 0's ground";
  EXPECT_GT(class_pixels[1], 500u) << "class 1's ground";
  EXPECT_GT(image.distinct(*beside), 20u) << "not blank";

  // The weights tab: the heat map on its signed scale, not blank.
  app_->show_lesson_tab("weights");
  ui_->draw_frame(*app_);
  ui_->draw_frame(*app_);
  image = screenshot("weights");
  const auto map = drawn_child("weights_map");
  ASSERT_TRUE(map) << "the heat map is drawn";
  EXPECT_GT(map->x1 - map->x0, 100);
  EXPECT_GT(image.distinct(*map), 20u) << "the weights differ, and so do their colours";

  // The boundary's own tab draws it large.
  app_->show_lesson_tab("boundary");
  ui_->draw_frame(*app_);
  ui_->draw_frame(*app_);
  image = screenshot("boundary");
  const auto large = drawn_child("boundary_image");
  ASSERT_TRUE(large);
  EXPECT_GT(image.distinct(*large), 20u);
}

TEST_F(TrainingViewsTest, DivergenceIsShownWithItsStepAndResetRecovers) {
  frames_until([&] { return live_->snapshot().phase == lessons::TrainingPhase::kPaused; },
               "the network prepared");
  live_->form().optimizer = 0;  // sgd
  live_->form().learning_rate = 1e6;
  EXPECT_TRUE(live_->form_changed());
  live_->reset();
  live_->form().steps_per_click = 40;
  frames_until(
      [&] {
        return live_->snapshot().phase == lessons::TrainingPhase::kPaused &&
               live_->snapshot().settings.learning_rate == 1e6;
      },
      "the new network");
  live_->step();
  frames_until([&] { return live_->snapshot().phase == lessons::TrainingPhase::kDiverged; },
               "the divergence");
  EXPECT_GT(live_->snapshot().error_step, 0);
  EXPECT_NE(live_->snapshot().error.find("diverged at step"), std::string::npos);
  ASSERT_FALSE(app_->state().messages.empty());
  EXPECT_EQ(app_->state().messages.back().text, "Training: " + live_->snapshot().error)
      << "said in the status bar too";
  // The app goes on: frames draw, the other lessons' work is not refused for good.
  app_->show_lesson_tab("training");
  frames_until([&] { return !live_->busy(); }, "the stopped job let go of the device");
  EXPECT_TRUE(app_->can_launch());

  live_->form().learning_rate = 0.01;
  live_->form().optimizer = 1;
  live_->reset();
  live_->form().steps_per_click = 5;
  frames_until(
      [&] {
        return live_->snapshot().phase == lessons::TrainingPhase::kPaused &&
               live_->snapshot().settings.learning_rate == 0.01;
      },
      "the reset");
  EXPECT_TRUE(live_->snapshot().error.empty());
  live_->step();
  frames_until([&] { return live_->snapshot().steps == 5; }, "training again");
}

TEST_F(TrainingViewsTest, LaunchesWaitWhileTrainingRunsAndLeavingTheLessonStopsIt) {
  frames_until([&] { return live_->snapshot().phase == lessons::TrainingPhase::kPaused; },
               "the network prepared");
  live_->start();
  frames_until([&] { return live_->snapshot().steps >= 10; }, "training running");
  EXPECT_TRUE(live_->busy());
  EXPECT_FALSE(app_->can_launch()) << "the device is training";
  live_->pause();
  frames_until([&] { return !live_->busy(); }, "paused");
  EXPECT_TRUE(app_->can_launch());
  live_->start();
  frames_until([&] { return live_->snapshot().steps >= 20; }, "training again");
  // Another lesson: the training stops with its lesson, and nothing is left running.
  app_->select_lesson(std::string(lessons::kVectorAddId));
  EXPECT_EQ(app_->state().controls.lesson_id, lessons::kVectorAddId);
  EXPECT_EQ(app_->lesson_live(), nullptr);
  test_support::wait_until_idle(*app_);
  ui_->draw_frame(*app_);
}

}  // namespace
}  // namespace tl::ui
