// The Kernel Lab's commands against the files a class really hands in: text that is not UTF-8,
// Windows and old-Mac line endings, a byte order mark, block sizes no GPU launches, and grade
// folders holding links, FIFOs, subfolders and odd names. Everything runs on the CPU emulator.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_process.hpp"

extern char** environ;

namespace tl::cli_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// A fresh folder for one test, removed after it.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string pattern = (fs::temp_directory_path() / "threadlab-lab-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchFolder() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

const std::string& solution() {
  static const std::string text = run_threadlab({"lab", "solution", "vector-add"}).out;
  return text;
}

std::string with_line_endings(const std::string& text, const std::string& ending) {
  std::string converted;
  for (char c : text) {
    if (c == '\n') {
      converted += ending;
    } else {
      converted += c;
    }
  }
  return converted;
}

// RFC 4180: fields separated by commas, a quoted field may hold commas, doubled quotes and line
// breaks.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::exchange(field, {}));
    } else if (c == '\n') {
      row.push_back(std::exchange(field, {}));
      rows.push_back(std::exchange(row, {}));
    } else {
      field += c;
    }
  }
  if (!field.empty() || !row.empty()) {
    row.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

std::vector<std::string> lab_args(const std::string& command, const fs::path& file,
                                  std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"lab",        command,     file.string(), "--exercise",
                                "vector-add", "--backend", "emulator"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The compiler's messages name the learner's file, not kernel.cu (the name the worker compiles it
// under): the line to fix is in the file they wrote.
TEST(LabSubmissionText, CompileErrorsNameTheLearnersFile) {
  ScratchFolder folder;
  const fs::path file = folder.path() / "mine.cu";
  write_file(file,
             "__global__ void vector_add(Array<const float> a, Array<const float> b, "
             "Array<float> c, int n) {\n  int i = ;\n}\n");
  const ProcessResult r = run_threadlab(lab_args("check", file));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("mine.cu:2:")) << r.describe();
  EXPECT_THAT(r.out + r.err, Not(HasSubstr("kernel.cu"))) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("mine.cu does not compile")) << r.describe();
}

TEST(LabSubmissionText, ANonUtf8ByteIsNamedAtItsLineNotACrash) {
  ScratchFolder folder;
  const fs::path file = folder.path() / "b.cu";
  write_file(file, "// caf\xe9\n" + solution());
  const ProcessResult r = run_threadlab(lab_args("check", file));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("b.cu line 1: not UTF-8 (save the file as UTF-8)")) << r.describe();
}

TEST(LabSubmissionText, ANonUtf8ByteOnALaterLineIsNamedThere) {
  ScratchFolder folder;
  const fs::path file = folder.path() / "late.cu";
  write_file(file, solution() + "// \xff\xfe\n");
  const ProcessResult r = run_threadlab(lab_args("run", file, {"--format", "json"}));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  const nlohmann::json verdict = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(verdict.is_discarded()) << r.describe();
  EXPECT_EQ(verdict["outcome"], "compile-error");
  const std::size_t lines =
      static_cast<std::size_t>(std::count(solution().begin(), solution().end(), '\n'));
  EXPECT_THAT(verdict["reason"].get<std::string>(),
              HasSubstr("late.cu line " + std::to_string(lines + 1) + ": not UTF-8"));
}

TEST(LabSubmissionText, AByteOrderMarkAndCrOrCrlfLineEndingsCompile) {
  ScratchFolder folder;
  const std::map<std::string, std::string> files{{"bom.cu", "\xEF\xBB\xBF" + solution()},
                                                 {"crlf.cu", with_line_endings(solution(), "\r\n")},
                                                 {"cr.cu", with_line_endings(solution(), "\r")}};
  for (const auto& [name, text] : files) {
    write_file(folder.path() / name, text);
    const ProcessResult r = run_threadlab(lab_args("check", folder.path() / name));
    ASSERT_TRUE(r.exited) << name << ": " << r.describe();
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.describe();
  }
}

