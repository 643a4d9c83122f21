// `threadlab class serve` and `threadlab class bench`: the class server headless, and the class
// on loopback under load (app/net).

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include "commands.hpp"
#include "compute/lessons/lesson_values_check.hpp"
#include "core/user_files.hpp"
#include "net/class_bench.hpp"
#include "net/class_server.hpp"
#include "net/lan_addresses.hpp"

namespace tl::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int /*signal*/) {
  g_interrupted = true;
}

}  // namespace

std::string default_class_board_file() {
  auto path = user_file("XDG_STATE_HOME", ".local/state", "class-board.json");
  return path ? path->string() : std::string();
}

Status check_class_serve_options(const ClassServeOptions& options) {
  if (options.port < 0 || options.port > 65535)
    return invalid_argument("--port must be 0 to 65535");
  if (!options.code.empty() && !net::is_join_code(options.code)) {
    return invalid_argument(
        "--code must be 4 to 16 of A-Z and 2-9 (no 0, O, 1 or I: they are misread)");
  }
  if (options.seconds < 0) return invalid_argument("--seconds must not be negative");
  if (options.bind.empty()) return invalid_argument("--bind needs an address");
  return {};
}

int command_class_serve(const ClassServeOptions& options, std::ostream& out, std::ostream& err) {
  if (Status checked = check_class_serve_options(options); !checked) {
    err << "threadlab: " << checked.message() << '\n';
    return kExitUsage;
  }
  net::ClassServerOptions server_options;
  server_options.bind = options.bind;
  server_options.port = options.port;
  server_options.code = options.code;
  server_options.board_file = options.no_save ? std::string() : options.board_file;
  if (!options.no_save && server_options.board_file.empty())
    server_options.board_file = default_class_board_file();
  // The presenter's states pass the lessons' own checks here too, so a bad one is refused at the
  // server before any follower sees it (each follower checks again with its own lessons).
  server_options.check = [](const std::string& lesson, const lessons::ParamValues& values) {
    return compute::check_lesson_values(lesson, values);
  };
  server_options.log = [&err](const std::string& text) {
    err << "threadlab: class serve: " << text << '\n';
  };
  net::ClassServer server(server_options);
  if (Status started = server.start(); !started) {
    err << "threadlab: " << started.message() << '\n';
    return kExitFailure;
  }
  // The port and code first, on a line of their own, for scripts and tests that start the server
  // with --port 0 and read where it is.
  out << "port " << server.port() << " code " << server.code() << '\n';
  std::vector<std::string> hosts = net::lan_addresses();
  if (options.bind != "0.0.0.0") hosts = {options.bind};
  if (hosts.empty()) hosts.emplace_back("127.0.0.1");
  out << "Join code: " << server.code() << '\n';
  for (const std::string& host : hosts) {
    out << "Students: threadlab gui --join " << host << ':' << server.port() << '/' << server.code()
        << '\n';
  }
  const std::string& host = hosts.front();
  out << "Board for the projector: http://" << host << ':' << server.port()
      << "/board?code=" << server.code() << '\n';
  out << "Board with names (keep it to yourself): http://" << host << ':' << server.port()
      << "/board?code=" << server.code() << "&key=" << server.presenter_key() << '\n';
  out << "Presenter key (POST /api/v1/follow): " << server.presenter_key() << '\n';
  out << (server_options.board_file.empty() ? std::string("The board is not saved (--no-save).")
                                            : "The board is saved to " + server_options.board_file)
      << '\n';
  out << "Ctrl+C stops the server." << std::endl;

  g_interrupted = false;
  auto previous_int = std::signal(SIGINT, on_interrupt);
  auto previous_term = std::signal(SIGTERM, on_interrupt);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.seconds);
  while (!g_interrupted && (options.seconds == 0 || std::chrono::steady_clock::now() < deadline)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);
  server.stop();
  net::Board board = server.board();
  out << "Stopped: " << board.students.size() << " students, " << board.exercises.size()
      << " exercises on the board, " << server.refused() << " requests refused." << std::endl;
  if (std::string failed = server.save_error(); !failed.empty()) {
    err << "threadlab: the board could not be saved: " << failed << '\n';
    return kExitFailure;
  }
  return kExitOk;
}

Status check_class_bench_options(const ClassBenchCliOptions& options) {
  if (options.students < 1 || options.students > static_cast<int>(net::kMaxStudents)) {
    return invalid_argument("--students must be 1 to " + std::to_string(net::kMaxStudents));
  }
  if (options.steps < 1 || options.steps > 10000)
    return invalid_argument("--steps must be 1 to 10000");
  if (options.interval_ms < 1 || options.interval_ms > 60000) {
    return invalid_argument("--interval-ms must be 1 to 60000");
  }
  return {};
}

int command_class_bench(const ClassBenchCliOptions& options, std::ostream& out, std::ostream& err) {
  if (Status checked = check_class_bench_options(options); !checked) {
    err << "threadlab: " << checked.message() << '\n';
    return kExitUsage;
  }
  net::ClassBenchOptions bench;
  bench.students = static_cast<std::size_t>(options.students);
  bench.steps = static_cast<std::size_t>(options.steps);
  bench.interval = std::chrono::milliseconds(options.interval_ms);
  auto report = net::run_class_bench(bench);
  if (!report) {
    err << "threadlab: " << report.message() << '\n';
    return kExitFailure;
  }
  out << net::format_class_bench(*report);
  // Lost steps or results are a failure of the class, whatever the times.
  bool whole = report->missed == 0 && report->results_acknowledged == report->results_posted &&
               report->cells_right == report->cells_expected;
  if (!whole) err << "threadlab: class bench: steps or results went missing\n";
  return whole ? kExitOk : kExitFailure;
}

}  // namespace tl::cli
