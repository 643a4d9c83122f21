// `threadlab inspect`: what nvcc made of a lesson's kernels, from the listings the build embedded
// (a build without the CUDA toolkit or its disassembler has none: these tests skip, saying so).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

using ::testing::HasSubstr;

// The listings are there, or the test is skipped with the build's reason.
#define REQUIRE_LISTINGS(result)                                                      \
  if ((result).exited && (result).exit_code == 1 &&                                   \
      (result).err.find("no compiled listings in this build") != std::string::npos) { \
    GTEST_SKIP() << (result).err;                                                     \
  }

TEST(CliInspect, TableGivesEachKernelsRegistersAndInstructionsByKind) {
  const ProcessResult r = run_threadlab({"inspect", "--lesson", "2d-blocks", "--format", "json"});
  REQUIRE_LISTINGS(r);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto rows = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(rows.is_array()) << r.describe();
  bool found = false;
  for (const auto& row : rows) {
    EXPECT_GT(row["registers"].get<int>(), 0) << row.dump();
    if (row["kernel"] != "tl::gpu::matrix_add_x_to_row<tl::Untraced>") continue;
    found = true;
    // c[i] = a[i] + b[i]: two loads and a store, no shared memory, nothing spilled.
    EXPECT_EQ(row["global_load"], 2) << row.dump();
    EXPECT_EQ(row["global_store"], 1) << row.dump();
    EXPECT_EQ(row["shared_load"], 0) << row.dump();
    EXPECT_EQ(row["spill_stores"], 0) << row.dump();
    EXPECT_EQ(row["unit"], "matrix_add_gpu");
  }
  EXPECT_TRUE(found) << r.describe();
}

TEST(CliInspect, TheTiledProductsTableShowsItsSharedMemoryAndBarriers) {
  const ProcessResult r =
      run_threadlab({"inspect", "--lesson", "matmul", "--kernel",
                     "tl::gpu::matmul_tiled<16, tl::Untraced>", "--format", "csv"});
  REQUIRE_LISTINGS(r);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.describe();
  EXPECT_THAT(lines[0], HasSubstr("registers,shared_bytes,local_bytes"));
  // Two 16 × 16 float tiles: 2048 bytes of shared memory at least, and two __syncthreads().
  const auto document = nlohmann::json::parse(
      run_threadlab({"inspect", "--lesson", "matmul", "--kernel",
                     "tl::gpu::matmul_tiled<16, tl::Untraced>", "--format", "json"})
          .out);
  ASSERT_EQ(document.size(), 1u);
  EXPECT_GE(document[0]["shared_bytes"].get<int>(), 2048);
  EXPECT_GE(document[0]["barrier"].get<int>(), 2);
  EXPECT_GT(document[0]["shared_load"].get<int>(), 0);
}

TEST(CliInspect, SassPutsEachSourceLineAboveItsInstructions) {
  const ProcessResult r = run_threadlab(
      {"inspect", "--lesson", "2d-blocks", "--kernel", "matrix_add_x_to_row", "--sass"});
  REQUIRE_LISTINGS(r);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("tl::gpu::matrix_add_x_to_row<tl::Untraced>"))
      << "the name and its traced twin: the timed kernel";
  EXPECT_THAT(r.out, HasSubstr("c[i] = a[i] + b[i];")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("; global load")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("; global store")) << r.describe();
  // The load instructions come after the source line they were made from.
  const std::size_t line = r.out.find("c[i] = a[i] + b[i];");
  const std::size_t load = r.out.find("LDG");
  EXPECT_LT(line, load) << r.describe();
}

TEST(CliInspect, PtxCarriesTheSourceLines) {
  const ProcessResult r = run_threadlab({"inspect", "--lesson", "2d-blocks", "--kernel",
                                         "tl::gpu::matrix_add_x_to_col<tl::Untraced>", "--ptx"});
  REQUIRE_LISTINGS(r);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr(".entry")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("ld.global")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("// matrix_add.cuh:")) << r.describe();
}

TEST(CliInspect, RefusalsSayWhatToGive) {
  const ProcessResult no_kernel = run_threadlab({"inspect", "--lesson", "2d-blocks", "--sass"});
  EXPECT_TRUE(no_kernel.exited && no_kernel.exit_code == 2) << no_kernel.describe();
  EXPECT_THAT(no_kernel.err, HasSubstr("--sass needs --kernel")) << no_kernel.describe();
  const ProcessResult both =
      run_threadlab({"inspect", "--lesson", "2d-blocks", "--kernel", "x", "--sass", "--ptx"});
  EXPECT_TRUE(both.exited && both.exit_code == 2) << both.describe();
  const ProcessResult no_lesson = run_threadlab({"inspect", "--lesson", "nine"});
  EXPECT_TRUE(no_lesson.exited && no_lesson.exit_code == 2) << no_lesson.describe();
  EXPECT_THAT(no_lesson.err, HasSubstr("no lesson \"nine\"")) << no_lesson.describe();

  const ProcessResult unknown =
      run_threadlab({"inspect", "--lesson", "2d-blocks", "--kernel", "transpose"});
  REQUIRE_LISTINGS(unknown);
  EXPECT_TRUE(unknown.exited && unknown.exit_code == 2) << unknown.describe();
  EXPECT_THAT(unknown.err, HasSubstr("no kernel of 2d-blocks")) << unknown.describe();
  const ProcessResult several =
      run_threadlab({"inspect", "--lesson", "matmul", "--kernel", "matmul_tiled", "--sass"});
  EXPECT_TRUE(several.exited && several.exit_code == 2) << several.describe();
  EXPECT_THAT(several.err, HasSubstr("tl::gpu::matmul_tiled<16, tl::Untraced>"))
      << "names the candidates: " << several.describe();
  EXPECT_EQ(several.err.find('\n'), several.err.size() - 1) << "one line";
  const ProcessResult arch = run_threadlab({"inspect", "--lesson", "2d-blocks", "--arch", "sm_10"});
  EXPECT_TRUE(arch.exited && arch.exit_code == 2) << arch.describe();
  EXPECT_THAT(arch.err, HasSubstr("was built for")) << arch.describe();
}

}  // namespace
}  // namespace tl::cli_test