// A Latin-1 comment between good files: its own row says why, and every other file is graded,
// in JSON too (whose rows were all lost when one file aborted the run).
TEST(LabGradeText, ALatin1FileBetweenGoodOnesKeepsEveryRow) {
  ScratchFolder folder;
  write_file(folder.path() / "alice.cu", solution());
  write_file(folder.path() / "bob.cu", "// Bj\xf6rn's kernel\n" + solution());
  write_file(folder.path() / "carol.cu", solution());
  write_file(folder.path() / "dave.cu", solution());
  const ProcessResult r = run_threadlab(lab_args("grade", folder.path(), {"--format", "json"}));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  const nlohmann::json rows = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(rows.is_array()) << r.describe();
  ASSERT_EQ(rows.size(), 4u) << r.describe();
  std::map<std::string, std::string> outcomes;
  for (const nlohmann::json& row : rows) outcomes[row["file"]] = row["outcome"];
  EXPECT_EQ(outcomes["alice.cu"], "passed");
  EXPECT_EQ(outcomes["bob.cu"], "compile-error");
  EXPECT_EQ(outcomes["carol.cu"], "passed");
  EXPECT_EQ(outcomes["dave.cu"], "passed");
  EXPECT_THAT(rows[1]["reason"].get<std::string>(), HasSubstr("bob.cu line 1: not UTF-8"));
}

// Blocks no GPU launches are refused before anything runs (they once divided by zero: SIGFPE),
// and so are dimensions a 1-D exercise would silently drop.
TEST(LabBlock, BlocksNoGpuLaunchesAreBadUsageOnEveryCommand) {
  ScratchFolder folder;
  const fs::path file = folder.path() / "s.cu";
  write_file(file, solution());
  for (const std::string block : {"0", "0,1", "1,0", "0x0", "1024,1024", "1025", "2,2,512"}) {
    for (const std::string command : {"check", "run", "grade", "watch"}) {
      std::vector<std::string> extra{"--block", block};
      if (command == "watch") extra.insert(extra.end(), {"--max-checks", "1"});
      const ProcessResult r =
          run_threadlab(lab_args(command, command == "grade" ? folder.path() : file, extra));
      ASSERT_TRUE(r.exited) << command << " --block " << block << ": " << r.describe();
      EXPECT_EQ(r.exit_code, 2) << command << " --block " << block << ": " << r.describe();
      const std::vector<std::string> lines = split_lines(r.err);
      ASSERT_EQ(lines.size(), 1u) << command << " --block " << block << ": " << r.describe();
      EXPECT_THAT(lines[0], HasSubstr("a block holds 1 to 1024 threads")) << r.describe();
    }
  }
}

TEST(LabBlock, ASecondDimensionA1DExerciseIgnoresIsRefused) {
  ScratchFolder folder;
  const fs::path file = folder.path() / "s.cu";
  write_file(file, solution());
  for (const std::string block : {"256,0", "256,2", "128,1,2"}) {
    const ProcessResult r = run_threadlab(lab_args("check", file, {"--block", block}));
    ASSERT_TRUE(r.exited) << block << ": " << r.describe();
    EXPECT_EQ(r.exit_code, 2) << block << ": " << r.describe();
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.describe();
  }
  const ProcessResult plain = run_threadlab(lab_args("check", file, {"--block", "128,1"}));
  EXPECT_EQ(plain.exit_code, 0) << plain.describe();
}

