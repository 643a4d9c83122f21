#pragma once
// Formatting vector-add reports for the terminal, as CSV and as JSON.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "compute/lessons/vector_add_runner.hpp"

namespace tl::cli {

struct BenchRow {
  std::uint64_t n = 0;
  LaunchConfig config;
  compute::VectorAddReport report;
};

void print_run_report(std::ostream& out, const BenchRow& row, const std::string& backend);
void print_bench_table(std::ostream& out, const std::vector<BenchRow>& rows,
                       const std::string& backend);
void print_bench_csv(std::ostream& out, const std::vector<BenchRow>& rows,
                     const std::string& backend);
void print_bench_json(std::ostream& out, const std::vector<BenchRow>& rows,
                      const std::string& backend, const std::string& device_name);

}  // namespace tl::cli
