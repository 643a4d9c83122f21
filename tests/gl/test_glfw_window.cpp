#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "platform/glfw_window.hpp"

namespace tl {
namespace {

// Sets or removes an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (previous_) {
      setenv(name_, previous_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> previous_;
};

TEST(GlfwWindow, WithoutDisplayPointsToHeadlessMode) {
  const ScopedEnv no_x11("DISPLAY", nullptr);
  const ScopedEnv no_wayland("WAYLAND_DISPLAY", nullptr);
  Result<std::unique_ptr<platform::GlfwWindow>> window = platform::GlfwWindow::create();
  ASSERT_FALSE(window.is_ok());
  EXPECT_EQ(window.error().kind, ErrorKind::kGraphicsError);
  EXPECT_NE(window.message().find("no display"), std::string::npos) << window.message();
  EXPECT_NE(window.message().find("threadlab render"), std::string::npos) << window.message();
  EXPECT_NE(window.message().find("threadlab gui --headless --screenshot"), std::string::npos)
      << window.message();
}

// Runs for real under xvfb-run (a ctest entry of its own); skipped where no display exists.
TEST(GlfwWindow, OpensHiddenWindowWhenDisplayExists) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "DISPLAY is not set";
  platform::WindowOptions options;
  options.width = 320;
  options.height = 200;
  options.visible = false;
  Result<std::unique_ptr<platform::GlfwWindow>> window = platform::GlfwWindow::create(options);
  ASSERT_TRUE(window.is_ok()) << window.message();
  const platform::FramebufferSize size = (*window)->framebuffer_size();
  EXPECT_GT(size.width, 0);
  EXPECT_GT(size.height, 0);
  EXPECT_FALSE((*window)->renderer().empty());
  EXPECT_FALSE((*window)->should_close());
  (*window)->request_close();
  EXPECT_TRUE((*window)->should_close());
  (*window)->poll_events();
  (*window)->swap_buffers();
}

}  // namespace
}  // namespace tl