// A folder as a class hands it in, and worse: every entry gets a row, graded or skipped with the
// reason; links never lead out of the folder or round in a loop; the CSV is RFC 4180.
TEST(LabGradeFolder, EveryEntryIsAccountedForAndNoLinkIsFollowedOut) {
  ScratchFolder folder;
  const fs::path g = folder.path();
  write_file(g / "alice.cu", solution());
  write_file(g / "UPPER.CU", solution());
  write_file(g / "q\",evil.cu", solution());
  write_file(g / "kernel.cu.txt", solution());
  fs::create_directory(g / "sub");
  write_file(g / "sub" / "student.cu", solution());
  ASSERT_EQ(::mkfifo((g / "fifo.cu").c_str(), 0600), 0);
  fs::create_symlink("nowhere.cu", g / "dangling.cu");
  fs::create_symlink("loop2.cu", g / "loop1.cu");
  fs::create_symlink("loop1.cu", g / "loop2.cu");
  fs::create_symlink("/etc/passwd", g / "passwd_link.cu");
  fs::create_symlink("/dev/zero", g / "zero.cu");
  fs::create_symlink("sub", g / "dirlink.cu");
  fs::create_symlink("alice.cu", g / "alias.cu");

  const ProcessResult r = run_threadlab(lab_args("grade", g));
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::vector<std::vector<std::string>> rows = parse_csv(r.out);
  ASSERT_EQ(rows.size(), 14u) << r.describe();  // the header and one row per entry
  std::map<std::string, std::vector<std::string>> by_file;
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 7u) << r.out;
    by_file[row[0]] = row;
  }
  const std::map<std::string, std::string> expected{
      {"alice.cu", "passed"},   {"UPPER.CU", "passed"},        {"q\",evil.cu", "passed"},
      {"alias.cu", "passed"},   {"kernel.cu.txt", "skipped"},  {"sub", "skipped"},
      {"fifo.cu", "skipped"},   {"dangling.cu", "skipped"},    {"loop1.cu", "skipped"},
      {"loop2.cu", "skipped"},  {"passwd_link.cu", "skipped"}, {"zero.cu", "skipped"},
      {"dirlink.cu", "skipped"}};
  for (const auto& [file, outcome] : expected) {
    ASSERT_TRUE(by_file.contains(file)) << file << "\n" << r.out;
    EXPECT_EQ(by_file[file][1], outcome) << file << "\n" << r.out;
  }
  EXPECT_THAT(by_file["passwd_link.cu"][6], HasSubstr("out of the folder"));
  EXPECT_THAT(by_file["loop1.cu"][6], HasSubstr("loop"));
  EXPECT_THAT(by_file["dangling.cu"][6], HasSubstr("dangling"));
  EXPECT_THAT(by_file["fifo.cu"][6], HasSubstr("FIFO"));
  EXPECT_THAT(by_file["sub"][6], HasSubstr("subfolder"));
  EXPECT_THAT(by_file["dirlink.cu"][6], HasSubstr("directory"));
  EXPECT_THAT(r.err, HasSubstr("graded 4 files, skipped 9"));
  EXPECT_EQ(r.out.find("root:"), std::string::npos) << "/etc/passwd leaked into the output";
}

// A file name is the one thing in a grade folder a student fully controls: one holding a newline
// or a terminal escape is escaped on stderr (the progress line, the skipped list), never raw. On
// stdout the CSV quotes it (RFC 4180).
TEST(LabGradeFolder, NamesWithNewlinesOrEscapesStayOnTheirLine) {
  ScratchFolder folder;
  write_file(folder.path() / "two\nlines.txt", solution());
  const ProcessResult none = run_threadlab(lab_args("grade", folder.path()));
  ASSERT_TRUE(none.exited) << none.describe();
  EXPECT_EQ(none.exit_code, 2) << none.describe();
  const std::vector<std::string> lines = split_lines(none.err);
  ASSERT_EQ(lines.size(), 2u) << none.describe();
  EXPECT_EQ(lines[0], "skipped two\\nlines.txt: not a .cu file");

  write_file(folder.path() / "clear\x1b[2J.cu", solution());
  const ProcessResult graded = run_threadlab(lab_args("grade", folder.path()));
  ASSERT_TRUE(graded.exited) << graded.describe();
  EXPECT_EQ(graded.exit_code, 0) << graded.describe();
  EXPECT_EQ(graded.err.find('\x1b'), std::string::npos) << graded.describe();
  EXPECT_THAT(graded.err, HasSubstr("clear\\x1b[2J.cu")) << graded.describe();
}

// A file the grader cannot read gets the row "unreadable" with the reason, never "failed" (a wrong
// kernel's outcome), and the files after it are still graded. Root reads a chmod 000 file, so the
// file that is unreadable everywhere is one past the Lab's 1 MiB limit (sparse: it takes no disk);
// where the tests do not run as root, a chmod 000 file is added.
TEST(LabGradeFolder, AFileTheGraderCannotReadIsUnreadableNotFailed) {
  ScratchFolder folder;
  write_file(folder.path() / "alice.cu", solution());
  write_file(folder.path() / "huge.cu", solution());
  fs::resize_file(folder.path() / "huge.cu", 2u << 20);
  const bool root = ::geteuid() == 0;
  if (!root) {
    write_file(folder.path() / "locked.cu", solution());
    ASSERT_EQ(::chmod((folder.path() / "locked.cu").c_str(), 0), 0);
  }
  write_file(folder.path() / "zed.cu", solution());
  const ProcessResult r = run_threadlab(lab_args("grade", folder.path()));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  std::map<std::string, std::vector<std::string>> by_file;
  for (const auto& row : parse_csv(r.out)) {
    ASSERT_EQ(row.size(), 7u) << r.out;
    by_file[row[0]] = row;
  }
  ASSERT_EQ(by_file.size(), root ? 4u : 5u) << r.describe();  // the header and a row per file
  EXPECT_EQ(by_file["alice.cu"][1], "passed") << r.out;
  EXPECT_EQ(by_file["huge.cu"][1], "unreadable") << r.out;
  EXPECT_THAT(by_file["huge.cu"][6], HasSubstr("over 1 MiB")) << r.out;
  if (!root) {
    EXPECT_EQ(by_file["locked.cu"][1], "unreadable") << r.out;
    EXPECT_THAT(by_file["locked.cu"][6], HasSubstr("Permission denied")) << r.out;
  }
  EXPECT_EQ(by_file["zed.cu"][1], "passed") << r.out;
}

