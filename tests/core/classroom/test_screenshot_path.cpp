#include "core/classroom/screenshot_path.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace tl::classroom {
namespace {

TEST(ScreenshotPath, NamedByTimeAndNeverOverwriting) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_shots";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto now = std::chrono::system_clock::now();
  const auto first = next_screenshot_path(dir, now);
  EXPECT_EQ(first.parent_path(), dir);
  EXPECT_EQ(first.extension(), ".png");
  EXPECT_EQ(first.filename().string().rfind("threadlab-", 0), 0u);
  EXPECT_EQ(first.filename().string().size(), std::string("threadlab-20261123-101500.png").size());
  std::ofstream(first) << "x";
  const auto second = next_screenshot_path(dir, now);
  EXPECT_NE(second, first);
  EXPECT_NE(second.filename().string().find("-2.png"), std::string::npos) << second;
  std::ofstream(second) << "x";
  EXPECT_NE(next_screenshot_path(dir, now).filename().string().find("-3.png"), std::string::npos);
}

TEST(ScreenshotPath, ThePicturesFolderFollowsXdgThenHome) {
  ::setenv("XDG_PICTURES_DIR", "/tmp/class-pictures", 1);
  EXPECT_EQ(default_screenshot_dir(), std::filesystem::path("/tmp/class-pictures"));
  ::unsetenv("XDG_PICTURES_DIR");
  const auto home = std::filesystem::path(::testing::TempDir()) / "threadlab_home";
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home);
  ::setenv("HOME", home.c_str(), 1);
  EXPECT_EQ(default_screenshot_dir(), home);
  std::filesystem::create_directories(home / "Pictures");
  EXPECT_EQ(default_screenshot_dir(), home / "Pictures");
}

}  // namespace
}  // namespace tl::classroom
