// Issue 37's "done when", with two real programs on one machine under Xvfb: the teacher plays a
// demo script in `threadlab demo --host-class`, a student's `threadlab gui --join` follows it step
// by step, and the Lab check the student makes in their own process reaches the teacher's board
// (the board file the teacher's process saves) and the board's web page in a real headless browser.
//
// The teacher's window is moved on as a teacher does, with the Right key (xdotool presses it
// through XTEST, the X server's input). Each key is pressed only once the student's window has
// been seen on the step before, so the test never races the network. What the student's window
// shows is read from its own terminal lines ("threadlab: class: following to lesson ..., view
// ..."), which it prints after applying a state, from the window's state, not the message.
// Loopback only; waits are bounded and generous, nothing is timed.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../cli/cli_process.hpp"
#include "../net/headless_chromium.hpp"

extern char** environ;

namespace tl::ui {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr const char* kCode = "K7QM2X";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A free loopback port: bound to 0, read back, closed. The class server binds it a moment later
// with SO_REUSEADDR; nothing else on a test machine picks ports in that range meanwhile.
int free_loopback_port() {
  int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  if (sock < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  int port = 0;
  if (::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::getsockname(sock, reinterpret_cast<sockaddr*>(&address), &size) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(sock);
  return port;
}

// One `threadlab` running in the background, its stdout and stderr in a file the test reads as
// it goes. Ended with SIGTERM (the window closes as if its user closed it), killed if it lingers.
class Program {
 public:
  Program(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
          fs::path log)
      : log_(std::move(log)) {
    std::vector<std::string> argv_text{cli_test::threadlab_binary()};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& arg : argv_text) argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_text;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      std::string text(*entry);
      if (!env.contains(text.substr(0, text.find('=')))) env_text.push_back(text);
    }
    for (const auto& [name, value] : env) env_text.push_back(name + "=" + value);
    std::vector<char*> envp;
    for (auto& entry : env_text) envp.push_back(entry.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&files, 1, 2);
    if (::posix_spawn(&pid_, argv[0], &files, nullptr, argv.data(), envp.data()) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&files);
  }
  ~Program() { stop(); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  [[nodiscard]] bool started() const { return pid_ > 0; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] std::string output() const { return read_text(log_); }
  [[nodiscard]] bool running() {
    if (pid_ <= 0 || exited_) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exited_ = true;
      status_ = status;
    }
    return !exited_;
  }

  // SIGTERM, then up to 30 s for a clean exit; the wait status (or -1 when it had to be killed).
  int stop() {
    if (pid_ <= 0) return -1;
    if (running()) {
      ::kill(pid_, SIGTERM);
      auto deadline = std::chrono::steady_clock::now() + 30s;
      while (running() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
      if (running()) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        exited_ = true;
        status_ = -1;
      }
    }
    return status_;
  }

 private:
  fs::path log_;
  pid_t pid_ = -1;
  bool exited_ = false;
  int status_ = -1;
};

bool wait_for(const std::function<bool()>& condition, std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

bool have_xdotool() {
  return std::system("command -v xdotool >/dev/null 2>&1") == 0;
}

// The Right key in `pid`'s window, as a clicker presses it: the window is given the focus (there
// is no window manager under Xvfb to do it) and the key goes through XTEST. The demo reads a press
// once (no repeat), so holding it moves one step.
bool press_right_in(pid_t pid) {
  const std::string search = "timeout 30 xdotool search --sync --onlyvisible --pid " +
                             std::to_string(pid) + " 2>/dev/null";
  std::FILE* pipe = ::popen(search.c_str(), "r");
  if (pipe == nullptr) return false;
  char line[64] = {};
  const bool found = std::fgets(line, sizeof line, pipe) != nullptr;
  ::pclose(pipe);
  const std::string window = std::string(line).substr(0, std::string(line).find('\n'));
  if (!found || window.empty() || window.find_first_not_of("0123456789") != std::string::npos)
    return false;
  // Held a second, as a finger does: ImGui 1.86 reads the key's state once a frame, so a press and
  // a release that both arrive before a busy window's next frame would be no press at all.
  const std::string press = "timeout 30 xdotool windowfocus --sync " + window +
                            " keydown Right sleep 1 keyup Right >/dev/null 2>&1";
  return std::system(press.c_str()) == 0;
}

// The student's terminal lines that say what its window shows after following.
std::vector<std::string> following_lines(const std::string& output) {
  std::vector<std::string> lines;
  for (const std::string& line : cli_test::split_lines(output)) {
    if (line.rfind("threadlab: class: following to ", 0) == 0) lines.push_back(line);
  }
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += "\n  " + line;
  return text;
}

TEST(ClassWindows, AStudentsWindowFollowsTheTeachersDemoAndItsCheckReachesTheBoard) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "no X display: run under xvfb-run";
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/install-deps.sh)";
  const std::string chromium = net_test::find_chromium();

