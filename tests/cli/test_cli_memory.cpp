// `threadlab run --lesson L --memory-table`: the per-line memory table of the lesson's own kernels,
// recorded on the emulator, as a table, CSV or JSON, and the refusals.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

using ::testing::HasSubstr;

TEST(CliMemoryTable, JsonGivesEachMappingsSectorsPerRequestByLine) {
  const ProcessResult r =
      run_threadlab({"run", "--lesson", "2d-blocks", "--backend", "emulator", "--rows", "256",
                     "--cols", "256", "--block", "32,8", "--memory-table", "--format", "json"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto document = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << r.describe();
  ASSERT_EQ(document["kernels"].size(), 2u) << r.describe();
  const double expected[] = {4.0, 32.0};  // x → column, x → row
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& kernel = document["kernels"][k];
    EXPECT_EQ(kernel["extrapolated"], true);
    EXPECT_EQ(kernel["recorded_blocks"], 4);
    bool saw_load = false;
    for (const auto& line : kernel["lines"]) {
      EXPECT_EQ(line["source"], "c[i] = a[i] + b[i];");
      EXPECT_EQ(line["sectors_per_request"], expected[k]) << kernel["kernel"];
      if (line["kind"] == "load") {
        saw_load = true;
        EXPECT_EQ(line["sectors_metric"], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
      }
    }
    EXPECT_TRUE(saw_load) << r.describe();
  }
}

TEST(CliMemoryTable, TableNamesTheLineAndTheBankConflictsOfTheStridedTree) {
  const ProcessResult r = run_threadlab({"run", "--lesson", "reductions", "--backend", "emulator",
                                         "--n", "4096", "--block", "256", "--memory-table"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("sum_strided <<<16, 256>>>")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("4 of 16 blocks recorded")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("extrapolated")) << r.describe();
  // Line 57 of sum_ladder.cuh, the strided tree's add: 280 extra wavefronts over its loads.
  bool found = false;
  for (const std::string& line : split_lines(r.out)) {
    if (line.find("partial[index] += partial[index + s];") != std::string::npos &&
        line.find("shared load") != std::string::npos) {
      found = true;
      EXPECT_THAT(line, HasSubstr("376")) << line;            // wavefronts
      EXPECT_THAT(line, ::testing::EndsWith("280")) << line;  // bank conflicts
    }
  }
  EXPECT_TRUE(found) << r.describe();
}

TEST(CliMemoryTable, CsvHasOneRowPerLine) {
  const ProcessResult r = run_threadlab({"run", "--lesson", "vector-add", "--backend", "emulator",
                                         "--n", "4096", "--memory-table", "--format", "csv"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = split_lines(r.out);
  ASSERT_GE(lines.size(), 3u) << r.describe();
  EXPECT_THAT(lines[0], ::testing::StartsWith("kernel,label,line,source,kind,space,requests"));
  EXPECT_THAT(r.out, HasSubstr("vector_add,one float per thread,17,c[i] = a[i] + b[i];,load,"
                               "global,"))
      << r.describe();
}

TEST(CliMemoryTable, RefusesAnUnknownFormatAndALessonWithoutExperiments) {
  const ProcessResult bad_format = run_threadlab({"run", "--lesson", "vector-add", "--backend",
                                                  "emulator", "--memory-table", "--format", "xml"});
  EXPECT_TRUE(bad_format.exited && bad_format.exit_code == 2) << bad_format.describe();
  EXPECT_THAT(bad_format.err, HasSubstr("not table, csv or json")) << bad_format.describe();
  const ProcessResult no_experiments =
      run_threadlab({"run", "--lesson", "moving-data", "--backend", "emulator", "--memory-table"});
  EXPECT_TRUE(no_experiments.exited && no_experiments.exit_code == 2) << no_experiments.describe();
  EXPECT_THAT(no_experiments.err, HasSubstr("does not record its kernels' memory accesses"))
      << no_experiments.describe();
}

}  // namespace
}  // namespace tl::cli_test
