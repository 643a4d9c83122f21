// Help > About in a real window (under Xvfb), opened as a person opens it: xdotool moves the
// pointer onto the Help menu and clicks it, then clicks "About ThreadLab" (issue #38: the package
// name and version in the About box). What the box shows is read from ImGui's own text capture
// (the log it keeps for "copy as text"), switched on for every frame by context hooks, so the
// words checked are the ones drawn, not the ones the code meant to draw. The expected words come
// from CMake (project()'s version, the commit and CUDA version it configured) and from
// `threadlab --version`, not from the build_info functions the box itself calls.

#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>

#include "../cli/cli_process.hpp"
#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "window_ui.hpp"

namespace tl::ui {
namespace {

using Clock = std::chrono::steady_clock;

bool have_xdotool() {
  return std::system("command -v xdotool >/dev/null 2>&1") == 0;
}

// This process's window as xdotool names it (GLFW sets _NET_WM_PID), or empty.
std::string own_window() {
  const std::string search = "timeout 30 xdotool search --sync --onlyvisible --pid " +
                             std::to_string(::getpid()) + " 2>/dev/null";
  std::FILE* pipe = ::popen(search.c_str(), "r");
  if (pipe == nullptr) return {};
  char line[64] = {};
  const bool found = std::fgets(line, sizeof line, pipe) != nullptr;
  ::pclose(pipe);
  std::string window = found ? std::string(line) : std::string();
  window = window.substr(0, window.find('\n'));
  if (window.empty() || window.find_first_not_of("0123456789") != std::string::npos) return {};
  return window;
}

// The text ImGui draws in a frame, in drawing order, one line per row on screen, up to the end of
// the first top-level window to close: ImGui's "copy as text" log, begun after NewFrame. ImGui
// scopes that log to a window and hands it to the clipboard when the window ends (LogFinish in
// End), so the clipboard's setter is this capture's while it lives. The root window draws the menu
// bar first, and an open menu or the About box is the first window to end inside it: its text is
// all there, after the menu bar's. Depth 0, so the capture opens no tree node.
class TextCapture {
 public:
  TextCapture() {
    ImGuiIO& io = ImGui::GetIO();
    saved_setter_ = io.SetClipboardTextFn;
    saved_user_data_ = io.ClipboardUserData;
    io.SetClipboardTextFn = [](void* self, const char* text) {
      static_cast<TextCapture*>(self)->frame_ += text;
    };
    io.ClipboardUserData = this;
    ImGuiContext* context = ImGui::GetCurrentContext();
    ImGuiContextHook begin;
    begin.Type = ImGuiContextHookType_NewFramePost;
    begin.UserData = this;
    begin.Callback = [](ImGuiContext*, ImGuiContextHook* hook) {
      static_cast<TextCapture*>(hook->UserData)->frame_.clear();
      ImGui::LogToClipboard(0);
    };
    begin_ = ImGui::AddContextHook(context, &begin);
    ImGuiContextHook end;
    end.Type = ImGuiContextHookType_EndFramePre;
    end.UserData = this;
    end.Callback = [](ImGuiContext*, ImGuiContextHook* hook) {
      ImGui::LogFinish();  // no window ended this frame: what was drawn outside any
      auto* self = static_cast<TextCapture*>(hook->UserData);
      self->last_frame_ = self->frame_;
    };
    end_ = ImGui::AddContextHook(context, &end);
  }
  ~TextCapture() {
    ImGui::RemoveContextHook(ImGui::GetCurrentContext(), begin_);
    ImGui::RemoveContextHook(ImGui::GetCurrentContext(), end_);
    ImGuiIO& io = ImGui::GetIO();
    io.SetClipboardTextFn = saved_setter_;
    io.ClipboardUserData = saved_user_data_;
  }
  TextCapture(const TextCapture&) = delete;
  TextCapture& operator=(const TextCapture&) = delete;

  [[nodiscard]] const std::string& last_frame() const { return last_frame_; }

