// `threadlab lab check FILE --memory`: the per-line memory table of a passing kernel as a table,
// CSV and JSON (Nsight Compute's counter names in the header and the keys), on the emulator; the
// padded transpose tile against the unpadded one. Exit 0 for a pass, 1 for a failed check,
// 2 for a bad command line.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A .cu file for one test, removed after it.
class KernelFile {
 public:
  explicit KernelFile(const std::string& text) {
    path_ = fs::temp_directory_path() / ("threadlab-lab-memory-" + std::to_string(::getpid()) +
                                         "-" + std::to_string(counter_++) + ".cu");
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~KernelFile() {
    std::error_code error;
    fs::remove(path_, error);
  }
  KernelFile(const KernelFile&) = delete;
  KernelFile& operator=(const KernelFile&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

std::string tiled_solution(bool padded) {
  std::string text = run_threadlab({"lab", "solution", "transpose-shared"}).out;
  if (!padded) {
    const std::size_t at = text.find("tile[32][33]");
    if (at != std::string::npos) text.replace(at, 12, "tile[32][32]");
  }
  return text;
}

std::vector<std::string> check_args(const std::string& file, const std::string& format) {
  return {"lab",          "check",        file,       "--exercise", "transpose-shared",
          "--backend",    "emulator",     "--memory", "--format",   format,
          "--no-compare", "--timeout-ms", "60000"};
}

// Splits a CSV line at its commas, quotes honoured (no line breaks inside fields here).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (line[i] == '"') {
      quoted = !quoted;
    } else if (line[i] == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += line[i];
    }
  }
  return fields;
}

TEST(CliLabMemory, CsvNamesTheCountersAndTheUnpaddedTileConflictsThirtyTwoWays) {
  const KernelFile file(tiled_solution(/*padded=*/false));
  const ProcessResult r = run_threadlab(check_args(file.path(), "csv"));
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const std::vector<std::string> lines = split_lines(r.out);
  ASSERT_GE(lines.size(), 5u) << r.out;
  const std::vector<std::string> header = csv_fields(lines[0]);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name << " is not a column of " << lines[0];
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t line = column("line"), access = column("access"), space = column("space"),
                    degree = column("worst_conflict_degree"),
                    conflicts_metric = column("bank_conflicts_metric"),
                    sectors_metric = column("sectors_metric"),
                    extrapolated = column("extrapolated"), source = column("source");
  bool saw_read = false;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> row = csv_fields(lines[i]);
    ASSERT_EQ(row.size(), header.size()) << lines[i];
    EXPECT_EQ(row[extrapolated], "true");  // 4 of 36 blocks
    if (row[space] == "global") {
      EXPECT_THAT(row[sectors_metric], HasSubstr("l1tex__t_sectors_pipe_lsu_mem_global_op_"));
    }
    if (row[line] == "11" && row[space] == "shared" && row[access] == "load") {
      saw_read = true;
      EXPECT_EQ(row[degree], "32");
      EXPECT_EQ(row[conflicts_metric], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
      EXPECT_THAT(row[source], HasSubstr("tile[threadIdx.x][threadIdx.y]"));
    }
  }
  EXPECT_TRUE(saw_read) << r.out;
  // The verdict and its notes go to stderr, the CSV alone to stdout.
  EXPECT_THAT(r.err, HasSubstr("note: your shared-memory loads hit a 32-way bank conflict"));
}

TEST(CliLabMemory, JsonAndTableOfThePaddedTileShowNoConflict) {
  const KernelFile file(tiled_solution(/*padded=*/true));
  const ProcessResult json_run = run_threadlab(check_args(file.path(), "json"));
  ASSERT_TRUE(json_run.exited) << json_run.describe();
  ASSERT_EQ(json_run.exit_code, 0) << json_run.describe();
  const nlohmann::json document = nlohmann::json::parse(json_run.out);
  const nlohmann::json& memory = document.at("memory");
  EXPECT_TRUE(memory.at("extrapolated").get<bool>());
  EXPECT_EQ(memory.at("recorded_blocks"), 4);
  EXPECT_EQ(memory.at("figures"), "emulator model");
  bool saw_read = false;
  for (const nlohmann::json& row : memory.at("rows")) {
    if (row.at("line") == 11 && row.at("space") == "shared" && row.at("access") == "load") {
      saw_read = true;
      EXPECT_EQ(row.at("bank_conflicts"), 0);
      EXPECT_EQ(row.at("metrics").at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
                0);
      EXPECT_EQ(row.at("note"), "your shared-memory loads have no bank conflicts — line 11");
    }
    if (row.at("space") == "global") {
      EXPECT_TRUE(row.at("metrics").contains(
          row.at("access") == "load" ? "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
                                     : "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"))
          << row.dump();
    }
  }
  EXPECT_TRUE(saw_read) << json_run.out;

  const ProcessResult table = run_threadlab(check_args(file.path(), "table"));
  ASSERT_EQ(table.exit_code, 0) << table.describe();
  EXPECT_THAT(table.out, HasSubstr("sectors/req"));
  EXPECT_THAT(table.out, HasSubstr("bank conflicts"));
  EXPECT_THAT(table.out, HasSubstr("recorded every warp of 4 of 36 blocks"));
  EXPECT_THAT(table.out, HasSubstr("(extrapolated"));
  EXPECT_THAT(table.out, HasSubstr("note: your loads of `in` move"));
}

std::vector<std::string> matmul_args(const std::string& exercise, const std::string& file,
                                     const std::string& format) {
  return {"lab",      "check",    file,   "--exercise",   exercise,       "--backend", "emulator",
          "--memory", "--format", format, "--no-compare", "--timeout-ms", "60000"};
}

