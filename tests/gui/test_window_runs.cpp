// Long runs in a real window (under Xvfb): the case, the reductions lesson's sum at 32Mi
// elements timed on the CPU emulator (minutes), shows its progress while the window keeps
// drawing, and stops within half a second of Cancel; another lesson asked for meanwhile is
// offered, not refused. Frames are counted while the work runs; the only time asserted is the
// cancellation's latency, the 0.5-second bound.

#include <gtest/gtest.h>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <stb_image.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "redraw_policy.hpp"
#include "theme_keeper.hpp"
#include "window_ui.hpp"

namespace tl::ui {
namespace {

using Clock = std::chrono::steady_clock;

// The bound on Cancel's latency. The grid answers at its next block (a few milliseconds
// of emulated work); what the bound leaves is for the frame in flight and the runner's thread to
// return on a loaded machine.
constexpr auto kCancelBound = std::chrono::milliseconds(500);

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  [[nodiscard]] float height() const { return y1 - y0; }
  [[nodiscard]] bool inside(const Rect& outer) const {
    constexpr float kSlack = 0.5f;  // sub-pixel rounding of ImGui's positions
    return x0 >= outer.x0 - kSlack && y0 >= outer.y0 - kSlack && x1 <= outer.x1 + kSlack &&
           y1 <= outer.y1 + kSlack;
  }
};

// How much of `inner` shows inside `outer` (pixels of height).
float visible_height(const Rect& inner, const Rect& outer) {
  return std::max(0.0f, std::min(inner.y1, outer.y1) - std::max(inner.y0, outer.y0));
}

// A child window drawn in the last frame whose name ends in "/<name>_<id>" (ImGui's naming).
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

// The whole of a table drawn in the last frame inside the child `in` (its rows, header to last).
std::optional<Rect> drawn_table(const std::string& in) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
    const ImGuiTable* table = g.Tables.TryGetMapData(i);
    if (table == nullptr || table->LastFrameActive < g.FrameCount - 1) continue;
    const std::string owner = table->OuterWindow->Name;
    if (owner.find("/" + in + "_") == std::string::npos) continue;
    return Rect{table->OuterRect.Min.x, table->OuterRect.Min.y, table->OuterRect.Max.x,
                table->OuterRect.Max.y};
  }
  return std::nullopt;
}

class WindowRunsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* display = std::getenv("DISPLAY");
    if (display == nullptr || *display == '\0') GTEST_SKIP() << "no X display: run under xvfb-run";
    WindowUiOptions options;
    options.window.width = 1280;
    options.window.height = 720;
    options.scale = 1.0f;
    auto ui = WindowUi::create(options);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    auto controller = AppController::create(
        test_support::emulator_options(ui_->renderer(), "threadlab_window_runs_test"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
    app_->select_lesson("reductions");
    test_support::wait_until_idle(*app_);
    frame();
  }
  void TearDown() override {
    if (app_) app_->cancel_launch();
    if (app_) test_support::wait_until_idle(*app_);
    app_.reset();  // its GL objects go before the window's context
    ui_.reset();
  }

  void frame() {
    ui_->poll_events();
    ui_->draw_frame(*app_);
    ui_->show_frame();
  }
  // Frames drawn until `done` or `limit`; how many.
  int frames_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
    const auto deadline = Clock::now() + limit;
    int frames = 0;
    while (!done() && Clock::now() < deadline) {
      frame();
      ++frames;
    }
    return frames;
  }
  // The whole window as PNG, kept as the layouts' shots are.
  void keep_shot(const std::string& name) {
    const char* keep = std::getenv("THREADLAB_LAYOUT_SHOTS");
    const std::filesystem::path folder =
        keep != nullptr && *keep != '\0'
            ? std::filesystem::path(keep)
            : std::filesystem::path(::testing::TempDir()) / "threadlab-layouts";
    std::filesystem::create_directories(folder);
    const Status saved = ui_->save_png((folder / name).string());
    EXPECT_TRUE(saved.is_ok()) << saved.message();
  }
  // The 32Mi sum, timed only (too large to draw): the run of minutes on the emulator.
  void launch_the_long_sum() {
    ASSERT_TRUE(app_->set_params({{"n", "32Mi"}}));
    app_->launch();
    ASSERT_TRUE(app_->state().timed.pending) << "the timed run did not start";
    ASSERT_TRUE(app_->busy());
  }

  std::unique_ptr<WindowUi> ui_;
  std::unique_ptr<AppController> app_;
};

