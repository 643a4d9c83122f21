// The Lab's sandbox against a class folder of hostile submissions (issue #32): each one is a
// correct kernel that also tries one thing a grader must not allow — write files outside its
// scratch folder, run a shell, connect to a port on this machine, signal or trace another process,
// leave a process behind, read a secret through the compiler or at run time, flood the output,
// explode the compiler. `threadlab lab grade` grades the folder on the emulator; then the test
// looks for every trace the attacks would leave. A contained attack leaves its kernel's output
// right (each sets `escaped` when its step succeeds, and an escaped kernel adds 1 to every
// element), so "passed" means "contained", and the files, the port, the signal counter and the
// process table are checked from outside as well.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

namespace fs = std::filesystem;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::atomic<int> signals_received{0};
void count_signal(int) {
  signals_received.fetch_add(1);
}

class TempFolder {
 public:
  explicit TempFolder(const std::string& prefix) {
    std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempFolder() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string replaced(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
      text.replace(at, key.size(), value);
      at += value.size();
    }
  }
  return text;
}

// A correct vector add whose constructor runs `attack` when the worker loads it.
std::string correct_kernel_with(const std::string& attack) {
  return R"(#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int escaped = 0;

__attribute__((constructor)) static void attack() {
)" + attack +
         R"(
}

__global__ void vector_add(Array<const float> a, Array<const float> b, Array<float> c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i] + (escaped ? 1.0f : 0.0f);
}
)";
}

// True while a process named `name` (its comm) runs on the machine.
bool process_named(const std::string& name) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    std::ifstream comm(entry.path() / "comm");
    std::string text;
    if (std::getline(comm, text) && text == name) return true;
  }
  return false;
}

// Sets an environment variable for the threadlab processes a test starts, and takes it back.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (value != nullptr) ::setenv(name, value, 1);
  }
  ~ScopedEnvironment() { ::unsetenv(name_); }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
};

// The layers left out: none, or the namespaces (as on Ubuntu 24.04, whose AppArmor refuses
// unprivileged user namespaces: Landlock and seccomp must hold everything in by themselves).
class LabSandboxLayers : public ::testing::TestWithParam<const char*> {};

