#pragma once
// Formatting lesson reports for the terminal, as CSV and as JSON.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "compute/lessons/lesson.hpp"
#include "core/device_ceilings.hpp"

namespace tl::cli {

struct BenchRow {
  std::uint64_t size = 0;
  LaunchConfig config;
  compute::LessonReport report;
};

// With the device's ceilings, each GPU row gives both its rates and their shares of them; with
// the lesson that ran, a row whose ceiling is another row (a tensor rung's cuBLAS at its own
// precision) is read against that row instead.
void print_run_report(std::ostream& out, const std::string& lesson,
                      const compute::TracedLaunch& what, const compute::LessonReport& report,
                      const std::string& backend, const DeviceCeilings* ceilings = nullptr,
                      const compute::Lesson* lesson_model = nullptr);
void print_bench_table(std::ostream& out, const std::string& lesson, const std::string& size_label,
                       const std::vector<BenchRow>& rows, const std::string& backend);
void print_bench_csv(std::ostream& out, const std::string& lesson,
                     const std::vector<BenchRow>& rows, const std::string& backend);
void print_bench_json(std::ostream& out, const std::string& lesson,
                      const std::vector<BenchRow>& rows, const std::string& backend,
                      const std::string& device_name);

}  // namespace tl::cli
