// Lesson 3, 2D blocks, through the Lesson interface the UI and the command line use: its
// parameters as lesson links give them, the covering grid of each mapping, timed runs that measure
// both mappings, traced runs of the selected one, sweeps over square matrices, presets.

#include <gtest/gtest.h>

#include "report_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "block_step_replay.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/trace.hpp"

namespace tl::compute {
namespace {

constexpr const char* kCoalescedRow = "Emulated kernel (CPU), x → column (coalesced)";
constexpr const char* kStridedRow = "Emulated kernel (CPU), x → row (strided)";

class MatrixAddLessonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lesson = make_lesson("2d-blocks");
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    lesson_ = std::move(*lesson);
    lesson_->set_repeats(1);
  }

  std::unique_ptr<Device> device_ = make_emulator_device();
  std::unique_ptr<Lesson> lesson_;
};

TEST_F(MatrixAddLessonTest, IsTheThirdLessonWithAMatrixOfData) {
  EXPECT_EQ(lesson_->info().number, 3);
  std::vector<std::string> names;
  for (const auto& spec : lesson_->params()) names.push_back(spec.name);
  EXPECT_EQ(names, (std::vector<std::string>{"rows", "cols", "grid", "block", "mapping"}));
  EXPECT_EQ(lesson_->values().at("block"), "16,16");
  EXPECT_EQ(lesson_->values().at("mapping"), "x-to-col");
  ASSERT_TRUE(lesson_->configure({{"rows", "100"}, {"cols", "70"}}).is_ok());
  EXPECT_EQ(lesson_->data_shape().rows, 100u);
  EXPECT_EQ(lesson_->data_shape().cols, 70u);
}

TEST_F(MatrixAddLessonTest, AutoGridCoversTheMatrixUnderTheSelectedMapping) {
  ASSERT_TRUE(lesson_->configure({{"rows", "100"}, {"cols", "70"}, {"block", "32,8"}}).is_ok());
  // x counts columns: ceil(70 / 32) = 3 blocks in x, ceil(100 / 8) = 13 in y.
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{3, 13, 1}, {32, 8, 1}}));
  ASSERT_TRUE(lesson_->configure({{"mapping", "x_to_row"}}).is_ok());
  // x counts rows: ceil(100 / 32) = 4, ceil(70 / 8) = 9.
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{4, 9, 1}, {32, 8, 1}}));
  ASSERT_TRUE(lesson_->configure({{"grid", "6,7"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config().grid, (Dim3{6, 7, 1}));
}

TEST_F(MatrixAddLessonTest, BadOrUnknownParametersChangeNothing) {
  ASSERT_TRUE(lesson_->configure({{"rows", "64"}, {"cols", "48"}}).is_ok());
  const auto before = lesson_->values();
  const LaunchConfig config_before = lesson_->launch_config();

  EXPECT_FALSE(lesson_->configure({{"rows", "0"}, {"block", "32,8"}}).is_ok());
  const auto bad_mapping = lesson_->configure({{"mapping", "diagonal"}, {"cols", "10"}});
  ASSERT_FALSE(bad_mapping.is_ok());
  EXPECT_NE(bad_mapping.message().find("mapping"), std::string::npos) << bad_mapping.message();
  EXPECT_FALSE(lesson_->configure({{"block", "16,0"}}).is_ok());
  EXPECT_FALSE(lesson_->configure({{"cols", "lots"}}).is_ok());
  // More threads in x than the kernel's int column can count.
  EXPECT_FALSE(lesson_->configure({{"grid", "2147483647,1"}, {"block", "1024"}}).is_ok());
  const auto unknown = lesson_->configure({{"n", "4"}});
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.message().find("not a parameter"), std::string::npos) << unknown.message();

  EXPECT_EQ(lesson_->values(), before);
  EXPECT_EQ(lesson_->launch_config(), config_before);
}

TEST_F(MatrixAddLessonTest, TimedRunReportsBothMappingsAndTheCpuWithBytes) {
  ASSERT_TRUE(lesson_->configure({{"rows", "100"}, {"cols", "70"}, {"block", "32,8"}}).is_ok());
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->on_gpu);
  ASSERT_EQ(report->rows.size(), 7u);
  // Coalesced first, whichever mapping is selected: the same series on every run.
  EXPECT_EQ(report->rows[0].name, kCoalescedRow);
  EXPECT_EQ(report->rows[1].name, kStridedRow);
  // Every plotted row did the same work: the kernels, end to end and the CPU loops.
  int plotted = 0;
  for (const TimingRow& row : report->rows) {
    EXPECT_EQ(row.stats.repeats, 1) << row.name;
    if (!row.plotted) continue;
    ++plotted;
    EXPECT_DOUBLE_EQ(row.bytes, 12.0 * 7000) << row.name;
    EXPECT_DOUBLE_EQ(row.flops, 7000.0) << row.name;
  }
  EXPECT_EQ(plotted, 5);
  for (const char* name : {"copy A, B (emulated)", "copy C (emulated)",
                           "Emulated end to end: copies + kernel x → column (CPU)", "CPU, 1 thread",
                           "CPU, all threads"}) {
    EXPECT_NE(row_named(*report, name), nullptr) << name;
  }
  // End to end is the copies and the selected (coalesced) kernel.
  EXPECT_GE(
      row_named(*report, "Emulated end to end: copies + kernel x → column (CPU)")->stats.median_ms,
      report->rows[0].stats.median_ms);
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
  EXPECT_NE(report->check->description.find("both mappings"), std::string::npos)
      << report->check->description;
  // The mapping not selected ran with its own covering grid, and the report says which.
  const std::string grid_note =
      "x → row ran with " + LaunchConfig{{4, 9, 1}, {32, 8, 1}}.to_string();
  EXPECT_TRUE(std::any_of(report->notes.begin(), report->notes.end(), [&](const std::string& note) {
    return note.find(grid_note) != std::string::npos;
  })) << grid_note;

  ASSERT_TRUE(lesson_->configure({{"mapping", "x_to_row"}}).is_ok());
  auto strided = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(strided.is_ok()) << strided.message();
  ASSERT_EQ(strided->rows.size(), 7u);
  EXPECT_EQ(strided->rows[0].name, kCoalescedRow);
  EXPECT_EQ(strided->rows[1].name, kStridedRow);
}

