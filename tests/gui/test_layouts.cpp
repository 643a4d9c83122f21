// Every layout a classroom meets: the four window sizes of a laptop, a desk monitor, a projector
// and a large monitor, at UI scales 1, 1.5, 2 and 3, with and without presenter mode, before and
// after a sweep has drawn a plot, and with a demo caption. One process draws them all (the same
// ImGui code as the window, into an offscreen target) and, for each, checks that the mapping view,
// the Launch button and the plot are on screen, unclipped by their panels and the window, at a
// useful size, and that their pixels are there in the picture. Each layout's screenshot is kept:
// in $THREADLAB_LAYOUT_SHOTS when set, else in the test's temporary folder.

#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <stb_image.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "core/classroom/demo_script.hpp"
#include "core/color_scheme.hpp"
#include "headless_ui.hpp"
#include "lesson_layout.hpp"
#include "series_style.hpp"
#include "theme.hpp"
#include "theme_keeper.hpp"

namespace tl::ui {
namespace {

struct WindowSize {
  int width;
  int height;
};
constexpr WindowSize kSizes[] = {{1280, 720}, {1600, 1000}, {1920, 1080}, {2560, 1440}};
constexpr float kScales[] = {1.0f, 1.5f, 2.0f, 3.0f};

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  [[nodiscard]] float width() const { return x1 - x0; }
  [[nodiscard]] float height() const { return y1 - y0; }
  [[nodiscard]] bool inside(const Rect& outer) const {
    constexpr float kSlack = 0.5f;  // sub-pixel rounding of ImGui's positions
    return x0 >= outer.x0 - kSlack && y0 >= outer.y0 - kSlack && x1 <= outer.x1 + kSlack &&
           y1 <= outer.y1 + kSlack;
  }
};

std::ostream& operator<<(std::ostream& out, const Rect& r) {
  return out << "(" << r.x0 << ", " << r.y0 << ")-(" << r.x1 << ", " << r.y1 << ")";
}

// A child window drawn in the last frame whose name ends in "/<name>_<id>", ImGui's naming; its
// visible rectangle (the part its parents do not clip away).
std::optional<Rect> drawn_child(const std::string& name) {
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    const std::string full = window->Name;
    const std::size_t slash = full.rfind('/');
    if (!window->Active || slash == std::string::npos) continue;
    if (full.compare(slash + 1, name.size() + 1, name + "_") != 0) continue;
    return Rect{window->Pos.x, window->Pos.y, window->Pos.x + window->Size.x,
                window->Pos.y + window->Size.y};
  }
  return std::nullopt;
}

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;
  // Pixels inside `r` within `tolerance` of `colour` in every channel.
  [[nodiscard]] std::size_t count(const Rect& r, std::array<std::uint8_t, 3> colour,
                                  int tolerance = 2) const {
    std::size_t n = 0;
    for (int y = std::max(0, static_cast<int>(r.y0)); y < std::min(height, static_cast<int>(r.y1));
         ++y) {
      for (int x = std::max(0, static_cast<int>(r.x0)); x < std::min(width, static_cast<int>(r.x1));
           ++x) {
        const std::uint8_t* p = &rgb[(static_cast<std::size_t>(y) * width + x) * 3];
        if (std::abs(p[0] - colour[0]) <= tolerance && std::abs(p[1] - colour[1]) <= tolerance &&
            std::abs(p[2] - colour[2]) <= tolerance) {
          ++n;
        }
      }
    }
    return n;
  }
};

Image load_png(const std::string& path) {
  Image image;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
  if (data == nullptr) return image;
  image.rgb.assign(data, data + static_cast<std::size_t>(image.width) * image.height * 3);
  stbi_image_free(data);
  return image;
}

std::array<std::uint8_t, 3> imgui_rgb8(const ImVec4& c) {
  auto channel = [](float v) { return static_cast<std::uint8_t>(v * 255.0f + 0.5f); };
  return {channel(c.x), channel(c.y), channel(c.z)};
}

