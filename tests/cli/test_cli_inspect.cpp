// `threadlab inspect`: what nvcc made of a lesson's kernels, from the listings the build embedded
// (a build without the CUDA toolkit or its disassembler has none: these tests skip, saying so).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
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

std::string lesson_text(const std::string& folder) {
  std::ifstream lesson(std::string(THREADLAB_SOURCE_DIR) + "/lessons/" + folder + "/lesson.md");
  std::stringstream text;
  text << lesson.rdbuf();
  return text.str();
}

// The body rows of the table under `<!-- marker`, without its heading and rule.
std::vector<std::string> marked_table_rows(const std::string& text, const std::string& marker) {
  std::vector<std::string> rows;
  bool in_table = false;
  bool heading = true;
  for (const std::string& line : split_lines(text)) {
    if (line.find("<!-- " + marker) != std::string::npos) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (line.empty()) break;
    if (heading) {  // the heading row, then the rule
      if (line.starts_with("| ---")) heading = false;
      continue;
    }
    rows.push_back(line);
  }
  return rows;
}

// This build's sm_90 resources of a lesson's kernels, or why there are none (a skip).
std::optional<nlohmann::json> sm90_resources(const std::string& lesson, std::string& why_not) {
  const ProcessResult table = run_threadlab(
      {"inspect", "--lesson", lesson, "--arch", "sm_90", "--resources", "--format", "json"});
  if ((table.exited && table.exit_code == 2 &&
       table.err.find("was built for") != std::string::npos) ||
      (table.exited && table.exit_code == 1 &&
       table.err.find("no compiled listings in this build") != std::string::npos)) {
    why_not = table.err;
    return std::nullopt;
  }
  EXPECT_TRUE(table.exited && table.exit_code == 0) << table.describe();
  auto kernels = nlohmann::json::parse(table.out, nullptr, false);
  EXPECT_TRUE(kernels.is_array()) << table.describe();
  return kernels;
}

const nlohmann::json* kernel_named(const nlohmann::json& kernels, const std::string& name) {
  for (const auto& k : kernels) {
    if (k["kernel"].get<std::string>() == name) return &k;
  }
  return nullptr;
}

TEST(CliInspect, TheMatmulLessonsCompiledLadderTableIsThisBuildsListings) {
  const std::vector<std::string> rows =
      marked_table_rows(lesson_text("04_matmul"), "compiled-ladder");
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

// Lesson 4's launch-bounds experiment (the table under `compiled-launch-bounds`) and its count of
// wide loads are this build's listings: the 2D rung and its four-blocks twin, registers, stack
// frame, spill instructions, instruction count and the occupancy the model gives on an H100 SXM.
TEST(CliInspect, TheMatmulLessonsLaunchBoundsExperimentIsThisBuildsListings) {
  const std::string text = lesson_text("04_matmul");
  const std::vector<std::string> rows = marked_table_rows(text, "compiled-launch-bounds");
  ASSERT_EQ(rows.size(), 2u) << "the table under the compiled-launch-bounds marker";
  std::string why_not;
  const std::optional<nlohmann::json> kernels = sm90_resources("matmul", why_not);
  if (!kernels) GTEST_SKIP() << "no sm_90 listings in this build: " << why_not;
  const ReferenceGpu h100 = *find_reference_gpu("H100 SXM");
  for (const std::string& row : rows) {
    const std::vector<std::string> c = cells(row);
    ASSERT_GE(c.size(), 8u) << row;
    const nlohmann::json* k = kernel_named(*kernels, "tl::gpu::" + c[0] + "<tl::Untraced>");
    ASSERT_NE(k, nullptr) << "no kernel " << c[0] << " in the listings";
    EXPECT_EQ(figure(c[2]), (*k)["registers"].get<int>()) << row;
    EXPECT_EQ(figure(c[3]), (*k)["stack_bytes"].get<int>()) << row;
    const std::size_t slash = c[4].find('/');
    ASSERT_NE(slash, std::string::npos) << row;
    EXPECT_EQ(figure(c[4].substr(0, slash)), (*k)["spill_stores"].get<int>()) << row;
    EXPECT_EQ(figure(c[4].substr(slash + 1)), (*k)["spill_loads"].get<int>()) << row;
    EXPECT_EQ(figure(c[5]), (*k)["instructions"].get<int>()) << row;
    KernelResources resources;
    resources.registers_per_thread = (*k)["registers"].get<std::uint32_t>();
    resources.static_shared_bytes = (*k)["shared_bytes"].get<std::uint64_t>();
    const Occupancy occupancy = compute_occupancy(reference_device_info(h100), resources,
                                                  static_cast<std::uint32_t>(figure(c[6])));
    EXPECT_EQ(figure(c[7].substr(0, c[7].find('('))),
              static_cast<int>(occupancy.fraction() * 100.0 + 0.5))
        << row;
  }
  const nlohmann::json* spilling =
      kernel_named(*kernels, "tl::gpu::matmul_regtile_2d_four_blocks<tl::Untraced>");
  ASSERT_NE(spilling, nullptr);
  EXPECT_GT((*spilling)["spill_stores"].get<int>(), 0) << "the experiment is a kernel that spills";

  // "2 of its 10 global loads are `LDG.E.128`, where the 2D rung has 0 of 14"
  std::string flat = text.substr(text.find("<!-- wide-loads"));
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      flat, m,
      std::regex(
          R"((\d+) of its (\d+) global +loads are `LDG\.E\.128`, +where +the +2D +rung +has +(\d+) +of +(\d+))")))
      << "the wide-loads sentence";
  const nlohmann::json* vectorized =
      kernel_named(*kernels, "tl::gpu::matmul_vectorized<tl::Untraced>");
  const nlohmann::json* regtile =
      kernel_named(*kernels, "tl::gpu::matmul_regtile_2d<tl::Untraced>");
  ASSERT_TRUE(vectorized != nullptr && regtile != nullptr);
  EXPECT_EQ(std::stoi(m[1]), (*vectorized)["global_loads_128_bit"].get<int>());
  EXPECT_EQ(std::stoi(m[2]), (*vectorized)["global_load"].get<int>());
  EXPECT_EQ(std::stoi(m[3]), (*regtile)["global_loads_128_bit"].get<int>());
  EXPECT_EQ(std::stoi(m[4]), (*regtile)["global_load"].get<int>());
}

