#pragma once
// The class on loopback under load: one server, `students` clients following a scripted sequence
// of `steps` follow states published every `interval`, each student posting a Lab result on every
// step it sees. Measures how long each step took to reach each follower (publish to the client's
// poll thread), and checks that no step and no result went missing. `threadlab class bench` prints
// it (docs/PERFORMANCE.md); the load test runs it smaller and checks the counts, not the times.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace tl::net {

struct ClassBenchOptions {
  std::size_t students = 60;
  std::size_t steps = 40;
  std::chrono::milliseconds interval{250};
  std::size_t exercises = 4;  // results cycle through this many exercise ids
  // After the last step: how long to wait for every follower and result before calling it lost.
  std::chrono::milliseconds settle{20000};
};

struct ClassBenchReport {
  std::size_t students = 0;
  std::size_t steps = 0;
  std::uint64_t deliveries = 0;  // (student, step) pairs received
  std::uint64_t missed = 0;      // (student, step) pairs never received
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  std::uint64_t results_posted = 0;
  std::uint64_t results_acknowledged = 0;  // the server answered "recorded"
  // The board's cells (student × exercise) that should hold a student's newest result for that
  // exercise, and those that do (the result's kernel_ms carries its step, to tell them apart).
  std::uint64_t cells_expected = 0;
  std::uint64_t cells_right = 0;
  std::size_t followers_seen = 0;           // the server's follower count at the end
  // This process's resident memory: before the clients start, after a tenth of the steps (every
  // thread and connection made, the board filled once) and at the end: flat is warm ≈ end.
  long rss_start_kib = 0, rss_warm_kib = 0, rss_end_kib = 0;
  double seconds = 0;
};

[[nodiscard]] Result<ClassBenchReport> run_class_bench(const ClassBenchOptions& options);
[[nodiscard]] std::string format_class_bench(const ClassBenchReport& report);

}  // namespace tl::net