  std::string root_template = (fs::temp_directory_path() / "threadlab-class-XXXXXX").string();
  ASSERT_NE(::mkdtemp(root_template.data()), nullptr);
  const fs::path root(root_template);
  const int port = free_loopback_port();
  ASSERT_GT(port, 0);

  // Each step moves the class somewhere the one before was not: another lesson and another tab.
  struct Expected {
    std::string lesson;
    std::string view;
  };
  const std::vector<Expected> steps = {
      {"vector-add", "grid"}, {"matmul", "plot"}, {"2d-blocks", "occupancy"}};
  {
    std::ofstream script(root / "class.toml");
    script << R"(title = "The class follows"
[[step]]
caption = "one"
lesson = "vector-add"
set = { n = 1000, grid = 4, block = 256 }
view = "grid"
launch = true
[[step]]
caption = "two"
lesson = "matmul"
set = { m = 40, n = 48, k = 36, kernel = "tiled", tile = 8 }
view = "plot"
launch = true
[[step]]
caption = "three"
lesson = "2d-blocks"
set = { rows = 64, cols = 64, block = [32, 8] }
view = "occupancy"
launch = true
)";
  }
  auto home = [&](const std::string& who) {
    return std::map<std::string, std::string>{{"XDG_CONFIG_HOME", (root / who / "config").string()},
                                              {"XDG_DATA_HOME", (root / who / "data").string()},
                                              {"XDG_STATE_HOME", (root / who / "state").string()}};
  };
  const std::string address = "127.0.0.1:" + std::to_string(port) + "/" + kCode;

  // The student first: its window opens, and the teacher's (opened after it) has the focus. Its
  // own Lab check (the exercise's starting code) is what reaches the board.
  Program student({"gui", "--join", address, "--name", "Ada", "--backend", "emulator", "--width",
                   "900", "--height", "640", "--action", "threadlab:set?exercise=vector-add&check"},
                  home("student"), root / "student.log");
  ASSERT_TRUE(student.started());
  // Its check is judged before the class exists (the presenter's lesson switches would cancel a
  // check still running, as a clicked lesson does), and waits in the student's client for the
  // teacher's server: a result made before the class is up is not lost.
  ASSERT_TRUE(wait_for(
      [&] {
        return student.output().find("threadlab: class: your check of vector-add (") !=
               std::string::npos;
      },
      240s))
      << "the student's check was never judged:\n"
      << student.output();

  Program teacher({"demo", (root / "class.toml").string(), "--host-class", "--class-port",
                   std::to_string(port), "--class-code", kCode, "--class-bind", "127.0.0.1",
                   "--backend", "emulator", "--width", "900", "--height", "640"},
                  home("teacher"), root / "teacher.log");
  ASSERT_TRUE(teacher.started());
  ASSERT_TRUE(wait_for(
      [&] {
        return teacher.output().find(":" + std::to_string(port) + "/" + kCode) != std::string::npos;
      },
      120s))
      << "the teacher's class never started:\n"
      << teacher.output();

  std::size_t seen = 0;  // the student's lines already matched to a step
  for (std::size_t step = 0; step < steps.size(); ++step) {
    SCOPED_TRACE("demo step " + std::to_string(step + 1));
    if (step > 0) ASSERT_TRUE(press_right_in(teacher.pid())) << "xdotool could not press Right";
    const std::string lesson = "to lesson " + steps[step].lesson + ", ";
    const std::string view = ", view " + steps[step].view;
    const std::string wanted = steps[step].lesson + " in view " + steps[step].view;
    const bool followed = wait_for(
        [&] {
          const auto lines = following_lines(student.output());
          for (std::size_t i = seen; i < lines.size(); ++i) {
            if (lines[i].find(lesson) != std::string::npos && lines[i].ends_with(view)) {
              seen = i + 1;
              return true;
            }
          }
          return false;
        },
        120s);
    ASSERT_TRUE(followed) << "the student's window never showed " << wanted
                          << "; it printed:" << joined(following_lines(student.output()))
                          << "\nthe teacher's terminal:\n"
                          << teacher.output() << "\nthe student's terminal:\n"
                          << student.output();
    ASSERT_TRUE(teacher.running()) << teacher.output();
    ASSERT_TRUE(student.running()) << student.output();
  }

  // The student's check, made in the student's process, on the teacher's board: the board file the
  // teacher's process saves before it acknowledges a result (names kept there).
  const fs::path board_file = root / "teacher" / "state" / "threadlab" / "class-board.json";
  nlohmann::json result;
  const bool on_board = wait_for(
      [&] {
        auto board = nlohmann::json::parse(read_text(board_file), nullptr, false);
        if (!board.is_object() || !board.contains("results")) return false;
        for (const auto& entry : board["results"]) {
          if (entry.value("exercise", "") == "vector-add" && entry.value("name", "") == "Ada") {
            result = entry;
            return true;
          }
        }
        return false;
      },
      180s);
  ASSERT_TRUE(on_board)
      << "the student's check never reached the teacher's board; the board file:\n"
      << read_text(board_file) << "\nthe student's terminal:\n"
      << student.output();
  const std::string outcome = result.value("outcome", "");
  EXPECT_TRUE(outcome == "passed" || outcome == "failed" || outcome == "compile-error") << outcome;

  // And on the page the projector shows, drawn by a real browser (names hidden there).
  if (chromium.empty()) {
    GTEST_SKIP() << "Chromium is not installed (apt-get install chromium): the students' windows "
                    "followed and the board file has the check, but the page was not drawn";
  } else {
    const std::string dom =
        net_test::dump_dom(chromium, "http://127.0.0.1:" + std::to_string(port) +
                                         "/board?code=" + kCode + "&wait_ms=0");
    EXPECT_NE(dom.find("<th>vector-add</th>"), std::string::npos) << dom;
    EXPECT_NE(dom.find("<th class=\"student\">Student 1</th>"), std::string::npos) << dom;
    EXPECT_NE(dom.find("<td class=\"" + outcome + "\""), std::string::npos) << dom;
    EXPECT_NE(dom.find("1 following · 1 students · lesson 2d-blocks"), std::string::npos) << dom;
    EXPECT_EQ(dom.find("Ada"), std::string::npos) << "a name on the projector page";
  }

  const int student_status = student.stop();
  const int teacher_status = teacher.stop();
  EXPECT_TRUE(WIFEXITED(student_status) && WEXITSTATUS(student_status) == 0)
      << student_status << "\n"
      << student.output();
  EXPECT_TRUE(WIFEXITED(teacher_status) && WEXITSTATUS(teacher_status) == 0)
      << teacher_status << "\n"
      << teacher.output();
  std::error_code ignored;
  fs::remove_all(root, ignored);
}

}  // namespace
}  // namespace tl::ui