TEST_F(WindowRunsTest, ALongTimedRunShowsItsProgressAndCancelsWithinHalfASecond) {
  launch_the_long_sum();
  const AppState& s = app_->state();
  // The run goes on for seconds while the window draws: frames keep coming and the progress bar
  // moves (the emulated grid's blocks, once the CPU's references are timed and the kernels run).
  const auto started = Clock::now();
  std::uint64_t grids_seen = 0;
  float fraction_seen = 0;
  const int frames_while_running = frames_until(
      [&] {
        grids_seen = std::max(grids_seen, s.timed.progress.job_grids);
        fraction_seen = std::max(fraction_seen, progress_fraction(s.timed.progress));
        return seconds_since(started) > 1.0 && fraction_seen > 0.0f;
      },
      std::chrono::seconds(120));
  ASSERT_TRUE(s.timed.pending) << "the run finished by itself: no longer the long run it was";
  keep_shot("timed-run-progress-1280x720.png");
  const std::string caption = progress_caption(s.timed.progress);
  std::printf("frames drawn in %.2f s of the run: %d; progress: %s\n", seconds_since(started),
              frames_while_running, caption.c_str());
  EXPECT_GE(frames_while_running, 4) << "the window stopped drawing while the run went on";
  EXPECT_GE(grids_seen, 1u) << "no emulated grid counted: no progress to show";
  EXPECT_GT(fraction_seen, 0.0f);
  EXPECT_NE(caption.find("grid "), std::string::npos) << caption;

  // Cancel, as its button does: the run stops within the bound, the window drawing meanwhile.
  const auto cancelled = Clock::now();
  app_->cancel_launch();
  const int frames_while_cancelling =
      frames_until([&] { return !app_->busy(); }, std::chrono::seconds(60));
  const double latency = seconds_since(cancelled);
  std::printf("cancelled in %.3f s, %d frames drawn meanwhile\n", latency, frames_while_cancelling);
  EXPECT_FALSE(app_->busy());
  EXPECT_LT(latency, std::chrono::duration<double>(kCancelBound).count());
  frame();
  EXPECT_FALSE(s.timed.pending);
  EXPECT_TRUE(s.timed.cancelled);
  EXPECT_FALSE(s.timed.report.has_value());
  for (const Message& m : s.messages) EXPECT_NE(m.severity, Severity::kError) << m.text;
  ASSERT_FALSE(s.messages.empty());
  EXPECT_NE(s.messages.back().text.find("Cancelled"), std::string::npos) << s.messages.back().text;
}

TEST_F(WindowRunsTest, AnotherLessonDuringTheRunIsOfferedWithCancelNotRefused) {
  launch_the_long_sum();
  const AppState& s = app_->state();
  frames_until([] { return false; }, std::chrono::milliseconds(500));
  ASSERT_TRUE(app_->busy());
  // The lesson menu's choice: the lesson stays, and the window asks.
  app_->select_lesson("vector-add");
  frame();
  EXPECT_EQ(s.controls.lesson_id, "reductions");
  ASSERT_TRUE(s.switch_offer.has_value());
  EXPECT_EQ(s.switch_offer->lesson_id, "vector-add");
  EXPECT_NE(s.switch_offer->running.find("timed run"), std::string::npos)
      << s.switch_offer->running;
  keep_shot("switch-offer-1280x720.png");
  // "Keep it running": nothing changes.
  app_->decline_switch_offer();
  frame();
  EXPECT_FALSE(s.switch_offer.has_value());
  EXPECT_TRUE(app_->busy());
  EXPECT_EQ(s.controls.lesson_id, "reductions");
  // Asked again and accepted: the run stops and the lesson opens, within the bound, with frames
  // drawn meanwhile.
  app_->select_lesson("vector-add");
  ASSERT_TRUE(s.switch_offer.has_value());
  const auto accepted = Clock::now();
  app_->accept_switch_offer();
  const int frames =
      frames_until([&] { return s.controls.lesson_id == "vector-add"; }, std::chrono::seconds(60));
  const double latency = seconds_since(accepted);
  std::printf("switched in %.3f s, %d frames drawn meanwhile\n", latency, frames);
  EXPECT_EQ(s.controls.lesson_id, "vector-add");
  EXPECT_LT(latency, std::chrono::duration<double>(kCancelBound).count());
  EXPECT_FALSE(s.switch_offer.has_value());
  // The new lesson launched: its picture is there.
  test_support::wait_until_idle(*app_);
  frame();
  EXPECT_TRUE(s.trace.valid) << s.trace.error;
  EXPECT_EQ(s.trace.launched.lesson_id, "vector-add");
}