// `lab watch` on a path that does not exist once waited in silence for a save that never came: a
// typo is now an exit 2 that names --wait, and something that is not a file is refused too.
TEST(LabWatch, AMissingFileIsBadUsageNamingWait) {
  ScratchFolder folder;
  const ProcessResult r = run_threadlab(lab_args("watch", folder.path() / "typo.cu"));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  const std::vector<std::string> lines = split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("typo.cu: no such file"));
  EXPECT_THAT(lines[0], HasSubstr("--wait"));
  EXPECT_EQ(r.out, "") << "nothing is watched";

  // A FIFO would block the read, a folder is no source: check and run refuse them the same way.
  ASSERT_EQ(::mkfifo((folder.path() / "fifo.cu").c_str(), 0600), 0);
  for (const std::string command : {"watch", "check", "run"}) {
    for (const fs::path& not_a_file : {folder.path() / "fifo.cu", folder.path()}) {
      const ProcessResult refused = run_threadlab(lab_args(command, not_a_file));
      ASSERT_TRUE(refused.exited) << refused.describe();
      EXPECT_EQ(refused.exit_code, 2) << refused.describe();
      EXPECT_THAT(refused.err, HasSubstr("not a regular file")) << refused.describe();
    }
  }
}

// With --wait the file may come later: the watch says it is waiting, and checks the file once it
// is there. The file is written only after that line was read, so the waiting itself is tested.
TEST(LabWatch, WaitWaitsForTheFileToBeCreated) {
  ScratchFolder folder;
  const fs::path file = folder.path() / "later.cu";
  const std::string binary = threadlab_binary();
  std::vector<std::string> args = lab_args("watch", file, {"--wait", "--max-checks", "1"});
  args.insert(args.begin(), binary);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  pid_t watch = 0;
  ASSERT_EQ(::posix_spawn(&watch, binary.c_str(), &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);

  std::string out;
  bool created = false;
  char chunk[4096];
  for (;;) {
    const ssize_t got = ::read(pipe_fds[0], chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    out.append(chunk, static_cast<std::size_t>(got));
    if (!created && out.find('\n') != std::string::npos) {
      EXPECT_THAT(out, HasSubstr("waiting for " + file.string()));
      write_file(file, solution());
      created = true;
    }
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(watch, &status, 0), watch);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 0) << out;
  EXPECT_TRUE(created) << out;
  EXPECT_THAT(out, HasSubstr("vector-add: passed")) << out;
}

// The processes whose parent is `parent`, from /proc.
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream status(entry.path() / "status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("PPid:", 0) == 0) {
        if (std::stol(line.substr(5)) == parent) children.push_back(std::stoi(name));
        break;
      }
    }
  }
  return children;
}

// Every process under `parent` (the sandbox's relay and the worker it waits for, say).
std::vector<pid_t> descendants_of(pid_t parent) {
  std::vector<pid_t> all;
  for (const pid_t child : children_of(parent)) {
    all.push_back(child);
    for (const pid_t below : descendants_of(child)) all.push_back(below);
  }
  return all;
}

// The CPU time `pid` has used, in clock ticks (0 once it is gone).
long cpu_ticks(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  long utime = 0;
  long stime = 0;
  // Fields 3.. after the name: state, ppid, ..., utime is the 14th and stime the 15th overall.
  for (int index = 3; index <= 15 && fields >> field; ++index) {
    if (index == 14) utime = std::atol(field.c_str());
    if (index == 15) stime = std::atol(field.c_str());
  }
  return utime + stime;
}

