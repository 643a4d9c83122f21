#include "core/user_files.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace tl {
namespace {

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(UserFiles, FollowXdgThenHome) {
  ::setenv("XDG_STATE_HOME", "/tmp/state", 1);
  EXPECT_EQ(user_file("XDG_STATE_HOME", ".local/state", "x.json"),
            std::filesystem::path("/tmp/state/threadlab/x.json"));
  ::unsetenv("XDG_STATE_HOME");
  ::setenv("HOME", "/home/teacher", 1);
  EXPECT_EQ(user_file("XDG_STATE_HOME", ".local/state", "x.json"),
            std::filesystem::path("/home/teacher/.local/state/threadlab/x.json"));
  ::unsetenv("HOME");
  EXPECT_FALSE(user_file("XDG_STATE_HOME", ".local/state", "x.json").has_value());
}

TEST(UserFiles, WritesCreateTheFolderReplaceTheFileAndLeaveNoTemporary) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_user_files";
  std::filesystem::remove_all(dir);
  const auto path = dir / "deep" / "settings.toml";
  ASSERT_TRUE(write_file_atomically(path, "first\n").is_ok());
  ASSERT_TRUE(write_file_atomically(path, "second\n").is_ok());
  EXPECT_EQ(read(path), "second\n");
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

TEST(UserFiles, AnUnwritablePlaceIsAnIoErrorNamingIt) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_user_files_blocked";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "file") << "a file where a folder should be";
  const Status written = write_file_atomically(dir / "file" / "settings.toml", "x");
  ASSERT_FALSE(written.is_ok());
  EXPECT_EQ(written.error().kind, ErrorKind::kIoError);
  EXPECT_NE(written.message().find("settings.toml"), std::string::npos);
}

}  // namespace
}  // namespace tl