std::array<std::uint8_t, 3> packed_rgb8(std::uint32_t c) {
  // plot::rgba packs as 0xRRGGBBAA.
  return {static_cast<std::uint8_t>(c >> 24), static_cast<std::uint8_t>((c >> 16) & 0xff),
          static_cast<std::uint8_t>((c >> 8) & 0xff)};
}

std::filesystem::path shots_folder() {
  if (const char* keep = std::getenv("THREADLAB_LAYOUT_SHOTS"); keep != nullptr && *keep != '\0')
    return keep;
  return std::filesystem::path(::testing::TempDir()) / "threadlab-layouts";
}

class LayoutTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto ui = HeadlessUi::create(1280, 720, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = (*ui).release();
    auto controller = AppController::create(
        test_support::emulator_options(ui_->renderer(), "threadlab_layout_test"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = (*controller).release();
    test_support::wait_until_idle(*app_);
    // 16 blocks of 256: block 0's colour is a known share of the picture.
    ASSERT_TRUE(app_->set_params({{"n", "4096"}, {"block", "256"}, {"grid", "auto"}}));
    app_->launch();
    test_support::wait_until_idle(*app_);
    std::filesystem::create_directories(shots_folder());
  }
  static void TearDownTestSuite() {
    delete app_;
    app_ = nullptr;
    delete ui_;
    ui_ = nullptr;
  }

  // Draws the layout (a few frames: the fonts are rebuilt on the first, child windows settle on
  // the next) and saves its screenshot as `<stem>-<width>x<height>-s<scale>[-presenter].png`.
  Image draw(const WindowSize& size, float scale, bool presenter, const std::string& stem) {
    EXPECT_TRUE(ui_->resize(size.width, size.height));
    ui_->set_scale(scale);
    app_->set_presenter(presenter);
    for (int frame = 0; frame < 3; ++frame) ui_->draw_frame(*app_);
    std::ostringstream name;
    name << stem << "-" << size.width << "x" << size.height << "-s" << scale
         << (presenter ? "-presenter" : "") << ".png";
    const std::string path = (shots_folder() / name.str()).string();
    EXPECT_TRUE(ui_->save_png(path));
    return load_png(path);
  }

  // The mapping view's picture and the Launch button are on screen, whole, at a useful size, and
  // drawn (their colours are in the screenshot there).
  void expect_mapping_and_launch(const Image& image, const WindowSize& size) {
    const Rect window{0, 0, static_cast<float>(size.width), static_cast<float>(size.height)};
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const auto mapping = drawn_child("mapping");
    const auto picture = drawn_child("picture");
    ASSERT_TRUE(mapping && picture) << "the mapping view has no picture";
    EXPECT_TRUE(mapping->inside(window)) << *mapping;
    EXPECT_TRUE(picture->inside(*mapping)) << *picture << " in " << *mapping;
    EXPECT_GE(picture->height(), line * 4) << "the mapping picture is too low: " << *picture;
    EXPECT_GE(picture->width(), line * 4) << "the mapping picture is too narrow: " << *picture;
    EXPECT_GT(image.count(*picture, to_rgb8(categorical_color(0))), 100u)
        << "block 0 is not drawn in the picture " << *picture;

    const auto controls = drawn_child("controls");
    const auto footer = drawn_child("launch_footer");
    ASSERT_TRUE(controls && footer) << "no launch footer";
    EXPECT_TRUE(controls->inside(window)) << *controls;
    EXPECT_TRUE(footer->inside(*controls)) << *footer << " in " << *controls;
    EXPECT_GE(footer->height(), ImGui::GetFrameHeight()) << *footer;
    // The button is most of the footer's width and a frame high.
    const auto button = imgui_rgb8(ImGui::GetStyle().Colors[ImGuiCol_Button]);
    EXPECT_GT(image.count(*footer, button),
              static_cast<std::size_t>(footer->width() * ImGui::GetFrameHeight() * 0.4f))
        << "the Launch button is not drawn in " << *footer;
  }

  void expect_plot(const Image& image, const WindowSize& size) {
    const Rect window{0, 0, static_cast<float>(size.width), static_cast<float>(size.height)};
    const auto timing = drawn_child("timing");
    const auto plot = drawn_child("plot");
    ASSERT_TRUE(timing && plot) << "no plot drawn";
    EXPECT_TRUE(timing->inside(window)) << *timing;
    EXPECT_TRUE(plot->inside(*timing)) << *plot << " in " << *timing;
    const float line = ImGui::GetTextLineHeightWithSpacing();
    EXPECT_GE(plot->height(), line * 6) << "the plot is too low: " << *plot;
    std::size_t series_pixels = 0;
    for (const auto& series : app_->state().timing.shown) {
      series_pixels += image.count(*plot, packed_rgb8(series.color), 8);
    }
    EXPECT_GT(series_pixels, 50u) << "no series drawn in the plot " << *plot;
  }

  static HeadlessUi* ui_;
  static AppController* app_;
};

HeadlessUi* LayoutTest::ui_ = nullptr;
AppController* LayoutTest::app_ = nullptr;

std::string describe(const WindowSize& size, float scale, bool presenter) {
  std::ostringstream out;
  out << size.width << "x" << size.height << " at scale " << scale
      << (presenter ? " in presenter mode" : "");
  return out.str();
}

TEST_F(LayoutTest, BeforeAnySweepTheMappingViewAndLaunchShowAndTheResultsStaySmall) {
  for (const WindowSize& size : kSizes) {
    for (float scale : kScales) {
      for (bool presenter : {false, true}) {
        SCOPED_TRACE(describe(size, scale, presenter));
        const Image image = draw(size, scale, presenter, "no-plot");
        expect_mapping_and_launch(image, size);
        // Nothing to plot yet: the results panel is the smaller part of the right column.
        const auto timing = drawn_child("timing");
        const auto mapping = drawn_child("mapping");
        ASSERT_TRUE(timing && mapping);
        EXPECT_LT(timing->height(), mapping->height())
            << "an empty results panel " << *timing << " against the mapping view " << *mapping;
      }
    }
  }
}

TEST_F(LayoutTest, WithASweepThePlotShowsTooInEveryLayout) {
  app_->apply_lesson_action("threadlab:set?n=4096&sweep=block");
  test_support::wait_until_idle(*app_);
  ASSERT_FALSE(app_->state().timing.shown.empty());
  for (const WindowSize& size : kSizes) {
    for (float scale : kScales) {
      for (bool presenter : {false, true}) {
        SCOPED_TRACE(describe(size, scale, presenter));
        const Image image = draw(size, scale, presenter, "plot");
        expect_mapping_and_launch(image, size);
        expect_plot(image, size);
      }
    }
  }
}

// The Roofline tab fits the results panel in every layout, its points drawn, and the mapping view
// and Launch keep their room.
TEST_F(LayoutTest, TheRooflineShowsItsPointsInEveryLayout) {
  app_->apply_lesson_action("threadlab:set?lesson=vector-add&n=4096&block=256&grid=auto&launch");
  test_support::wait_until_idle(*app_);
  ASSERT_FALSE(app_->state().roofline.roofline.points.empty())
      << app_->state().roofline.roofline.empty_reason;
  ASSERT_TRUE(app_->show_view("roofline").is_ok());
  for (const WindowSize& size : kSizes) {
    for (float scale : kScales) {
      for (bool presenter : {false, true}) {
        SCOPED_TRACE(describe(size, scale, presenter));
        const Image image = draw(size, scale, presenter, "roofline");
        expect_mapping_and_launch(image, size);
        const Rect window{0, 0, static_cast<float>(size.width), static_cast<float>(size.height)};
        const auto timing = drawn_child("timing");
        const auto roofline = drawn_child("roofline");
        ASSERT_TRUE(timing && roofline) << "no roofline drawn";
        EXPECT_TRUE(timing->inside(window)) << *timing;
        EXPECT_TRUE(roofline->inside(*timing)) << *roofline << " in " << *timing;
        EXPECT_GE(roofline->height(), ImGui::GetTextLineHeightWithSpacing() * 6) << *roofline;
        // The first point's marker, in the hue of the first device series.
        EXPECT_GT(image.count(*roofline, packed_rgb8(device_series_color(0)), 8), 10u)
            << "no point drawn in " << *roofline;
      }
    }
  }
  ASSERT_TRUE(app_->show_view("plot").is_ok());
  ui_->draw_frame(*app_);
}

// The Memory tab fits the results panel in every layout: its table and the drawn request's lanes
// (in the first sector's colour) show inside it, the mapping view and Launch keep their room.
TEST_F(LayoutTest, TheMemoryTabShowsItsTableAndLanesInEveryLayout) {
  ASSERT_TRUE(app_->show_view("memory").is_ok());
  ui_->draw_frame(*app_);
  ui_->draw_frame(*app_);  // drawing the tab asks for the recording
  test_support::wait_until_idle(*app_);
  const LessonMemoryState& memory = app_->lesson_memory().state();
  ASSERT_TRUE(memory.error.empty()) << memory.error;
  ASSERT_FALSE(memory.kernels.empty());
  ASSERT_TRUE(memory.request.has_value());
  const auto first_sector = to_rgb8(categorical_color(0));
  for (const WindowSize& size : kSizes) {
    for (float scale : kScales) {
      for (bool presenter : {false, true}) {
        SCOPED_TRACE(describe(size, scale, presenter));
        const Image image = draw(size, scale, presenter, "memory");
        expect_mapping_and_launch(image, size);
        const Rect window{0, 0, static_cast<float>(size.width), static_cast<float>(size.height)};
        const auto timing = drawn_child("timing");
        auto body = drawn_child("memory_body");
        if (!body) body = drawn_child("memory_request");
        ASSERT_TRUE(timing && body) << "no Memory tab drawn";
        EXPECT_TRUE(timing->inside(window)) << *timing;
        EXPECT_TRUE(body->inside(*timing)) << *body << " in " << *timing;
        EXPECT_GT(image.count(*body, first_sector, 3), 50u)
            << "no lane drawn in the first sector's colour in " << *body;
      }
    }
  }
  ASSERT_TRUE(app_->show_view("plot").is_ok());
  ui_->draw_frame(*app_);
}

TEST_F(LayoutTest, TheDemoCaptionHasItsOwnStripUnderThePanels) {
  auto script = classroom::parse_demo_script(R"(
title = "layout"
[[step]]
caption = "Each block of 256 threads writes 256 neighbouring elements: one colour per block"
set = { n = 4096 }
launch = true
)",
                                             "layout.toml");
  ASSERT_TRUE(script.is_ok()) << script.message();
  app_->start_demo(*script, /*timed_advance=*/false);
  test_support::wait_until_idle(*app_);
  for (const WindowSize& size : {kSizes[0], kSizes[2]}) {
    for (float scale : {1.0f, 2.0f}) {
      SCOPED_TRACE(describe(size, scale, true));
      const Image image = draw(size, scale, true, "caption");
      expect_mapping_and_launch(image, size);
      const auto caption = drawn_child("caption");
      const auto timing = drawn_child("timing");
      const auto lesson = drawn_child("lesson");
      ASSERT_TRUE(caption && timing && lesson) << "no caption strip";
      EXPECT_GE(caption->y0, timing->y1) << "the caption covers the results panel";
      EXPECT_GE(caption->y0, lesson->y1) << "the caption covers the lesson text";
      EXPECT_LE(caption->y1, static_cast<float>(size.height)) << *caption;
    }
  }
  app_->stop_demo();
}

