// The terminal's timing table, in-process: a row whose runs spread too widely to read a difference
// from is marked "noisy", with one line saying why (issue 36 item 9); steady rows are not.
#include "timing_table.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "core/stats.hpp"

namespace tl::cli {
namespace {

compute::LessonReport report_of(const std::vector<double>& runs_ms) {
  compute::LessonReport report;
  compute::TimingRow row;
  row.key = {TimingRole::kKernel, "kernel"};
  row.name = "kernel";
  row.stats = summarize_timings(runs_ms);
  report.rows.push_back(row);
  return report;
}

std::string printed(const compute::LessonReport& report) {
  compute::TracedLaunch what;
  what.shape = {1, 1000};
  std::ostringstream out;
  print_run_report(out, "vector-add", what, report, "CPU emulator");
  return out.str();
}

TEST(TimingTable, ASpreadTooWideToReadIsMarkedNoisy) {
  // The review's first table: 4 ms, 0.82 ms and 7.97 ms for one kernel of 1000 elements.
  const std::string noisy = printed(report_of({4.0, 0.82, 7.97}));
  EXPECT_NE(noisy.find(") noisy"), std::string::npos) << noisy;
  EXPECT_NE(noisy.find("too wide a spread to read a difference"), std::string::npos) << noisy;

  const std::string steady = printed(report_of({0.013, 0.0131, 0.0135}));
  EXPECT_EQ(steady.find("noisy"), std::string::npos) << steady;
}

}  // namespace
}  // namespace tl::cli
