#include "core/user_files.hpp"

#include <gtest/gtest.h>

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

// Nothing but the named file in `dir`: no temporary file left behind.
std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

// Fails one of the calls with an errno, as a full or read-only disk would.
class FailingCalls : public FileWriteCalls {
 public:
  enum class Step { kWrite, kFsync, kClose, kRename };
  FailingCalls(Step step, int error) : step_(step), error_(error) {}
  ssize_t write(int fd, const void* data, std::size_t size) override {
    if (step_ == Step::kWrite) return fail();
    return FileWriteCalls::write(fd, data, size);
  }
  int fsync(int fd) override {
    if (step_ == Step::kFsync) return fail();
    return FileWriteCalls::fsync(fd);
  }
  int close(int fd) override {
    const int closed = FileWriteCalls::close(fd);
    if (step_ == Step::kClose) return fail();  // the close itself reports the lost write
    return closed;
  }
  int rename(const char* from, const char* to) override {
    if (step_ == Step::kRename) return fail();
    return FileWriteCalls::rename(from, to);
  }

 private:
  int fail() const {
    errno = error_;
    return -1;
  }
  Step step_;
  int error_;
};

TEST(UserFiles, AFailureAtAnyStepKeepsTheOldFileRemovesTheTemporaryAndSaysWhy) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_user_files_faults";
  for (const auto step : {FailingCalls::Step::kWrite, FailingCalls::Step::kFsync,
                          FailingCalls::Step::kClose, FailingCalls::Step::kRename}) {
    std::filesystem::remove_all(dir);
    const auto path = dir / "progress.json";
    ASSERT_TRUE(write_file_atomically(path, "{\"good\": 1}\n").is_ok());
    FailingCalls calls(step, ENOSPC);
    const Status written = write_file_atomically(path, "{}", calls);
    ASSERT_FALSE(written.is_ok()) << static_cast<int>(step);
    EXPECT_EQ(written.error().kind, ErrorKind::kIoError);
    EXPECT_NE(written.message().find(path.string()), std::string::npos) << written.message();
    EXPECT_NE(written.message().find("No space left on device"), std::string::npos)
        << written.message();
    EXPECT_EQ(read(path), "{\"good\": 1}\n") << static_cast<int>(step);
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"progress.json"});
  }
}

// A file another program wrote (the Lab's compiler output) is installed by the same last steps:
// renamed over the old one, or, where that fails, removed with the old one kept.
TEST(UserFiles, ACommittedFileReplacesTheOldOneAndAFailedCommitKeepsIt) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_user_files_commit";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto path = dir / "kernel.so";
  ASSERT_TRUE(write_file_atomically(path, "old\n").is_ok());
  std::ofstream(dir / "kernel.so.tmp1") << "new\n";
  ASSERT_TRUE(commit_file(dir / "kernel.so.tmp1", path).is_ok());
  EXPECT_EQ(read(path), "new\n");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"kernel.so"});

  // Renaming a file over a folder fails: the temporary goes, the folder stays.
  std::filesystem::create_directories(dir / "taken");
  std::ofstream(dir / "taken.tmp") << "x";
  const Status refused = commit_file(dir / "taken.tmp", dir / "taken");
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("taken"), std::string::npos) << refused.message();
  EXPECT_FALSE(std::filesystem::exists(dir / "taken.tmp"));
  EXPECT_TRUE(std::filesystem::is_directory(dir / "taken"));
  EXPECT_FALSE(commit_file(dir / "absent.tmp", dir / "absent").is_ok());
}

TEST(UserFiles, AReadOnlyFileSystemIsNamedInTheMessage) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_user_files_erofs";
  std::filesystem::remove_all(dir);
  FailingCalls calls(FailingCalls::Step::kRename, EROFS);
  const Status written = write_file_atomically(dir / "progress.json", "{}", calls);
  ASSERT_FALSE(written.is_ok());
  EXPECT_NE(written.message().find("Read-only file system"), std::string::npos)
      << written.message();
  EXPECT_EQ(written.message().find(".tmp"), std::string::npos) << written.message();
}

// The real fault: a small tmpfs filled to the last page. Before the fix, a file under 1 KiB was
// replaced by an empty one, because the error appeared only in the stream's destructor.
TEST(UserFiles, AFullDiskKeepsTheOldSmallFile) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_user_files_full";
  std::filesystem::create_directories(dir);
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=64k") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno)
                 << ": needs root or CAP_SYS_ADMIN); the injected faults above cover the logic";
  }
  const auto path = dir / "progress.json";
  const bool saved = write_file_atomically(path, "{\"exercises\": {\"vector-add\": {}}}\n").is_ok();
  {
    std::ofstream fill(dir / "fill", std::ios::binary);
    const std::string block(4096, 'x');
    for (int i = 0; i < 64 && fill; ++i) fill.write(block.data(), block.size());
  }
  const Status written = write_file_atomically(path, "{\"exercises\": {}}\n");
  const std::string after = read(path);
  const std::vector<std::string> names = names_in(dir);
  ::umount(dir.c_str());
  ASSERT_TRUE(saved);
  ASSERT_FALSE(written.is_ok());
  EXPECT_NE(written.message().find("No space left on device"), std::string::npos)
      << written.message();
  EXPECT_EQ(after, "{\"exercises\": {\"vector-add\": {}}}\n");
  EXPECT_EQ(names.size(), 2u);  // progress.json and fill, no temporary
}

TEST(UserFiles, AnOutputThatIsADeviceIsWrittenInPlaceAndAFullOneFails) {
  const Status written = write_output_file("/dev/full", "a PNG\n");
  ASSERT_FALSE(written.is_ok());
  EXPECT_NE(written.message().find("No space left on device"), std::string::npos)
      << written.message();
  struct stat info {};
  ASSERT_EQ(::stat("/dev/full", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));  // still the device, never renamed over
  EXPECT_TRUE(write_output_file("/dev/null", "x").is_ok());
}

TEST(UserFiles, MovingAsideNeverOverwritesAnEarlierCopy) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_user_files_aside";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto path = dir / "progress.json";
  std::ofstream(path) << "first";
  ASSERT_TRUE(move_aside(path, ".unreadable").is_ok());
  std::ofstream(path) << "second";
  const Result<std::filesystem::path> second = move_aside(path, ".unreadable");
  ASSERT_TRUE(second.is_ok());
  EXPECT_EQ(read(dir / "progress.json.unreadable"), "first");
  EXPECT_EQ(read(*second), "second");
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(UserFiles, InputsMustBeRegularFilesOfBoundedSize) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "threadlab_user_files_inputs";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto fifo = dir / "settings.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Result<std::string> from_fifo = read_input_file(fifo);  // must not block
  ASSERT_FALSE(from_fifo.is_ok());
  EXPECT_NE(from_fifo.message().find("FIFO"), std::string::npos) << from_fifo.message();
  const Result<std::string> from_zero = read_input_file("/dev/zero");
  ASSERT_FALSE(from_zero.is_ok());
  EXPECT_NE(from_zero.message().find("not a regular file"), std::string::npos);
  std::ofstream(dir / "big") << std::string(2000, 'x');
  EXPECT_FALSE(read_input_file(dir / "big", 1000).is_ok());
  const Result<std::string> fine = read_input_file(dir / "big");
  ASSERT_TRUE(fine.is_ok());
  EXPECT_EQ(fine->size(), 2000u);
}

}  // namespace
}  // namespace tl
