// `threadlab class serve` and `threadlab class bench` as a teacher runs them: the headless server
// answers the board page with the right code and refuses a wrong one, stops by itself after
// --seconds with its summary, and keeps the board in its file across two runs; the bench reports
// a class with nothing lost. Loopback only.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <thread>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

// A port free a moment ago (the kernel's pick for port 0); the server binds it right after.
int free_port() {
  int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(sock, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(sock);
  return ntohs(address.sin_port);
}

// One HTTP/1.0 GET on loopback; the status line and body, or empty when nothing answered.
std::string http_get(int port, const std::string& path) {
  int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(sock);
    return {};
  }
  std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (::write(sock, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    ::close(sock);
    return {};
  }
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = ::read(sock, buffer, sizeof buffer)) > 0;)
    answer.append(buffer, static_cast<std::size_t>(n));
  ::close(sock);
  return answer;
}

// GETs until the server answers (it is starting in another process), for at most 20 s.
std::string http_get_when_up(int port, const std::string& path) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    std::string answer = http_get(port, path);
    if (!answer.empty() || std::chrono::steady_clock::now() > deadline) return answer;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

TEST(CliClass, ServeGatesTheBoardWithTheCodeAndStopsWithASummary) {
  int port = free_port();
  auto board = std::filesystem::temp_directory_path() /
               ("threadlab-cli-class-" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(board);
  auto server = std::async(std::launch::async, [&] {
    return run_threadlab({"class", "serve", "--bind", "127.0.0.1", "--port", std::to_string(port),
                          "--code", "K7QM2X", "--seconds", "4", "--board-file", board.string()});
  });
  std::string page = http_get_when_up(port, "/board?code=K7QM2X");
  std::string wrong = http_get(port, "/board?code=WRONG2");
  std::string missing = http_get(port, "/api/v1/board");
  ProcessResult r = server.get();
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(page.starts_with("HTTP/1.1 200")) << page.substr(0, 200);
  EXPECT_NE(page.find("ThreadLab class board"), std::string::npos);
  EXPECT_TRUE(wrong.starts_with("HTTP/1.1 403")) << wrong.substr(0, 200);
  EXPECT_TRUE(missing.starts_with("HTTP/1.1 403")) << missing.substr(0, 200);
  EXPECT_NE(r.out.find("port " + std::to_string(port) + " code K7QM2X"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("threadlab gui --join 127.0.0.1:" + std::to_string(port) + "/K7QM2X"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Stopped: 0 students"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 requests refused"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(board)) << "the board is saved when the server stops";
  std::filesystem::remove(board);
}

TEST(CliClass, APortInUseIsAFailureThatSaysSo) {
  int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(sock, 1), 0);
  socklen_t length = sizeof address;
  ::getsockname(sock, reinterpret_cast<sockaddr*>(&address), &length);
  int port = ntohs(address.sin_port);
  ProcessResult r = run_threadlab({"class", "serve", "--bind", "127.0.0.1", "--port",
                                   std::to_string(port), "--no-save", "--seconds", "1"});
  ::close(sock);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.err.find("cannot listen on 127.0.0.1:" + std::to_string(port)), std::string::npos)
      << r.describe();
}

TEST(CliClass, BenchReportsAWholeClass) {
  ProcessResult r =
      run_threadlab({"class", "bench", "--students", "8", "--steps", "5", "--interval-ms", "50"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("step delivery: 40 of 40 received, 0 missed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("p99"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tl::cli_test