 private:
  void (*saved_setter_)(void*, const char*) = nullptr;
  void* saved_user_data_ = nullptr;
  ImGuiID begin_ = 0;
  ImGuiID end_ = 0;
  std::string frame_;
  std::string last_frame_;
};

class AboutBoxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* display = std::getenv("DISPLAY");
    if (display == nullptr || *display == '\0') GTEST_SKIP() << "no X display: run under xvfb-run";
    if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/install-deps.sh)";
    WindowUiOptions options;
    options.window.width = 1280;
    options.window.height = 720;
    options.scale = 1.0f;
    auto ui = WindowUi::create(options);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    auto controller = AppController::create(
        test_support::emulator_options(ui_->renderer(), "threadlab_about_box_test"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
    test_support::wait_until_idle(*app_);
    capture_ = std::make_unique<TextCapture>();
    frame();
    window_ = own_window();
    ASSERT_FALSE(window_.empty()) << "xdotool found no window of this process";
    // No window manager under Xvfb gives the window the focus; the keys would need it.
    ASSERT_EQ(xdotool("windowfocus --sync " + window_), 0);
  }
  void TearDown() override {
    capture_.reset();
    if (app_) test_support::wait_until_idle(*app_);
    app_.reset();  // its GL objects go before the window's context
    ui_.reset();
  }

  static int xdotool(const std::string& arguments) {
    return std::system(("timeout 30 xdotool " + arguments + " >/dev/null 2>&1").c_str());
  }
  void frame() {
    ui_->poll_events();
    ui_->draw_frame(*app_);
    ui_->show_frame();
  }
  // Frames until `done`, ten seconds at most (the X server's events arrive between frames).
  bool frames_until(const std::function<bool()>& done) {
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (!done()) {
      if (Clock::now() > deadline) return false;
      frame();
    }
    return true;
  }
  // The pointer to (x, y) in the window's pixels (the UI is at scale 1, so ImGui's too).
  void point_at(float x, float y) {
    ASSERT_EQ(
        xdotool("mousemove --sync --window " + window_ + " " + std::to_string(static_cast<int>(x)) +
                " " + std::to_string(static_cast<int>(y))),
        0);
  }
  void click_at(float x, float y) {
    point_at(x, y);
    ASSERT_EQ(xdotool("click 1"), 0);
  }

  std::unique_ptr<WindowUi> ui_;
  std::unique_ptr<AppController> app_;
  std::unique_ptr<TextCapture> capture_;
  std::string window_;
};

// The window that holds the menu bar (ui_root.cpp) and the ID ImGui gives its Help menu: the
// label hashed inside the menu bar's ID scope (BeginMenuBar pushes "##menubar").
ImGuiWindow* root_window() {
  return ImGui::FindWindowByName("ThreadLab");
}
ImGuiID help_menu_id(const ImGuiWindow& root) {
  return ImHashStr("Help", 0, ImHashStr("##menubar", 0, root.ID));
}

TEST_F(AboutBoxTest, HelpAboutShowsThePackageNameVersionCommitAndCudaVersion) {
  ImGuiWindow* root = root_window();
  ASSERT_NE(root, nullptr);
  const ImRect bar = root->MenuBarRect();
  ASSERT_GT(bar.GetHeight(), 0.0f) << "the root window has no menu bar";
  const ImGuiID help = help_menu_id(*root);
  const float y = bar.GetCenter().y;

  // Where Help is: the pointer moved along the menu bar until ImGui says Help is under it.
  std::optional<float> help_x;
  for (float x = bar.Min.x + 4.0f; x < bar.Max.x && !help_x; x += 8.0f) {
    point_at(x, y);
    // The pointer's move reaches ImGui with the next events; the hover is then that frame's.
    ASSERT_TRUE(frames_until([&] { return ImGui::GetIO().MousePos.x == std::floor(x); }))
        << "the pointer's move to x " << x << " never reached the window";
    frame();
    if (ImGui::GetCurrentContext()->HoveredId == help) help_x = x;
  }
  ASSERT_TRUE(help_x) << "the pointer never rested on the Help menu";
  ASSERT_EQ(capture_->last_frame().find("About ThreadLab"), std::string::npos)
      << "the Help menu or the box is open before the click";

  click_at(*help_x, y);
  ASSERT_TRUE(frames_until([] {
    return ImGui::GetTopMostPopupModal() == nullptr &&
           !ImGui::GetCurrentContext()->OpenPopupStack.empty();
  })) << "clicking Help opened no menu";
  ImGuiWindow* menu = ImGui::GetCurrentContext()->OpenPopupStack.back().Window;
  ASSERT_NE(menu, nullptr);
  ASSERT_TRUE(frames_until([&] {
    return capture_->last_frame().find("About ThreadLab") != std::string::npos;
  })) << "the Help menu shows no About item:\n"
      << capture_->last_frame();

  // The menu holds the one item: its middle is the item.
  click_at(menu->Pos.x + menu->Size.x * 0.5f, menu->Pos.y + menu->Size.y * 0.5f);
  ASSERT_TRUE(frames_until([] {
    const ImGuiWindow* box = ImGui::GetTopMostPopupModal();
    return box != nullptr && std::string(box->Name) == "About ThreadLab";
  })) << "clicking About ThreadLab opened no About box";
  frame();  // the box has laid itself out (it sizes itself to its text)
  const std::string shown = capture_->last_frame();

  // The package's name and version as the .deb names them (threadlab_<version>_amd64.deb), the
  // commit and the CUDA toolkit, each where a person reads it.
  const std::string version = THREADLAB_EXPECTED_VERSION;
  const std::string commit = THREADLAB_EXPECTED_COMMIT;
  const std::string cuda = THREADLAB_EXPECTED_CUDA;
  ASSERT_FALSE(version.empty());
  EXPECT_NE(shown.find("threadlab " + version), std::string::npos)
      << "no package name and version in:\n"
      << shown;
  EXPECT_NE(shown.find("commit " + commit), std::string::npos) << "no commit in:\n" << shown;
  if (cuda.empty()) {
    EXPECT_NE(shown.find("built without CUDA"), std::string::npos) << shown;
  } else {
    EXPECT_NE(shown.find("CUDA " + cuda), std::string::npos) << "no CUDA version in:\n" << shown;
  }
  // And the very line `threadlab --version` prints.
  const cli_test::ProcessResult printed = cli_test::run_threadlab({"--version"});
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  const std::string line = printed.out.substr(0, printed.out.find('\n'));
  ASSERT_FALSE(line.empty());
  EXPECT_NE(shown.find(line), std::string::npos)
      << "`threadlab --version` printed \"" << line << "\"; the box shows:\n"
      << shown;
}

}  // namespace
}  // namespace tl::ui