TEST_F(MatrixAddLessonTest, ANarrowGridFailsTheCheckOfTheSelectedMappingOnly) {
  // 6 blocks of 16 in x reach column 95: columns 96 to 99 are never written under x_to_col.
  ASSERT_TRUE(lesson_
                  ->configure({{"rows", "100"},
                               {"cols", "100"},
                               {"grid", "6,7"},
                               {"block", "16,16"},
                               {"mapping", "x_to_col"}})
                  .is_ok());
  lesson_->set_time_cpu(false);
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_FALSE(report->check->passed);
  EXPECT_EQ(report->check->description.rfind("x → column: ", 0), 0u) << report->check->description;
  EXPECT_NE(report->check->description.find("(row 0, col 96)"), std::string::npos)
      << report->check->description;
  EXPECT_EQ(row_named(*report, "CPU, 1 thread"), nullptr);
  EXPECT_NE(row_named(*report, kStridedRow), nullptr);
}

TEST_F(MatrixAddLessonTest, TracedRunTracesTheSelectedMappingOverTheMatrix) {
  ASSERT_TRUE(
      lesson_
          ->configure(
              {{"rows", "100"}, {"cols", "70"}, {"block", "16,16"}, {"mapping", "x_to_row"}})
          .is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_EQ(traced->shape.rows, 100u);
  EXPECT_EQ(traced->shape.cols, 70u);
  EXPECT_EQ(traced->config, (LaunchConfig{{7, 5, 1}, {16, 16, 1}}));
  ASSERT_TRUE(traced->check.has_value());
  EXPECT_TRUE(traced->check->passed) << traced->check->description;
  EXPECT_TRUE(traced->blocks.empty());
  ASSERT_EQ(sink.records().size(), 7000u);
  EXPECT_EQ(summarize(sink.records(), traced->config).unwritten, 0u);
  // Element (37, 20) under row = x: x = 37 is block 2, thread 5; y = 20 is block 1, thread 4.
  const std::uint64_t element = 37 * 70 + 20;
  const DecodedTrace owner =
      decode(sink.records()[element], element, traced->shape, traced->config);
  EXPECT_EQ(owner.row, 37u);
  EXPECT_EQ(owner.col, 20u);
  EXPECT_EQ(owner.block, (Dim3{2, 1, 0}));
  EXPECT_EQ(owner.thread, (Dim3{5, 4, 0}));
  EXPECT_EQ(owner.writes, 1u);
}

TEST_F(MatrixAddLessonTest, SweepVisitsSquareMatricesWithinWhatTheEmulatorDoes) {
  EXPECT_EQ(lesson_->size_label(), "matrix side (rows = cols)");
  const auto sizes = lesson_->sweep_sizes(*device_);
  ASSERT_FALSE(sizes.empty());
  EXPECT_EQ(sizes.front(), 32u);
  EXPECT_LE(sizes.back(), 4096u);
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));

  ASSERT_TRUE(
      lesson_->configure({{"grid", "6,7"}, {"block", "32,8"}, {"mapping", "x_to_row"}}).is_ok());
  const auto values = lesson_->values_for_size(256);
  EXPECT_EQ(values.at("rows"), "256");
  EXPECT_EQ(values.at("cols"), "256");
  EXPECT_EQ(values.at("grid"), "auto");
  EXPECT_EQ(values.at("mapping"), "x-to-row");
  EXPECT_EQ(values.at("block"), "32,8");
  ASSERT_TRUE(lesson_->configure(values).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{8, 32, 1}, {32, 8, 1}}));
}