// The matrix product's Element reads tab: A, B and C take a fair share of the results panel in
// every layout (at 1280×720 they had been about 100 px with 3-px dots), and the picked element
// is marked at a visible size.
TEST_F(LayoutTest, TheElementReadsMatricesTakeTheirShareOfTheTabInEveryLayout) {
  app_->apply_lesson_action("threadlab:set?lesson=matmul&kernel=tiled&launch");
  test_support::wait_until_idle(*app_);
  app_->apply_lesson_action("threadlab:set?lesson=matmul&pick=17,30&view=reads");
  ASSERT_NE(app_->lesson_pick(), nullptr);
  // The matrices' empty cells (element_reads_panel.cpp's outline fill) and the picked element.
  const std::array<std::uint8_t, 3> matrix_fill{40, 42, 50};
  const std::array<std::uint8_t, 3> picked = to_rgb8(kHighlightColor);
  for (const WindowSize& size : kSizes) {
    for (float scale : kScales) {
      for (bool presenter : {false, true}) {
        SCOPED_TRACE(describe(size, scale, presenter));
        const Image image = draw(size, scale, presenter, "reads");
        const auto timing = drawn_child("timing");
        ASSERT_TRUE(timing) << "no results panel";
        const float panel_area = timing->width() * timing->height();
        const auto matrices = static_cast<float>(image.count(*timing, matrix_fill, 2));
        EXPECT_GT(matrices, panel_area * 0.12f)
            << "A, B and C cover " << matrices << " of the tab's " << panel_area << " pixels";
        // Drawn a third of a line wide; its anti-aliased rim is not counted.
        const float mark = ImGui::GetFontSize() * 0.25f;
        EXPECT_GE(static_cast<float>(image.count(*timing, picked, 8)), mark * mark)
            << "the picked element is not marked visibly";
      }
    }
  }
  app_->apply_lesson_action("threadlab:set?lesson=vector-add&n=4096&block=256&grid=auto&launch");
  test_support::wait_until_idle(*app_);
}