// The access budget of the naive matrix product (each block loads each element of A and B it
// uses about 16 times: tests/lab/test_memory_check.cpp works the 15.7 out): JSON's "budgets",
// the table's section and the note. Its one load line, `sum += A(row, k) * B(k, col)`, loads both
// arrays, so that row carries no figure of its own.
TEST(CliLabMemory, TheNaiveProductsAccessBudgetIsInTheJsonAndTheTable) {
  const KernelFile file(run_threadlab({"lab", "solution", "matmul"}).out);
  const ProcessResult json_run = run_threadlab(matmul_args("matmul", file.path(), "json"));
  ASSERT_TRUE(json_run.exited) << json_run.describe();
  ASSERT_EQ(json_run.exit_code, 0) << json_run.describe();
  const nlohmann::json memory = nlohmann::json::parse(json_run.out).at("memory");
  const nlohmann::json& budgets = memory.at("budgets");
  ASSERT_EQ(budgets.size(), 2u) << memory.dump();
  EXPECT_EQ(budgets[0].at("array"), "A");
  EXPECT_EQ(budgets[1].at("array"), "B");
  for (const nlohmann::json& budget : budgets) {
    EXPECT_NEAR(budget.at("loads_per_element").get<double>(), 15.69, 0.01) << budget.dump();
    EXPECT_EQ(budget.at("expected_loads_per_element"), 1.0);
    EXPECT_FALSE(budget.at("within_budget").get<bool>());
  }
  for (const nlohmann::json& row : memory.at("rows")) {
    EXPECT_FALSE(row.contains("loads_per_element")) << row.dump();
  }

  const ProcessResult table = run_threadlab(matmul_args("matmul", file.path(), "table"));
  ASSERT_EQ(table.exit_code, 0) << table.describe();
  EXPECT_THAT(table.out, HasSubstr("access budget (global loads per element of each input array"));
  EXPECT_THAT(table.out, HasSubstr("each block reads each element of `A` it uses 15.7 times from "
                                   "global memory"));
  EXPECT_THAT(table.out, HasSubstr("through 16 × 16 shared-memory tiles (the next exercise) it "
                                   "needs about 1"));
}

// The tiled product loads A and B on lines of their own: CSV's loads_per_element column holds
// each one's figure, 1 (once per block), on those two rows and nothing on the others; JSON's rows
// the same.
TEST(CliLabMemory, TheTiledProductsTileLoadsCarryTheirBudgetInTheCsvColumn) {
  const KernelFile file(run_threadlab({"lab", "solution", "matmul-tiled"}).out);
  const ProcessResult csv = run_threadlab(matmul_args("matmul-tiled", file.path(), "csv"));
  ASSERT_TRUE(csv.exited) << csv.describe();
  ASSERT_EQ(csv.exit_code, 0) << csv.describe();
  const std::vector<std::string> lines = split_lines(csv.out);
  ASSERT_GE(lines.size(), 4u) << csv.out;
  const std::vector<std::string> header = csv_fields(lines[0]);
  const auto at = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  ASSERT_LT(at("loads_per_element"), header.size()) << lines[0];
  int with_budget = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> row = csv_fields(lines[i]);
    ASSERT_EQ(row.size(), header.size()) << lines[i];
    const std::string& budget = row[at("loads_per_element")];
    const bool input_load = row[at("access")] == "load" && row[at("space")] == "global" &&
                            (row[at("array")] == "`A`" || row[at("array")] == "`B`");
    EXPECT_EQ(budget, input_load ? "1.00" : "") << lines[i];
    with_budget += input_load ? 1 : 0;
  }
  EXPECT_EQ(with_budget, 2) << csv.out;
  EXPECT_THAT(csv.err, HasSubstr("note: each block reads each element of `A` it uses once from "
                                 "global memory"));

  const ProcessResult json_run = run_threadlab(matmul_args("matmul-tiled", file.path(), "json"));
  ASSERT_EQ(json_run.exit_code, 0) << json_run.describe();
  const nlohmann::json memory = nlohmann::json::parse(json_run.out).at("memory");
  int json_with_budget = 0;
  for (const nlohmann::json& row : memory.at("rows")) {
    if (!row.contains("loads_per_element")) continue;
    ++json_with_budget;
    EXPECT_EQ(row.at("access"), "load");
    EXPECT_DOUBLE_EQ(row.at("loads_per_element").get<double>(), 1.0);
  }
  EXPECT_EQ(json_with_budget, 2);
  EXPECT_TRUE(memory.at("budgets").at(0).at("within_budget").get<bool>());
}

TEST(CliLabMemory, AFailingKernelExitsOneAndCsvWithoutMemoryIsABadCommandLine) {
  const KernelFile starter(run_threadlab({"lab", "starter", "transpose-shared"}).out);
  const ProcessResult failed = run_threadlab(check_args(starter.path(), "table"));
  ASSERT_TRUE(failed.exited) << failed.describe();
  EXPECT_EQ(failed.exit_code, 1) << failed.describe();
  EXPECT_THAT(failed.out, HasSubstr("memory: recorded only for a kernel that passes"));

  const ProcessResult usage =
      run_threadlab({"lab", "check", starter.path(), "--exercise", "transpose-shared", "--backend",
                     "emulator", "--format", "csv"});
  EXPECT_EQ(usage.exit_code, 2) << usage.describe();
  EXPECT_THAT(usage.err, HasSubstr("--memory"));
}

}  // namespace
}  // namespace tl::cli_test