// Idle, the window waits for input instead of redrawing (the review measured half a core): a few
// frames settle what came last, then about one frame per RedrawPolicy::kIdleSeconds. While work
// runs it draws every frame.
TEST_F(WindowRunsTest, AnIdleWindowDrawsFewFramesAndARunningOneMany) {
  auto frames_in = [&](std::chrono::milliseconds span) {
    const auto end = Clock::now() + span;
    int frames = 0;
    while (Clock::now() < end) {
      ui_->wait_for_next_frame(*app_);
      ui_->draw_frame(*app_);
      ui_->show_frame();
      ++frames;
    }
    return frames;
  };
  ASSERT_FALSE(app_->wants_frames());
  const int idle = frames_in(std::chrono::seconds(4));
  std::printf("idle: %d frames in 4 s\n", idle);
  // The settling frames and one per idle wait (4 s / 2 s): five alone. The slack is for another
  // window on the same X display (focus and expose events each settle a few frames); an idle
  // window that redraws draws ten frames a second or more here.
  EXPECT_LE(idle, RedrawPolicy::kSettleFrames + 6) << "an idle window kept redrawing";
  launch_the_long_sum();
  const int running = frames_in(std::chrono::seconds(2));
  std::printf("running: %d frames in 2 s\n", running);
  EXPECT_GT(running, idle) << "a running window should redraw to show its progress";
  EXPECT_GE(running, 4);
}

// Presenter mode at 720p draws larger than the desk (it was capped at the desk's 1.125× without a
// word, so 1.5× and 3× gave the same pixels); asked for more than the window holds, it says why.
// At 1080p the timing table shows all its rows and the plot keeps a usable height.
TEST_F(WindowRunsTest, PresenterModeAt720pIsLargerThanTheDeskAndSaysWhereItStops) {
  const AppState& s = app_->state();
  for (int i = 0; i < 3; ++i) frame();
  const float desk_font = ImGui::GetFontSize();
  const float desk_scale = ui_->drawn_scale();
  EXPECT_EQ(desk_scale, 1.0f);
  app_->set_presenter(true);
  app_->set_fullscreen(false);  // the 1280 × 720 window itself, not the virtual screen
  for (int i = 0; i < 3; ++i) frame();
  const float presenter_font = ImGui::GetFontSize();
  std::printf("desk: font %.1f px at %.3f; presenter: font %.1f px at %.3f\n", desk_font,
              desk_scale, presenter_font, ui_->drawn_scale());
  EXPECT_EQ(ui_->drawn_scale(), 1.25f);
  EXPECT_GT(ui_->drawn_scale(), max_scale_for_window(1280, 720))
      << "presenter mode at 720p is no larger than the desk could be";
  EXPECT_GE(presenter_font, desk_font * 1.2f) << "presenter mode at 720p is no larger";
  // 1.5× asked (the default), 1.25× drawn: the View menu and the status bar say why.
  EXPECT_NE(s.classroom.scale_note.find("1280 × 720"), std::string::npos) << s.classroom.scale_note;
  keep_shot("presenter-1280x720-1.5.png");
  // 3× asked: the same 1.25×, and the note names what was asked.
  app_->set_presenter_scale(3.0f);
  for (int i = 0; i < 3; ++i) frame();
  EXPECT_EQ(ui_->drawn_scale(), 1.25f);
  EXPECT_EQ(ui_->asked_scale(), 3.0f);
  EXPECT_NE(s.classroom.scale_note.find("1280 × 720"), std::string::npos) << s.classroom.scale_note;
  EXPECT_NE(s.classroom.scale_note.find("3.00×"), std::string::npos) << s.classroom.scale_note;
  ASSERT_FALSE(s.messages.empty());
  EXPECT_NE(s.messages.back().text.find(s.classroom.scale_note), std::string::npos)
      << s.messages.back().text;
  keep_shot("presenter-1280x720-3.0.png");
}

TEST_F(WindowRunsTest, PresenterModeAt1080pKeepsTheTimingTableAndThePlot) {
  const AppState& s = app_->state();
  // A plot and a table of several rows: the lesson's block sweep, then a timed launch.
  app_->apply_lesson_action("threadlab:set?lesson=vector-add&n=4096&sweep=block");
  test_support::wait_until_idle(*app_);
  app_->launch();
  test_support::wait_until_idle(*app_);
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  ASSERT_FALSE(s.timing.shown.empty());
  glfwSetWindowSize(ui_->window().native(), 1920, 1080);
  app_->set_presenter(true);
  app_->set_fullscreen(false);
  app_->set_presenter_scale(2.0f);
  for (int i = 0; i < 4; ++i) frame();
  ASSERT_EQ(ui_->window().framebuffer_size().height, 1080) << "the window was not resized";
  EXPECT_EQ(ui_->drawn_scale(), 1.875f) << "more than the desk's 1.75";
  keep_shot("presenter-1920x1080-2.0.png");
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const auto report = drawn_child("launch_report");
  const auto table = drawn_table("launch_report");
  ASSERT_TRUE(report && table) << "no timing table drawn";
  // Beside the plot, in the results panel: at 1.875x a projector's 1080 lines hold about seven of
  // its lines there (the rest scrolls); the review found none at all.
  const float visible = visible_height(*table, *report);
  std::printf("1080p presenter: table %.0f px, %.0f px of it visible (%.1f lines)\n",
              table->height(), visible, visible / line);
  EXPECT_TRUE(report->inside(Rect{0, 0, 1920, 1080}));
  EXPECT_GE(visible, line * 5) << "the timing table shows too little: table " << table->y0 << "-"
                               << table->y1 << " in " << report->y0 << "-" << report->y1;
  const auto plot = drawn_child("plot");
  ASSERT_TRUE(plot) << "no plot drawn";
  std::printf("1080p presenter at 2x: plot %.0f px tall (%.1f lines), table %.0f px\n",
              plot->height(), plot->height() / line, table->height());
  // The review measured about 100 px (three lines) here; the layouts' rule is six.
  EXPECT_GE(plot->height(), line * 6) << "the plot is too low to read from the back of the room";
}

