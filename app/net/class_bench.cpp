#include "net/class_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "net/class_client.hpp"
#include "net/class_server.hpp"

namespace tl::net {
namespace {

using Clock = std::chrono::steady_clock;

long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return 0;
}

double percentile(std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  auto index = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

std::string exercise_id(std::size_t step, std::size_t exercises) {
  return "exercise-" + std::to_string(step % exercises);
}

}  // namespace

Result<ClassBenchReport> run_class_bench(const ClassBenchOptions& options) {
  if (options.students == 0 || options.steps == 0 || options.exercises == 0) {
    return invalid_argument("the bench needs at least one student, one step and one exercise");
  }
  if (options.students > kMaxStudents) {
    return invalid_argument("at most " + std::to_string(kMaxStudents) + " students");
  }
  ClassBenchReport report;
  report.students = options.students;
  report.steps = options.steps;
  report.rss_start_kib = resident_kib();
  auto started = Clock::now();

  ClassServerOptions server_options;
  server_options.bind = "127.0.0.1";
  // Saved as a real class is: every acknowledged result is on disk first, and that is timed too.
  auto board_file = std::filesystem::temp_directory_path() /
                    ("threadlab-class-bench-" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(board_file);
  server_options.board_file = board_file.string();
  ClassServer server(server_options);
  TL_RETURN_IF_ERROR(server.start());

  // When each seq was published, and when each student received it.
  std::mutex mutex;
  std::map<std::uint64_t, Clock::time_point> published;
  std::map<std::uint64_t, std::size_t> step_of_seq;
  std::vector<std::map<std::size_t, double>> received(options.students);  // step -> latency ms
  std::vector<std::map<std::string, std::size_t>> last_posted(
      options.students);  // exercise -> step
  std::vector<std::unique_ptr<ClassClient>> clients;
  clients.reserve(options.students);
  for (std::size_t i = 0; i < options.students; ++i) {
    ClassClientOptions client_options;
    client_options.address = {"127.0.0.1", server.port(), server.code()};
    client_options.name = "student " + std::to_string(i + 1);
    client_options.retry_min = std::chrono::milliseconds(50);
    client_options.on_follow = [&, i, slot = &clients](const FollowState& state) {
      auto now = Clock::now();
      std::size_t step = 0;
      {
        std::lock_guard lock(mutex);
        auto when = published.find(state.seq);
        if (when == published.end()) return;  // a state from before the bench (none here)
        step = step_of_seq[state.seq];
        received[i][step] = std::chrono::duration<double, std::milli>(now - when->second).count();
        last_posted[i][exercise_id(step, options.exercises)] = step;
      }
      LabResult result;
      result.exercise = exercise_id(step, options.exercises);
      result.outcome = step % 3 == 0 ? LabOutcome::kFailed : LabOutcome::kPassed;
      result.failed_check =
          result.outcome == LabOutcome::kFailed ? "element 7 is 0, expected 14" : "";
      result.kernel_ms = static_cast<double>(step + 1);
      result.reference_ms = 1.0;
      (*slot)[i]->post_result(result);
    };
    clients.push_back(std::make_unique<ClassClient>(client_options));
  }
  for (auto& client : clients) client->start();

  // Every student has joined before the first step, so each step is a delivery to all.
  auto deadline = Clock::now() + options.settle;
  while (server.board().students.size() < options.students && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  for (std::size_t step = 0; step < options.steps; ++step) {
    FollowState state;
    state.lesson = "bench";
    state.values = {{"n", std::to_string(1024 * (step + 1))}};
    state.step = static_cast<std::uint32_t>(step);
    {
      // Held across publish, so a fast follower never sees a seq whose time is not yet written.
      std::lock_guard lock(mutex);
      auto now = Clock::now();
      auto done = server.publish(state);
      if (!done) return done.error();
      published[done->seq] = now;
      step_of_seq[done->seq] = step;
    }
    if (step == options.steps / 10) report.rss_warm_kib = resident_kib();
    std::this_thread::sleep_for(options.interval);
  }

  // Settle: every client has the last step and an empty outbox, or the time is up.
  deadline = Clock::now() + options.settle;
  for (;;) {
    bool settled = true;
    {
      std::lock_guard lock(mutex);
      for (std::size_t i = 0; i < options.students && settled; ++i) {
        settled =
            received[i].contains(options.steps - 1) && clients[i]->status().results_queued == 0;
      }
    }
    if (settled || Clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  report.followers_seen = server.followers();

  std::vector<double> latencies;
  Board board = server.board();
  {
    std::lock_guard lock(mutex);
    for (std::size_t i = 0; i < options.students; ++i) {
      for (const auto& [step, ms] : received[i]) latencies.push_back(ms);
      report.results_posted += received[i].size();
      ClientStatus status = clients[i]->status();
      report.results_acknowledged += status.results_sent;
      auto student = board.students.find(clients[i]->student_id());
      for (const auto& [exercise, step] : last_posted[i]) {
        ++report.cells_expected;
        if (student == board.students.end()) continue;
        auto cell = student->second.results.find(exercise);
        if (cell != student->second.results.end() &&
            cell->second.kernel_ms == static_cast<double>(step + 1)) {
          ++report.cells_right;
        }
      }
    }
  }
  for (auto& client : clients) client->stop();
  server.stop();
  std::error_code ignored;
  std::filesystem::remove(board_file, ignored);

  report.deliveries = latencies.size();
  report.missed = options.students * options.steps - report.deliveries;
  std::sort(latencies.begin(), latencies.end());
  report.p50_ms = percentile(latencies, 0.50);
  report.p99_ms = percentile(latencies, 0.99);
  report.max_ms = latencies.empty() ? 0 : latencies.back();
  report.rss_end_kib = resident_kib();
  report.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return report;
}

std::string format_class_bench(const ClassBenchReport& report) {
  char text[1024];
  std::snprintf(text, sizeof text,
                "students: %zu, steps: %zu, %.1f s\n"
                "step delivery: %llu of %zu received, %llu missed\n"
                "latency (publish to follower): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n"
                "results: %llu posted, %llu acknowledged; board cells right: %llu of %llu\n"
                "followers at the end: %zu\n"
                "memory (this process, RSS): %ld KiB before the clients, %ld KiB after a tenth of the steps, "
                "%ld KiB at the end\n",
                report.students, report.steps, report.seconds,
                static_cast<unsigned long long>(report.deliveries), report.students * report.steps,
                static_cast<unsigned long long>(report.missed), report.p50_ms, report.p99_ms,
                report.max_ms, static_cast<unsigned long long>(report.results_posted),
                static_cast<unsigned long long>(report.results_acknowledged),
                static_cast<unsigned long long>(report.cells_right),
                static_cast<unsigned long long>(report.cells_expected), report.followers_seen,
                report.rss_start_kib, report.rss_warm_kib, report.rss_end_kib);
  return text;
}

}  // namespace tl::net