// Running, not gone and not a zombie nobody reaped (a container's init may not reap).
bool still_runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');
  if (paren == std::string::npos || paren + 2 >= text.size()) return false;
  return text[paren + 2] != 'Z' && text[paren + 2] != 'X';
}

std::vector<std::string> segments_of(pid_t pid) {
  std::vector<std::string> names;
  std::error_code error;
  const std::string prefix = "threadlab-lab-" + std::to_string(pid) + "-";
  for (const auto& entry : fs::directory_iterator("/dev/shm", error)) {
    if (entry.path().filename().string().starts_with(prefix)) {
      names.push_back(entry.path().filename().string());
    }
  }
  return names;
}

// `lab check` killed with SIGKILL while its kernel spins: no worker goes on running and no
// shared-memory segment stays in /dev/shm (both once did, for up to RLIMIT_CPU and until reboot).
TEST(LabWorkerLifetime, KillingTheCheckLeavesNoWorkerAndNoSegment) {
  ScratchFolder folder;
  // The kernel spins: the sandbox lets it write nothing outside, so its start is seen from here,
  // as a worker process that uses CPU time.
  std::string source = solution();
  const std::size_t body = source.find('{', source.find("__global__"));
  source.insert(body + 1, "\n  volatile int spin = 1;\n  while (spin) {}\n");
  write_file(folder.path() / "loop.cu", source);

  const std::string binary = threadlab_binary();
  const std::string file = (folder.path() / "loop.cu").string();
  std::vector<std::string> args{binary,       "lab",       "check",    file,           "--exercise",
                                "vector-add", "--backend", "emulator", "--timeout-ms", "600000"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t check = 0;
  ASSERT_EQ(::posix_spawn(&check, binary.c_str(), &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);

  // The kernel runs once a worker has spun for a second of CPU (after its compile: up to a
  // minute on a busy machine).
  std::vector<pid_t> workers;
  bool spinning = false;
  for (int i = 0; i < 1800 && !spinning; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    workers = descendants_of(check);
    spinning = std::any_of(workers.begin(), workers.end(),
                           [](pid_t pid) { return cpu_ticks(pid) > ::sysconf(_SC_CLK_TCK); });
  }
  ::kill(check, SIGKILL);
  ::waitpid(check, nullptr, 0);
  ASSERT_TRUE(spinning) << "the kernel never started";
  ASSERT_FALSE(workers.empty()) << "no worker was found under the check's process";
  bool gone = false;
  for (int i = 0; i < 400 && !gone; ++i) {
    gone = std::none_of(workers.begin(), workers.end(), still_runs);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(gone) << "the worker outlived the killed check";
  for (const pid_t worker : workers) {
    if (still_runs(worker)) ::kill(-worker, SIGKILL);
  }
  const std::vector<std::string> left = segments_of(check);
  EXPECT_TRUE(left.empty()) << "left in /dev/shm: " << (left.empty() ? "" : left.front());
  for (const std::string& name : left) ::unlink(("/dev/shm/" + name).c_str());
}

// `threadlab worker` is started by the Lab with its pipes on 3 and 4; by hand it says so.
TEST(LabWorkerLifetime, AWorkerStartedByHandIsBadUsage) {
  ScratchFolder folder;
  const fs::path err = folder.path() / "err.txt";
  const std::string command = "exec 3<&- 4<&-; exec '" + threadlab_binary() + "' worker 2>'" +
                              err.string() + "' </dev/null >/dev/null";
  const int status = std::system(("/bin/sh -c \"" + command + "\"").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::ifstream in(err);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::vector<std::string> lines = split_lines(text);
  ASSERT_EQ(lines.size(), 1u) << text;
  EXPECT_THAT(lines[0], HasSubstr("threadlab: worker is for the Kernel Lab's internal use"));
}

// A request line that never ends (/dev/zero on the request pipe) was read into memory without
// limit; past 64 MiB it is refused, with the reason on the reply pipe. The address-space limit
// keeps the old behaviour a failed test rather than a machine out of memory.
TEST(LabWorkerLifetime, ARequestWithoutEndIsRefusedNotReadForever) {
  ScratchFolder folder;
  const fs::path reply = folder.path() / "reply.txt";
  const std::string command = "ulimit -v 4000000; exec '" + threadlab_binary() +
                              "' worker 3</dev/zero 4>'" + reply.string() +
                              "' </dev/null >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::ifstream in(reply);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("more than 64 MiB")) << text;
}

}  // namespace
}  // namespace tl::cli_test