// Lesson 5's --use_fast_math table (under `compiled-fast-math`) is this build's listings, and what
// the text says of the two SASS listings holds: both use MUFU.EX2, only the default build calls a
// slow-path division, and the fast one's instructions flush to zero.
TEST(CliInspect, TheDenseLayerLessonsFastMathTableIsThisBuildsListings) {
  const std::vector<std::string> rows =
      marked_table_rows(lesson_text("05_dense_layer"), "compiled-fast-math");
  ASSERT_EQ(rows.size(), 2u) << "the table under the compiled-fast-math marker";
  std::string why_not;
  const std::optional<nlohmann::json> kernels = sm90_resources("dense-layer", why_not);
  if (!kernels) GTEST_SKIP() << "no sm_90 listings in this build: " << why_not;
  for (const std::string& row : rows) {
    const std::vector<std::string> c = cells(row);
    ASSERT_GE(c.size(), 5u) << row;
    const nlohmann::json* k = kernel_named(*kernels, "tl::gpu::" + c[0] + "<tl::Untraced>");
    ASSERT_NE(k, nullptr) << "no kernel " << c[0] << " in the listings";
    EXPECT_EQ(figure(c[2]), (*k)["registers"].get<int>()) << row;
    EXPECT_EQ(figure(c[3]), (*k)["instructions"].get<int>()) << row;
    EXPECT_EQ(figure(c[4]), (*k)["special_function"].get<int>()) << row;
  }
  const auto sass_of = [](const std::string& kernel) {
    const ProcessResult sass = run_threadlab(
        {"inspect", "--lesson", "dense-layer", "--arch", "sm_90", "--kernel", kernel, "--sass"});
    EXPECT_TRUE(sass.exited && sass.exit_code == 0) << sass.describe();
    return sass.out;
  };
  const std::string precise = sass_of("tl::gpu::dense_sigmoid<tl::Untraced>");
  const std::string fast = sass_of("tl::gpu::fast_math::dense_sigmoid<tl::Untraced>");
  EXPECT_THAT(precise, HasSubstr("MUFU.EX2"));
  EXPECT_THAT(fast, HasSubstr("MUFU.EX2"));
  EXPECT_THAT(precise, HasSubstr("CALL.REL"));
  EXPECT_THAT(precise, HasSubstr("FCHK"));
  EXPECT_EQ(fast.find("CALL"), std::string::npos) << fast;
  EXPECT_THAT(fast, HasSubstr("FMUL.FTZ"));
}

}  // namespace
}  // namespace tl::cli_test
