// `threadlab run --lesson L --memory-table`: the per-line memory table of the lesson's own kernels,
// recorded on the emulator, as a table, CSV or JSON, and the refusals. And `threadlab render
// --memory-line N`: one warp's request of such a line, drawn to a PNG as the Memory tab draws it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

// --counters beside --memory-table reads the GPU's counters of the same kernels (GPU test:
// tests/gpu/test_memory_model_counters_gpu.cpp); where it cannot, the table still comes and one
// line says why: on stdout under a table, on stderr beside JSON, which stdout keeps alone.
TEST(CliMemoryTable, CountersOnTheEmulatorSayWhyAndKeepTheTable) {
  const ProcessResult table =
      run_threadlab({"run", "--lesson", "2d-blocks", "--backend", "emulator", "--rows", "256",
                     "--cols", "256", "--block", "32,8", "--memory-table", "--counters"});
  ASSERT_TRUE(table.exited && table.exit_code == 0) << table.describe();
  EXPECT_THAT(table.out, HasSubstr("matrix_add_x_to_row")) << table.describe();
  EXPECT_THAT(table.out, HasSubstr("hardware counters need an NVIDIA GPU")) << table.describe();

  const ProcessResult json =
      run_threadlab({"run", "--lesson", "2d-blocks", "--backend", "emulator", "--rows", "256",
                     "--cols", "256", "--memory-table", "--counters", "--format", "json"});
  ASSERT_TRUE(json.exited && json.exit_code == 0) << json.describe();
  EXPECT_FALSE(nlohmann::json::parse(json.out, nullptr, false).is_discarded()) << json.describe();
  EXPECT_THAT(json.err, HasSubstr("hardware counters need an NVIDIA GPU")) << json.describe();

  const ProcessResult uncounted =
      run_threadlab({"run", "--lesson", "vector-add", "--backend", "emulator", "--n", "4096",
                     "--memory-table", "--counters"});
  ASSERT_TRUE(uncounted.exited && uncounted.exit_code == 0) << uncounted.describe();
  EXPECT_THAT(uncounted.out, HasSubstr("vector-add does not count its kernels"))
      << uncounted.describe();
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

// render --memory-line: the lesson 3 kernels at blocks of 32 × 8, whose line 24 (x → column) and
// line 40 (x → row) of matrix_add.cuh are `c[i] = a[i] + b[i];`.
class CliRenderMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    // A folder per test: ctest runs them in parallel, and each removes its own when done.
    dir_ = std::filesystem::path(::testing::TempDir()) /
           (std::string("threadlab_render_memory_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static ProcessResult render(std::vector<std::string> extra) {
    std::vector<std::string> args = {"render",   "--lesson", "2d-blocks", "--backend",
                                     "emulator", "--rows",   "256",       "--cols",
                                     "256",      "--block",  "32,8"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_threadlab(args);
  }
  static std::string bytes_of(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  }
  // A whole PNG: its header, and the IEND chunk that closes every complete one.
  static void expect_whole_png(const std::filesystem::path& path, std::uint32_t width) {
    const PngHeader header = read_png_header(path);
    ASSERT_TRUE(header.ok) << "no PNG at " << path;
    EXPECT_EQ(header.width, width);
    const std::string bytes = bytes_of(path);
    ASSERT_GE(bytes.size(), 12u);
    EXPECT_EQ(bytes.substr(bytes.size() - 8, 4), "IEND") << path;
  }
  std::filesystem::path dir_;
};

TEST_F(CliRenderMemory, DrawsACoalescedAndAStridedRequestAsTallAsThePicture) {
  const std::filesystem::path column = dir_ / "column.png";
  const ProcessResult by_column =
      render({"--memory-line", "24", "--width", "900", "--out", column.string()});
  ASSERT_TRUE(by_column.exited && by_column.exit_code == 0) << by_column.describe();
  // The tab's summary and title, for warp request 0: block 0's warp 0, loading a.
  EXPECT_THAT(by_column.out, HasSubstr("wrote " + column.string())) << by_column.describe();
  EXPECT_THAT(by_column.out, HasSubstr("4 sectors in 1 line: 128 bytes moved for 128 bytes used"))
      << by_column.describe();
  EXPECT_THAT(by_column.out, HasSubstr("warp 0")) << by_column.describe();
  EXPECT_THAT(by_column.out, HasSubstr("load of a")) << by_column.describe();
  expect_whole_png(column, 900);
  const PngHeader fitted = read_png_header(column);
  // As tall as the picture: the lanes, the sectors and the text, far less than the 2048 measured.
  EXPECT_GT(fitted.height, 150u);
  EXPECT_LT(fitted.height, 600u);

  const std::filesystem::path row = dir_ / "row.png";
  const ProcessResult by_row = render({"--memory-line", "40", "--memory-kernel", "x → row",
                                       "--width", "900", "--out", row.string()});
  ASSERT_TRUE(by_row.exited && by_row.exit_code == 0) << by_row.describe();
  EXPECT_THAT(by_row.out, HasSubstr("32 sectors in 32 lines")) << by_row.describe();
  EXPECT_THAT(by_row.out, HasSubstr("8× the bytes needed")) << by_row.describe();
  expect_whole_png(row, 900);
  EXPECT_NE(bytes_of(column), bytes_of(row)) << "the two requests drew the same picture";
}

TEST_F(CliRenderMemory, TakesTheSizeAskedForAndAnotherRequestOfTheLine) {
  const std::filesystem::path png = dir_ / "store.png";
  // Line 24's 64 loads (a and b) come first, then its 32 stores: request 64 is the first store.
  const ProcessResult r = render({"--memory-line", "24", "--warp", "64", "--width", "640",
                                  "--height", "400", "--out", png.string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("warp request 64 of 96 on line 24 (global store of c)"))
      << r.describe();
  expect_whole_png(png, 640);
  EXPECT_EQ(read_png_header(png).height, 400u);
}

TEST_F(CliRenderMemory, DrawsASharedRequestOntoTheBanks) {
  const std::filesystem::path png = dir_ / "banks.png";
  // The strided tree's first step: lanes two words apart, two words in each of 16 banks.
  const ProcessResult r = run_threadlab(
      {"render", "--lesson", "reductions", "--backend", "emulator", "--n", "4096", "--block", "256",
       "--memory-kernel", "strided", "--memory-line", "57", "--out", png.string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("shared load")) << r.describe();
  EXPECT_THAT(r.out, HasSubstr("2-way bank conflict")) << r.describe();
  expect_whole_png(png, 1280);
}

TEST_F(CliRenderMemory, RefusesALineWithoutAccessesAndNamesTheLinesThatHaveThem) {
  const std::filesystem::path png = dir_ / "none.png";
  const ProcessResult r = render({"--memory-line", "12", "--out", png.string()});
  EXPECT_TRUE(r.exited && r.exit_code == 2) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("line 12 of matrix_add.cuh has no memory access")) << r.describe();
  EXPECT_THAT(r.err, HasSubstr("access lines: 24")) << r.describe();
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.describe();
  EXPECT_FALSE(std::filesystem::exists(png)) << "a refused render wrote a PNG";
}

TEST_F(CliRenderMemory, RefusesARequestPastTheLinesAndAnUnknownKernel) {
  const std::filesystem::path png = dir_ / "none.png";
  const ProcessResult past = render({"--memory-line", "24", "--warp", "96", "--out", png.string()});
  EXPECT_TRUE(past.exited && past.exit_code == 2) << past.describe();
  EXPECT_THAT(past.err, HasSubstr("line 24 of matrix_add.cuh has 96 warp requests (0 to 95: 64 "
                                  "global loads, then 32 global stores)"))
      << past.describe();
  const ProcessResult kernel =
      render({"--memory-line", "24", "--memory-kernel", "diagonal", "--out", png.string()});
  EXPECT_TRUE(kernel.exited && kernel.exit_code == 2) << kernel.describe();
  EXPECT_THAT(kernel.err, HasSubstr("0 'x → column', 1 'x → row'")) << kernel.describe();
  const ProcessResult lesson =
      run_threadlab({"render", "--lesson", "moving-data", "--backend", "emulator", "--memory-line",
                     "3", "--out", png.string()});
  EXPECT_TRUE(lesson.exited && lesson.exit_code == 2) << lesson.describe();
  EXPECT_THAT(lesson.err, HasSubstr("does not record its kernels' memory accesses"))
      << lesson.describe();
  const ProcessResult warp_alone = render({"--warp", "1", "--out", png.string()});
  EXPECT_TRUE(warp_alone.exited && warp_alone.exit_code == 2) << warp_alone.describe();
  EXPECT_THAT(warp_alone.err, HasSubstr("--warp is for --memory-line N")) << warp_alone.describe();
  EXPECT_FALSE(std::filesystem::exists(png)) << "a refused render wrote a PNG";
}

TEST(CliRenderMemoryHelp, NamesTheOptions) {
  const ProcessResult r = run_threadlab({"render", "--help"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  for (const char* option : {"--memory-line", "--warp", "--memory-kernel"}) {
    EXPECT_THAT(r.out, HasSubstr(option)) << r.describe();
  }
  const ProcessResult run = run_threadlab({"run", "--help"});
  EXPECT_THAT(run.out, HasSubstr("Not --memory: that is the moving-data lesson's parameter"))
      << run.describe();
}

}  // namespace
}  // namespace tl::cli_test