TEST_P(LabSandboxLayers, AClassFolderOfHostileSubmissionsIsGradedAndNothingGetsOut) {
  const ScopedEnvironment layers("THREADLAB_LAB_SANDBOX_OFF", GetParam());
  const ProcessResult info = run_threadlab({"info"});
  if (info.out.find("Lab sandbox") != std::string::npos &&
      info.out.find("not isolating") != std::string::npos) {
    GTEST_SKIP() << "the Lab's sandbox does not isolate on this machine: " << info.out;
  }
  TempFolder folder("threadlab-class");
  TempFolder outside("threadlab-outside");  // stands for the teacher's home: nothing may land here
  TempFolder secrets("threadlab-secrets");
  ASSERT_FALSE(folder.path().empty());
  std::mt19937_64 random{std::random_device{}()};
  const std::string secret = "TL-SECRET-" + std::to_string(random());
  const fs::path secret_file = secrets.path() / "answers.txt";
  write_file(secret_file, secret + "\n");
  const std::string tag = std::to_string(::getpid());
  const fs::path host_tmp_marker = fs::temp_directory_path() / ("tl-escape-" + tag);
  fs::remove(host_tmp_marker);

  // A listener on loopback: a connection from a submission would wait in its queue.
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 16), 0);
  socklen_t length = sizeof address;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const std::string port = std::to_string(ntohs(address.sin_port));

  struct sigaction action {};
  action.sa_handler = count_signal;
  ::sigaction(SIGUSR1, &action, nullptr);
  signals_received = 0;

  const std::map<std::string, std::string> values = {
      {"@OUTSIDE@", outside.path().string()},
      {"@FOLDER@", folder.path().string()},
      {"@TMP_MARKER@", host_tmp_marker.string()},
      {"@PORT@", port},
      {"@TESTPID@", std::to_string(::getpid())},
      {"@SECRET_FILE@", secret_file.string()},
      {"@SECRET_RELATIVE@", fs::relative(secret_file, folder.path()).string()}};
  const std::map<std::string, std::string> submissions = {
      {"alice.cu", correct_kernel_with("")},
      {"files.cu", correct_kernel_with(R"(
  const char* targets[] = {"@OUTSIDE@/planted", "@FOLDER@/zz-planted.cu"};
  for (const char* path : targets) {
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0) { escaped = 1; close(fd); }
  }
  // The machine's /tmp: inside the namespaces this is the sandbox's own /tmp, checked outside.
  int fd = open("@TMP_MARKER@", O_WRONLY | O_CREAT, 0644);
  if (fd >= 0) close(fd);)")},
      {"shell.cu", correct_kernel_with(R"(
  system("echo from-the-shell > @OUTSIDE@/shell-was-here; echo x > @TMP_MARKER@");)")},
      {"network.cu", correct_kernel_with(R"(
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s >= 0) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(@PORT@);
    a.sin_addr.s_addr = htonl(0x7f000001);
    if (connect(s, (struct sockaddr*)&a, sizeof a) == 0) escaped = 1;
    close(s);
  })")},
      {"signals.cu", correct_kernel_with(R"(
  if (kill(@TESTPID@, SIGUSR1) == 0) escaped = 1;
  if (syscall(SYS_tgkill, @TESTPID@, @TESTPID@, SIGUSR1) == 0) escaped = 1;
  union sigval value;
  value.sival_int = 0;
  if (sigqueue(@TESTPID@, SIGUSR1, value) == 0) escaped = 1;)")},
      {"kill-parent.cu", correct_kernel_with(R"(
  kill(getppid(), SIGKILL);)")},
      {"trace.cu", correct_kernel_with(R"(
  if (ptrace(PTRACE_ATTACH, @TESTPID@, 0, 0) == 0) escaped = 1;
  int mem = open("/proc/@TESTPID@/mem", O_RDWR);
  if (mem >= 0) { escaped = 1; close(mem); })")},
      {"escape.cu", correct_kernel_with(R"(
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      prctl(PR_SET_NAME, "tl-escapee", 0, 0, 0);
      sleep(60);
      _exit(0);
    }
    _exit(0);
  })")},
      {"read-secret.cu", correct_kernel_with(R"(
  FILE* f = fopen("@SECRET_FILE@", "r");
  if (f != NULL) {
    char line[128] = {0};
    if (fgets(line, sizeof line, f) != NULL) { printf("%s", line); escaped = 1; }
    fclose(f);
  })")},
      {"flood.cu", correct_kernel_with(R"(
  for (int i = 0; i < 400000; ++i) printf("flooding the grader's output, line %d\n", i);)")},
      {"include-absolute.cu", "#include \"@SECRET_FILE@\"\n" + correct_kernel_with("")},
      {"include-relative.cu", "#include \"@SECRET_RELATIVE@\"\n" + correct_kernel_with("")},
      {"incbin.cu", "asm(\".inc\" \"bin \\\"@SECRET_FILE@\\\"\");\n" + correct_kernel_with("")},
      {"dependency.cu", "#pragma GCC dependency \"@SECRET_FILE@\"\n" + correct_kernel_with("")},
      {"compile-bomb.cu",
       [] {
         // The preprocessor doubles its text 40 times: 2^40 tokens, far past any limit.
         std::string bomb = "#define A0 x\n";
         for (int i = 1; i <= 40; ++i) {
           bomb += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" +
                   std::to_string(i - 1) + "\n";
         }
         return bomb + "int bomb[] = {A40};\n" + correct_kernel_with("");
       }()},
  };
  for (const auto& [name, text] : submissions) {
    write_file(folder.path() / name, replaced(text, values));
  }
  fs::create_symlink(secret_file, folder.path() / "steal.cu");

  const ProcessResult r =
      run_threadlab({"lab", "grade", folder.path().string(), "--exercise", "vector-add",
                     "--backend", "emulator", "--format", "json", "--timeout-ms", "5000"});
  ASSERT_TRUE(r.exited) << "the grader died: " << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("sandbox: "));
  const nlohmann::json rows = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(rows.is_array()) << r.describe();
  std::map<std::string, nlohmann::json> by_file;
  for (const nlohmann::json& row : rows) by_file[row["file"]] = row;
  EXPECT_EQ(by_file.size(), submissions.size() + 1) << "every entry of the folder has its row";

  auto outcome = [&](const std::string& file) {
    return by_file.count(file) ? by_file[file]["outcome"].get<std::string>() : "missing";
  };
  for (const char* contained : {"alice.cu", "files.cu", "shell.cu", "network.cu", "signals.cu",
                                "trace.cu", "escape.cu", "read-secret.cu", "flood.cu"}) {
    EXPECT_EQ(outcome(contained), "passed")
        << contained << ": " << (by_file.count(contained) ? by_file[contained].dump() : "");
  }
  // Killing its "parent" reaches at most its own worker: its row says so, the grader goes on.
  EXPECT_THAT(outcome("kill-parent.cu"), AnyOf("passed", "crashed"));
  for (const char* refused :
       {"include-absolute.cu", "include-relative.cu", "incbin.cu", "dependency.cu"}) {
    EXPECT_EQ(outcome(refused), "compile-error") << refused;
    if (by_file.count(refused)) {
      EXPECT_THAT(by_file[refused]["reason"].get<std::string>(), HasSubstr("not allowed"))
          << refused;
    }
  }
  EXPECT_EQ(outcome("compile-bomb.cu"), "compile-error");
  if (by_file.count("compile-bomb.cu")) {
    EXPECT_THAT(by_file["compile-bomb.cu"]["reason"].get<std::string>(),
                HasSubstr("does not compile"));
  }
  EXPECT_EQ(outcome("steal.cu"), "skipped");

  // What the attacks would have left behind.
  EXPECT_THAT(r.out + r.err, Not(HasSubstr(secret))) << "a secret reached the grader's output";
  EXPECT_TRUE(fs::is_empty(outside.path())) << "a submission wrote outside its scratch folder";
  EXPECT_FALSE(fs::exists(folder.path() / "zz-planted.cu"));
  EXPECT_FALSE(fs::exists(host_tmp_marker)) << "a submission wrote into the machine's /tmp";
  const int accepted = ::accept(listener, nullptr, nullptr);
  EXPECT_LT(accepted, 0) << "a submission connected to a port on this machine";
  if (accepted >= 0) ::close(accepted);
  ::close(listener);
  EXPECT_EQ(signals_received.load(), 0) << "a submission signalled another process";
  bool escapee = process_named("tl-escapee");
  for (int i = 0; i < 40 && escapee; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    escapee = process_named("tl-escapee");
  }
  EXPECT_FALSE(escapee) << "a process started by a submission outlived its worker";
  if (escapee) std::system("pkill -KILL -x tl-escapee");
  EXPECT_LT(r.out.size(), 4u << 20) << "the flood reached the grader's output unbounded";
}

INSTANTIATE_TEST_SUITE_P(, LabSandboxLayers, ::testing::Values(nullptr, "namespaces"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param == nullptr ? "AllLayers"
                                                                    : "WithoutNamespaces");
                         });

// Where no layer isolates (an old kernel, here every layer left out), lab grade refuses others'
// code and says how to go on; one's own code is still checked.
TEST(LabSandbox, WithoutIsolationGradingIsRefusedAndOnesOwnCheckStillWorks) {
  const ScopedEnvironment layers("THREADLAB_LAB_SANDBOX_OFF", "namespaces,landlock,seccomp");
  TempFolder folder("threadlab-class");
  write_file(folder.path() / "alice.cu", correct_kernel_with(""));
  const ProcessResult grade = run_threadlab({"lab", "grade", folder.path().string(), "--exercise",
                                             "vector-add", "--backend", "emulator"});
  ASSERT_TRUE(grade.exited) << grade.describe();
  EXPECT_EQ(grade.exit_code, 1) << grade.describe();
  EXPECT_THAT(grade.err, HasSubstr("does not isolate"));
  EXPECT_THAT(grade.err, HasSubstr("--unsafe-no-sandbox"));
  EXPECT_EQ(grade.out, "");
  const ProcessResult check =
      run_threadlab({"lab", "check", (folder.path() / "alice.cu").string(), "--exercise",
                     "vector-add", "--backend", "emulator", "--no-compare"});
  EXPECT_EQ(check.exit_code, 0) << check.describe();
  const ProcessResult info = run_threadlab({"info"});
  EXPECT_THAT(info.out, HasSubstr("not isolating"));
}

// Without a sandbox the grader says so and runs nothing of others' unless told to.
TEST(LabSandbox, GradingWithoutTheSandboxIsTheTeachersExplicitChoice) {
  TempFolder folder("threadlab-class");
  write_file(folder.path() / "alice.cu", correct_kernel_with(""));
  const ProcessResult r =
      run_threadlab({"lab", "grade", folder.path().string(), "--exercise", "vector-add",
                     "--backend", "emulator", "--unsafe-no-sandbox"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("sandbox: none (--unsafe-no-sandbox)"));
  EXPECT_THAT(r.out, HasSubstr("alice.cu,passed"));
}

// `threadlab info` names the layers a worker gets, as the worker itself reports them.
TEST(LabSandbox, InfoNamesTheLayers) {
  const ProcessResult r = run_threadlab({"info"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("Lab sandbox"));
  EXPECT_THAT(r.out, AnyOf(HasSubstr("namespaces"), HasSubstr("Landlock"), HasSubstr("seccomp"),
                           HasSubstr("missing")));
}

}  // namespace
}  // namespace tl::cli_test
