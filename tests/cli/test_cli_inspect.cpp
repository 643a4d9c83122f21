// `threadlab inspect`: what nvcc made of a lesson's kernels, from the listings the build embedded
// (a build without the CUDA toolkit or its disassembler has none: these tests skip, saying so).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_process.hpp"
#include "core/occupancy.hpp"
#include "core/reference_gpus.hpp"

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

// Lesson 4's table of what the compiler made of the ladder (the rows under its `compiled-ladder`
// marker) is this build's listings: each rung's registers, static shared memory, FFMA and LDS
// counts, and the occupancy the Occupancy tab's model gives them on an H100 SXM. A compiler that
// moves them fails here, and the lesson's text is brought up to date with the new figures.
int figure(std::string text) {
  std::erase_if(text, [](char c) { return c == ',' || c == ' ' || c == 'B' || c == '%'; });
  return std::stoi(text);
}

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream in(row.substr(1));
  std::string cell;
  while (std::getline(in, cell, '|')) {
    const auto first = cell.find_first_not_of(' ');
    const auto last = cell.find_last_not_of(' ');
    out.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
  }
  return out;
}

TEST(CliInspect, TheMatmulLessonsCompiledLadderTableIsThisBuildsListings) {
  std::ifstream lesson(std::string(THREADLAB_SOURCE_DIR) + "/lessons/04_matmul/lesson.md");
  std::stringstream text;
  text << lesson.rdbuf();
  std::vector<std::string> rows;
  bool in_table = false;
  for (const std::string& line : split_lines(text.str())) {
    if (line.find("<!-- compiled-ladder") != std::string::npos) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (line.empty()) break;
    if (line.starts_with("| rung") || line.starts_with("| ---")) continue;
    rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), 5u) << "the table under the compiled-ladder marker";

  const ProcessResult table = run_threadlab(
      {"inspect", "--lesson", "matmul", "--arch", "sm_90", "--resources", "--format", "json"});
  REQUIRE_LISTINGS(table);
  if (table.exited && table.exit_code == 2 &&
      table.err.find("was built for") != std::string::npos) {
    GTEST_SKIP() << "this build has no sm_90 listings: " << table.err;
  }
  ASSERT_TRUE(table.exited && table.exit_code == 0) << table.describe();
  const auto kernels = nlohmann::json::parse(table.out, nullptr, false);
  ASSERT_TRUE(kernels.is_array()) << table.describe();
  const ReferenceGpu h100 = *find_reference_gpu("H100 SXM");

  const std::map<std::string, std::string> kernel_of_rung = {
      {"tiled, TILE = 16", "tl::gpu::matmul_tiled<16, tl::Untraced>"},
      {"regtile-1d", "tl::gpu::matmul_regtile_1d<tl::Untraced>"},
      {"regtile-2d", "tl::gpu::matmul_regtile_2d<tl::Untraced>"},
      {"vectorized", "tl::gpu::matmul_vectorized<tl::Untraced>"},
      {"warptile", "tl::gpu::matmul_warptile<"}};
  for (const std::string& row : rows) {
    const std::vector<std::string> c = cells(row);
    ASSERT_GE(c.size(), 7u) << row;
    ASSERT_TRUE(kernel_of_rung.contains(c[0])) << row;
    const std::string& wanted = kernel_of_rung.at(c[0]);
    const nlohmann::json* kernel = nullptr;
    for (const auto& k : kernels) {
      const std::string name = k["kernel"].get<std::string>();
      if (name.starts_with(wanted) && name.find("Untraced") != std::string::npos) kernel = &k;
    }
    ASSERT_NE(kernel, nullptr) << "no kernel " << wanted << " in the listings";
    const int registers = (*kernel)["registers"].get<int>();
    const int shared = (*kernel)["shared_bytes"].get<int>();
    EXPECT_EQ(figure(c[1]), registers) << row;
    EXPECT_EQ(figure(c[2]), shared) << row;

    KernelResources resources;
    resources.registers_per_thread = static_cast<std::uint32_t>(registers);
    resources.static_shared_bytes = static_cast<std::uint64_t>(shared);
    const Occupancy occupancy = compute_occupancy(reference_device_info(h100), resources,
                                                  static_cast<std::uint32_t>(figure(c[3])));
    EXPECT_EQ(figure(c[4].substr(0, c[4].find('('))),
              static_cast<int>(occupancy.fraction() * 100.0 + 0.5))
        << row;

    const std::size_t slash = c[5].find('/');
    ASSERT_NE(slash, std::string::npos) << row;
    EXPECT_EQ(figure(c[5].substr(slash + 1)), (*kernel)["shared_load"].get<int>()) << row;
    const ProcessResult sass =
        run_threadlab({"inspect", "--lesson", "matmul", "--arch", "sm_90", "--kernel",
                       (*kernel)["kernel"].get<std::string>(), "--sass"});
    ASSERT_TRUE(sass.exited && sass.exit_code == 0) << sass.describe();
    int ffma = 0;
    for (const std::string& line : split_lines(sass.out)) {
      if (line.find(" FFMA ") != std::string::npos) ++ffma;
    }
    EXPECT_EQ(figure(c[5].substr(0, slash)), ffma) << row;
  }
}

}  // namespace
}  // namespace tl::cli_test