// A guided step is scrolled into view in the lesson text, the last one too (it was left below the
// panel): its highlighted background is in the lesson panel's pixels. (Presenter mode shows the
// step's own section alone, from its top.)
TEST_F(LayoutTest, TheLastGuidedStepIsScrolledIntoView) {
  const auto& steps = app_->state().classroom.steps;
  ASSERT_GT(steps.size(), 1u);
  for (const WindowSize& size : {kSizes[0], kSizes[2]}) {
    for (float scale : {1.0f, 2.0f}) {
      for (bool presenter : {false}) {
        SCOPED_TRACE(describe(size, scale, presenter));
        // The first step, the last, and the last again reached with Left from the next lesson
        // (the text changes with the lesson: its height is not known on the first frame).
        for (int move = 0; move < 3; ++move) {
          const std::size_t step = move == 0 ? 0 : app_->state().classroom.steps.size() - 1;
          if (move < 2) {
            app_->go_to_step(step);
          } else {
            app_->apply_lesson_action("threadlab:set?lesson=thread-hierarchy");
            test_support::wait_until_idle(*app_);
            ui_->draw_frame(*app_);
            for (int i = 0; i < 50 && app_->state().controls.lesson_id != "vector-add"; ++i) {
              app_->previous_step();
              test_support::wait_until_idle(*app_);
            }
            ASSERT_EQ(app_->state().classroom.cursor.current(), step);
          }
          test_support::wait_until_idle(*app_);
          const Image image = draw(size, scale, presenter, "step" + std::to_string(move));
          const auto lesson = drawn_child("lesson");
          ASSERT_TRUE(lesson) << "no lesson text";
          // The step's background: the highlight over the lesson panel's own background.
          const ImVec4 h = palette().highlight;
          const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_ChildBg];
          const ImVec4 blended{h.x * h.w + bg.x * (1 - h.w), h.y * h.w + bg.y * (1 - h.w),
                               h.z * h.w + bg.z * (1 - h.w), 1};
          const float line = ImGui::GetTextLineHeightWithSpacing();
          EXPECT_GT(static_cast<float>(image.count(*lesson, imgui_rgb8(blended), 6)),
                    lesson->width() * line * 0.5f)
              << "step " << step << " (move " << move << ") is not in view in " << *lesson;
        }
      }
    }
  }
  app_->apply_lesson_action("threadlab:set?lesson=vector-add&n=4096&block=256&grid=auto&launch");
  test_support::wait_until_idle(*app_);
}