TEST_F(MatrixAddLessonTest, PresetsSelectTheMappingsTheLessonCompares) {
  const auto presets = lesson_->presets();
  auto find = [&](const std::string& label) -> const LessonPreset* {
    auto it = std::find_if(presets.begin(), presets.end(),
                           [&](const LessonPreset& p) { return p.label == label; });
    return it == presets.end() ? nullptr : &*it;
  };
  const LessonPreset* article = find("the article's row = threadIdx.x");
  ASSERT_NE(article, nullptr);
  EXPECT_EQ(article->values.at("mapping"), "x-to-row");
  const LessonPreset* coalesced = find("coalesced");
  ASSERT_NE(coalesced, nullptr);
  EXPECT_EQ(coalesced->values.at("mapping"), "x-to-col");

  const LessonPreset* single_block = find("the article's single block");
  ASSERT_NE(single_block, nullptr);
  ASSERT_TRUE(lesson_->configure(single_block->values).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{1, 1, 1}, {32, 32, 1}}));
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_TRUE(traced->check->passed) << traced->check->description;

  for (const LessonPreset& p : presets) {
    EXPECT_TRUE(lesson_->configure(p.values).is_ok()) << p.label;
    EXPECT_TRUE(validate(lesson_->launch_config(), device_->info().limits).empty()) << p.label;
  }
}

TEST_F(MatrixAddLessonTest, CrossoverIsThePlainLoopAgainstTheGpuEndToEnd) {
  const auto pair = lesson_->crossover();
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->first, (TimingKey{TimingRole::kCpuOneThread, ""}));
  EXPECT_EQ(pair->second, (TimingKey{TimingRole::kEndToEndPageable, ""}));
}

// The 2D blocks the block sweep visits: as wide as a warp, then taller, never more than 32 × 32.
std::vector<Dim3> expected_2d_sweep() {
  return {{1, 1, 1},  {2, 1, 1},   {4, 1, 1},   {8, 1, 1},   {16, 1, 1},
          {32, 1, 1}, {32, 2, 1},  {32, 3, 1},  {32, 4, 1},  {32, 6, 1},
          {32, 8, 1}, {32, 12, 1}, {32, 16, 1}, {32, 24, 1}, {32, 32, 1}};
}

// The block sweep, as the app runs it (a fresh lesson given the current values, then each step's),
// under both mappings: every step configures, its grid covers the matrix under the mapping, and
// its traced launch writes every element once.
TEST_F(MatrixAddLessonTest, BlockSweepVisits2DBlocksThatCoverTheMatrixUnderEitherMapping) {
  for (const char* mapping : {"x-to-col", "x-to-row"}) {
    SCOPED_TRACE(mapping);
    const bool x_is_col = std::string(mapping) == "x-to-col";
    ASSERT_TRUE(lesson_
                    ->configure({{"rows", "40"},
                                 {"cols", "70"},
                                 {"grid", "6,7"},
                                 {"block", "16,16"},
                                 {"mapping", mapping}})
                    .is_ok());
    const auto steps = lesson_->block_sweep();
    std::vector<Dim3> blocks;
    for (const BlockStep& step : steps) blocks.push_back(step.block);
    EXPECT_EQ(blocks, expected_2d_sweep());
    for (const BlockStep& step : steps) {
      SCOPED_TRACE("block " + to_string(step.block));
      EXPECT_EQ(step.values.at("block"),
                std::to_string(step.block.x) + "," + std::to_string(step.block.y));
      EXPECT_EQ(step.values.at("grid"), "auto");
      EXPECT_EQ(step.values.at("mapping"), mapping);
      EXPECT_EQ(step.values.at("rows"), "40");
      EXPECT_EQ(step.values.at("cols"), "70");

      const auto lesson = lesson_for_block_step("2d-blocks", lesson_->values(), step);
      ASSERT_NE(lesson, nullptr);
      const LaunchConfig config = lesson->launch_config();
      const std::uint32_t along_x = x_is_col ? 70 : 40, along_y = x_is_col ? 40 : 70;
      const Dim3 grid{(along_x + step.block.x - 1) / step.block.x,
                      (along_y + step.block.y - 1) / step.block.y, 1};
      EXPECT_EQ(config, (LaunchConfig{grid, step.block}));
      EXPECT_TRUE(validate(config, device_->info().limits).empty());
      const auto traced = trace_block_step(*lesson, *device_);
      ASSERT_TRUE(traced.has_value());
      EXPECT_EQ(traced->summary.unwritten, 0u);
      EXPECT_EQ(traced->summary.written_more, 0u);
    }
  }
}

}  // namespace
}  // namespace tl::compute