// The Bits tab at 1280 x 720 shows FP32, TF32, FP16 and BF16 (the review saw FP16 cut and BF16
// never, even at 1920 x 1080): its table of one row per format fits the results panel, and each
// format's sign bit is drawn, one red cell per row in the window's pixels.
TEST_F(WindowRunsTest, TheBitsTabShowsAllFourFormatsAt720p) {
  app_->select_lesson("precision");
  test_support::wait_until_idle(*app_);
  ASSERT_EQ(app_->state().view.lesson_tab, "bits") << "the lesson opens on its Bits tab";
  for (int i = 0; i < 4; ++i) frame();
  const auto bits = drawn_child("bits");
  const auto table = drawn_table("bits");
  ASSERT_TRUE(bits && table) << "the Bits tab's table is not drawn";
  EXPECT_TRUE(table->inside(*bits)) << "rows cut: table " << table->y0 << "-" << table->y1 << " in "
                                    << bits->y0 << "-" << bits->y1;
  const std::filesystem::path shot =
      std::filesystem::path(::testing::TempDir()) / "threadlab-window-bits-1280x720.png";
  ASSERT_TRUE(ui_->save_png(shot.string()));
  keep_shot("bits-1280x720.png");
  int width = 0, height = 0, channels = 0;
  unsigned char* rgb = stbi_load(shot.c_str(), &width, &height, &channels, 3);
  ASSERT_NE(rgb, nullptr);
  // Rows of the table holding the sign colour (0.85, 0.35, 0.35): bands of consecutive rows.
  constexpr std::array<int, 3> kSign = {217, 89, 89};
  int bands = 0;
  bool in_band = false;
  for (int y = static_cast<int>(table->y0); y < std::min(height, static_cast<int>(table->y1));
       ++y) {
    bool has = false;
    for (int x = static_cast<int>(table->x0); x < std::min(width, static_cast<int>(table->x1));
         ++x) {
      const unsigned char* p = rgb + (static_cast<std::size_t>(y) * width + x) * 3;
      if (std::abs(p[0] - kSign[0]) <= 3 && std::abs(p[1] - kSign[1]) <= 3 &&
          std::abs(p[2] - kSign[2]) <= 3) {
        has = true;
        break;
      }
    }
    if (has && !in_band) ++bands;
    in_band = has;
  }
  stbi_image_free(rgb);
  EXPECT_EQ(bands, 4) << "sign bits drawn for " << bands << " of the four formats";
}

// The reductions' launch panel has seven fields; its timed table keeps a region of its own under
// them, so its rows show (the review saw one row at 1600 x 1000) and the rest scroll there.
TEST_F(WindowRunsTest, TheReductionsTimingTableShowsItsRows) {
  const AppState& s = app_->state();
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  glfwSetWindowSize(ui_->window().native(), 1600, 1000);
  for (int i = 0; i < 4; ++i) frame();
  ASSERT_EQ(ui_->window().framebuffer_size().height, 1000) << "the window was not resized";
  keep_shot("reductions-table-1600x1000.png");
  const auto report = drawn_child("launch_report");
  const auto table = drawn_table("launch_report");
  ASSERT_TRUE(report && table) << "no timing table drawn";
  std::size_t rows = 0;
  for (const auto& row : s.timed.report->rows) rows += row.stats.empty() ? 0 : 1;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float visible = visible_height(*table, *report);
  std::printf("reductions at 1600x1000: %zu rows, table %.0f px, %.0f px visible (%.1f lines)\n",
              rows, table->height(), visible, visible / line);
  // Its region is as tall as its content up to 66 % of the panel: with 18 rows here, ten or more
  // show and the rest scroll in the region (the review saw one).
  EXPECT_GE(visible, line * std::min<float>(10.0f, static_cast<float>(rows)))
      << "the table shows too few rows: table " << table->y0 << "-" << table->y1 << " in "
      << report->y0 << "-" << report->y1;
}

}  // namespace
}  // namespace tl::ui