// The scale the window can hold: a larger one would push panels off it.
TEST(LayoutScale, TheScaleIsLimitedByWhatTheWindowCanHold) {
  EXPECT_EQ(max_scale_for_window(0, 0), 0.0f) << "unknown size: no limit";
  EXPECT_EQ(max_scale_for_window(1280, 720), 1.125f);
  EXPECT_EQ(max_scale_for_window(1600, 1000), 1.625f);
  EXPECT_EQ(max_scale_for_window(1920, 1080), 1.75f);
  EXPECT_EQ(max_scale_for_window(2560, 1440), 2.375f);
  EXPECT_EQ(max_scale_for_window(640, 400), 1.0f) << "never below 1";
  // Presenter mode needs less height (the step alone, no device table, no advanced controls): a
  // 720p projector draws larger than the desk.
  EXPECT_EQ(max_scale_for_window(1280, 720, /*presenting=*/true), 1.25f);
  EXPECT_EQ(max_scale_for_window(1920, 1080, /*presenting=*/true), 1.875f);
  EXPECT_GT(max_scale_for_window(1280, 720, true), max_scale_for_window(1280, 720));
}

// The layout's arithmetic on its own: the mapping view keeps its least height, the results are
// small until they need room, the caption has a strip of its own.
TEST(LessonLayout, TheMappingViewKeepsItsLeastHeightAndTheResultsTheRest) {
  LessonLayoutInputs in;
  in.body_width = 1900;
  in.body_height = 900;
  in.text_line = 40;
  in.frame_line = 46;
  in.spacing_x = 16;
  in.spacing_y = 12;
  in.padding_y = 20;
  in.compact_results_height = 200;
  in.results_need_room = false;
  LessonLayout compact = compute_lesson_layout(in);
  EXPECT_EQ(compact.results_height, 200);
  EXPECT_FLOAT_EQ(compact.top_height + compact.results_height + in.spacing_y, 900);

  in.results_need_room = true;
  LessonLayout with_plot = compute_lesson_layout(in);
  EXPECT_GE(with_plot.top_height, mapping_min_height(in));
  EXPECT_GE(with_plot.results_height, plot_results_min_height(in));
  EXPECT_FLOAT_EQ(with_plot.top_height + with_plot.results_height + in.spacing_y, 900);

  in.caption_height = 90;
  LessonLayout captioned = compute_lesson_layout(in);
  EXPECT_EQ(captioned.caption_height, 90 + 2 * in.padding_y);
  EXPECT_FLOAT_EQ(
      captioned.top_height + captioned.results_height + captioned.caption_height + 2 * in.spacing_y,
      900);
  EXPECT_FLOAT_EQ(captioned.lesson_height + captioned.caption_height + in.spacing_y, 900);

  // Too little room for both least heights: they share it in proportion.
  in.caption_height = 0;
  in.body_height = 500;
  LessonLayout cramped = compute_lesson_layout(in);
  const float share =
      mapping_min_height(in) / (mapping_min_height(in) + plot_results_min_height(in));
  EXPECT_NEAR(cramped.top_height / (cramped.top_height + cramped.results_height), share, 0.01f);
}

}  // namespace
}  // namespace tl::ui
