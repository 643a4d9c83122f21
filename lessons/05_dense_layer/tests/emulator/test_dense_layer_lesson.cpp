// Lesson 5 through the Lesson interface the UI, the command line and the sweeps use.

#include <gtest/gtest.h>

#include "report_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "block_step_replay.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"
#include "lessons/05_dense_layer/dense_layer_lesson.hpp"

namespace tl::compute {
namespace {

constexpr const char* kEmulatedUnfused = "Emulated unfused, 3 launches (CPU)";
constexpr const char* kEmulatedProduct = "Emulated unfused 1/3: product X · Wᵀ (CPU)";
constexpr const char* kEmulatedBias = "Emulated unfused 2/3: add bias (CPU)";
constexpr const char* kEmulatedSigmoid = "Emulated unfused 3/3: sigmoid (CPU)";
constexpr const char* kEmulatedFused = "Emulated fused (CPU)";

bool has_note_containing(const LessonReport& report, const std::string& a, const std::string& b) {
  return std::any_of(report.notes.begin(), report.notes.end(), [&](const std::string& note) {
    return note.find(a) != std::string::npos && note.find(b) != std::string::npos;
  });
}

class DenseLayerLessonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lesson = make_lesson("dense-layer");
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    lesson_ = std::move(*lesson);
    lesson_->set_repeats(1);
  }
  // The concrete lesson, for what the interface does not offer.

  std::unique_ptr<Device> device_ = make_emulator_device();
  std::unique_ptr<Lesson> lesson_;
};

// The names, --in and --out, work on the lesson itself, not only through the CLI.
TEST_F(DenseLayerLessonTest, InAndOutAreAliasesOfInputsAndNeurons) {
  ASSERT_TRUE(lesson_->configure({{"in", "100"}, {"out", "70"}}).is_ok());
  const lessons::ParamValues values = lesson_->values();
  EXPECT_EQ(values.at("inputs"), "100");
  EXPECT_EQ(values.at("neurons"), "70");
  EXPECT_EQ(values.count("in"), 0u);
  EXPECT_FALSE(lesson_->configure({{"out", "4"}, {"neurons", "5"}}).is_ok());
}

TEST_F(DenseLayerLessonTest, IsInTheCatalogWithTheDocumentedDefaults) {
  EXPECT_EQ(lesson_->info().id, "dense-layer");
  const lessons::ParamValues values = lesson_->values();
  EXPECT_EQ(values.at("batch"), "1");
  EXPECT_EQ(values.at("inputs"), "1024");

  EXPECT_EQ(values.at("neurons"), "1024");
  EXPECT_EQ(values.at("path"), "fused");
  EXPECT_EQ(values.at("block"), "32,8");
  EXPECT_EQ(values.at("grid"), "auto");
  // 1024 neurons across in blocks 32 wide, one batch row within the first 8 rows of threads.
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{32, 1, 1}, {32, 8, 1}}));
  EXPECT_EQ(lesson_->data_shape().rows, 1u);
  EXPECT_EQ(lesson_->data_shape().cols, 1024u);

  const auto params = lesson_->params();
  const auto path = std::find_if(params.begin(), params.end(),
                                 [](const lessons::ParamSpec& s) { return s.name == "path"; });
  ASSERT_NE(path, params.end());
  EXPECT_EQ(path->kind, lessons::ParamKind::kChoice);
  EXPECT_EQ(path->choices, (std::vector<std::string>{"unfused", "fused", "cublas"}));
}

TEST_F(DenseLayerLessonTest, AutoGridCoversYAndAnExplicitGridIsKept) {
  // Y is 20 × 70: x along the 70 neurons, y along the 20 batch rows.
  ASSERT_TRUE(lesson_->configure({{"batch", "20"}, {"inputs", "100"}, {"neurons", "70"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{3, 3, 1}, {32, 8, 1}}));
  EXPECT_EQ(lesson_->launch_config(),
            lessons::dense_layer_config({20, 100, 70, lessons::DenseLayerPath::kFused}));
  EXPECT_EQ(lesson_->data_shape().rows, 20u);
  EXPECT_EQ(lesson_->data_shape().cols, 70u);
  ASSERT_TRUE(lesson_->configure({{"block", "16,4"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{5, 5, 1}, {16, 4, 1}}));
  ASSERT_TRUE(lesson_->configure({{"grid", "2,2"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{2, 2, 1}, {16, 4, 1}}));
  ASSERT_TRUE(lesson_->configure({{"grid", "auto"}, {"block", "32,8"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config().grid, (Dim3{3, 3, 1}));
}

TEST_F(DenseLayerLessonTest, BadValuesAreRefusedNamingTheParameterAndChangeNothing) {
  ASSERT_TRUE(
      lesson_
          ->configure({{"batch", "4"}, {"inputs", "100"}, {"neurons", "70"}, {"path", "unfused"}})
          .is_ok());
  const lessons::ParamValues before = lesson_->values();
  const LaunchConfig config_before = lesson_->launch_config();
  const std::vector<std::pair<lessons::ParamValues, std::string>> bad = {
      {{{"batch", "0"}, {"inputs", "64"}}, "batch: "},
      {{{"inputs", "lots"}}, "inputs: "},
      {{{"neurons", "-3"}}, "neurons: "},
      {{{"neurons", "0"}}, "neurons: "},
      {{{"path", "fast"}, {"batch", "8"}}, "path: "},
      {{{"block", "0,8"}}, "block: "},
      {{{"grid", "1,2,3,4"}}, "grid: "},
      {{{"n", "4"}}, "'n' is not a parameter of dense-layer"},
  };
  for (const auto& [values, named] : bad) {
    const Status status = lesson_->configure(values);
    ASSERT_FALSE(status.is_ok()) << named;
    EXPECT_TRUE(status.message().starts_with(named)) << status.message();
    EXPECT_EQ(lesson_->values(), before) << named;
    EXPECT_EQ(lesson_->launch_config(), config_before) << named;
  }
  // Refusals of the layer or the launch shape as a whole, which name what is wrong in the text.
  const std::vector<std::pair<lessons::ParamValues, std::string>> whole = {
      // X would be 2^20 × 2^20: past the kernels' int index.
      {{{"batch", "2^20"}, {"inputs", "2^20"}}, "int index"},
      // Each block keeps the weights of at most 32 neurons in shared memory (lesson.md's link).
      {{{"block", "64,4"}, {"batch", "8"}}, "block 64×4 is too large"},
      {{{"grid", "2,2,2"}}, "z dimensions must be 1"},
  };
  for (const auto& [values, says] : whole) {
    const Status status = lesson_->configure(values);
    ASSERT_FALSE(status.is_ok()) << says;
    EXPECT_NE(status.message().find(says), std::string::npos) << status.message();
    EXPECT_EQ(lesson_->values(), before) << says;
    EXPECT_EQ(lesson_->launch_config(), config_before) << says;
  }
}

TEST_F(DenseLayerLessonTest, TimedRunTimesEveryEmulatedPathAndTheCpuWithFlops) {
  ASSERT_TRUE(
      lesson_->configure({{"batch", "3"}, {"inputs", "37"}, {"neurons", "29"}, {"path", "unfused"}})
          .is_ok());
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->on_gpu);
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
  EXPECT_TRUE(report->check->description.starts_with("check passed")) << report->check->description;

  // Two flops per multiply-add and one per bias add.
  const double flops = 2.0 * 3 * 37 * 29 + 3 * 29;
  for (const char* name : {kEmulatedUnfused, kEmulatedFused, "CPU, 1 thread", "CPU, all threads"}) {
    const TimingRow* row = row_named(*report, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_EQ(row->stats.repeats, 1) << name;
    EXPECT_TRUE(row->plotted) << name;
    EXPECT_DOUBLE_EQ(row->flops, flops) << name;
    EXPECT_GT(row->bytes, 0) << name;
  }
  // The three unfused launches are listed, not plotted, and the path is their sum.
  double launches_ms = 0;
  for (const char* name : {kEmulatedProduct, kEmulatedBias, kEmulatedSigmoid}) {
    const TimingRow* row = row_named(*report, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_FALSE(row->plotted) << name;
    EXPECT_EQ(row->stats.repeats, 1) << name;
    launches_ms += row->stats.median_ms;
  }
  EXPECT_NEAR(row_named(*report, kEmulatedUnfused)->stats.median_ms, launches_ms, 1e-9);
  EXPECT_DOUBLE_EQ(row_named(*report, kEmulatedProduct)->flops, 2.0 * 3 * 37 * 29);
  // Fusing saves Z's four trips through memory: 3 × 29 floats each.
  EXPECT_DOUBLE_EQ(
      row_named(*report, kEmulatedUnfused)->bytes - row_named(*report, kEmulatedFused)->bytes,
      4.0 * 4 * 3 * 29);

  // The copies are timed but not plotted: W, X and b in, Y out.
  const TimingRow* copy_in = row_named(*report, "copy W, X, b (emulated)");
  ASSERT_NE(copy_in, nullptr);
  EXPECT_FALSE(copy_in->plotted);
  EXPECT_DOUBLE_EQ(copy_in->bytes, 4.0 * (29 * 37 + 3 * 37 + 29));
  ASSERT_NE(row_named(*report, "copy Y (emulated)"), nullptr);
  EXPECT_FALSE(row_named(*report, "copy Y (emulated)")->plotted);

  // No GPU names on the emulator, and no cuBLAS: a note says why.
  for (const TimingRow& row : report->rows) {
    EXPECT_FALSE(row.name.starts_with("GPU")) << row.name;
    EXPECT_EQ(row.name.find("cuBLAS"), std::string::npos) << row.name;
  }
  EXPECT_TRUE(has_note_containing(*report, "'cuBLAS + fused epilogue' not timed", "emulator"));
  EXPECT_TRUE(has_note_containing(*report, "fused speed-up over unfused", kEmulatedFused));
  EXPECT_TRUE(has_note_containing(*report, "'CPU, all threads' used", "hardware thread"));

  // The picture of the layer: 37 inputs over at most 32 cells, 29 neurons drawn one by one, and
  // the unfused path's outputs, sigmoids in (0, 1).
  const lessons::LayerPicture* picture = layer_picture(report->attachment);
  ASSERT_NE(picture, nullptr);
  EXPECT_EQ(picture->in, 37u);
  EXPECT_EQ(picture->out, 29u);
  EXPECT_EQ(picture->input_cells, 32u);
  EXPECT_EQ(picture->neuron_cells, 29u);
  ASSERT_EQ(picture->outputs.size(), 29u);
  EXPECT_GT(picture->output_range.min, 0.0f);
  EXPECT_LT(picture->output_range.max, 1.0f);
}

TEST_F(DenseLayerLessonTest, WithoutTheCpuThereAreNoCpuRows) {
  ASSERT_TRUE(lesson_->configure({{"batch", "2"}, {"inputs", "16"}, {"neurons", "8"}}).is_ok());
  lesson_->set_time_cpu(false);
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const TimingRow& row : report->rows) EXPECT_FALSE(row.name.starts_with("CPU")) << row.name;
  EXPECT_TRUE(report->check->passed) << report->check->description;
}

TEST_F(DenseLayerLessonTest, TheCublasPathOnTheEmulatorIsCheckedAsFusedAndCannotBeTraced) {
  ASSERT_TRUE(
      lesson_->configure({{"batch", "4"}, {"inputs", "40"}, {"neurons", "24"}, {"path", "cublas"}})
          .is_ok());
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
  EXPECT_TRUE(has_note_containing(*report, "cublas path could not run", kEmulatedFused));
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_FALSE(traced.is_ok());
  EXPECT_NE(traced.message().find("cuBLAS"), std::string::npos) << traced.message();
}

TEST_F(DenseLayerLessonTest, TracedRunIsTheSelectedPathOverY) {
  ASSERT_TRUE(
      lesson_->configure({{"batch", "20"}, {"inputs", "100"}, {"neurons", "70"}, {"path", "fused"}})
          .is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_EQ(traced->shape.rows, 20u);
  EXPECT_EQ(traced->shape.cols, 70u);
  EXPECT_EQ(traced->config, (LaunchConfig{{3, 3, 1}, {32, 8, 1}}));
  EXPECT_EQ(traced->config, lesson_->launch_config());
  ASSERT_TRUE(traced->check.has_value());
  EXPECT_TRUE(traced->check->passed) << traced->check->description;
  const TraceSummary summary = summarize(sink.records(), traced->config);
  EXPECT_EQ(summary.elements, 20u * 70u);
  EXPECT_EQ(summary.unwritten, 0u);

  // The unfused path traces its last kernel, the sigmoid, over the same Y.
  ASSERT_TRUE(lesson_->configure({{"path", "unfused"}}).is_ok());
  HostTraceSink unfused_sink;
  auto unfused = lesson_->run_traced(*device_, unfused_sink);
  ASSERT_TRUE(unfused.is_ok()) << unfused.message();
  EXPECT_TRUE(unfused->check->passed) << unfused->check->description;
  EXPECT_EQ(summarize(unfused_sink.records(), unfused->config).unwritten, 0u);
}

TEST_F(DenseLayerLessonTest, AGridTooSmallLeavesTheLastNeuronsAndInputsUnwritten) {
  // 2 × 2 blocks of 32 × 8 reach neurons 0..63 of batch rows 0..15 only (lesson.md's link).
  ASSERT_TRUE(lesson_
                  ->configure({{"batch", "20"},
                               {"inputs", "100"},
                               {"neurons", "70"},
                               {"block", "32,8"},
                               {"grid", "2,2"}})
                  .is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  ASSERT_TRUE(traced->check.has_value());
  EXPECT_FALSE(traced->check->passed);
  EXPECT_NE(traced->check->description.find("Y[0][64]"), std::string::npos)
      << traced->check->description;
  EXPECT_EQ(summarize(sink.records(), traced->config).unwritten, 20u * 70u - 64u * 16u);
}

TEST_F(DenseLayerLessonTest, LayersBeyondTheEmulatorCapAreClearErrors) {
  // The article's 4096 × 4096 layer: 2^24 multiply-adds, twice the emulator's cap.
  ASSERT_TRUE(lesson_->configure({{"inputs", "4096"}, {"neurons", "4096"}}).is_ok());
  auto timed = lesson_->run_timed(*device_, nullptr);
  ASSERT_FALSE(timed.is_ok());
  EXPECT_EQ(timed.error().kind, ErrorKind::kTooSlow);
  EXPECT_NE(timed.message().find("emulator"), std::string::npos) << timed.message();
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_FALSE(traced.is_ok());
  EXPECT_EQ(traced.error().kind, ErrorKind::kTooSlow);
  // A layer that fits still runs afterwards.
  ASSERT_TRUE(lesson_->configure({{"inputs", "64"}, {"neurons", "32"}}).is_ok());
  auto small = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(small.is_ok()) << small.message();
  EXPECT_TRUE(small->check->passed) << small->check->description;
  EXPECT_NE(layer_picture(small->attachment), nullptr);
}

TEST_F(DenseLayerLessonTest, SweepDoublesTheBatchWithinTheEmulatorCap) {
  EXPECT_EQ(lesson_->size_label(), "batch");
  // 1024 × 1024 is 2^20 multiply-adds per input vector: the cap of 2^23 allows a batch of 8.
  EXPECT_EQ(lesson_->sweep_sizes(*device_), (std::vector<std::uint64_t>{1, 2, 4, 8}));
  // A small layer goes up to the sweep's largest batch.
  ASSERT_TRUE(
      lesson_->configure({{"inputs", "37"}, {"neurons", "29"}, {"path", "unfused"}}).is_ok());
  const auto small = lesson_->sweep_sizes(*device_);
  ASSERT_EQ(small.size(), 13u);
  EXPECT_EQ(small.front(), 1u);
  EXPECT_EQ(small.back(), 4096u);
  // A layer beyond the cap even for one vector keeps one point, whose refusal says why.
  ASSERT_TRUE(lesson_->configure({{"inputs", "4096"}, {"neurons", "4096"}}).is_ok());
  EXPECT_EQ(lesson_->sweep_sizes(*device_), (std::vector<std::uint64_t>{1}));

  ASSERT_TRUE(
      lesson_->configure({{"inputs", "1024"}, {"neurons", "512"}, {"grid", "2,2"}}).is_ok());
  const lessons::ParamValues values = lesson_->values_for_size(16);
  EXPECT_EQ(values.at("batch"), "16");
  EXPECT_EQ(values.at("inputs"), "1024");
  EXPECT_EQ(values.at("neurons"), "512");
  EXPECT_EQ(values.at("path"), "unfused");
  EXPECT_EQ(values.at("grid"), "auto");
  // The largest point of the sweep runs on the emulator.
  const auto sizes = lesson_->sweep_sizes(*device_);
  ASSERT_EQ(sizes.back(), 16u);
  ASSERT_TRUE(lesson_->configure(lesson_->values_for_size(sizes.back())).is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_TRUE(traced->check->passed) << traced->check->description;
}

TEST_F(DenseLayerLessonTest, PresenterModeHidesOnlyTheProductChoice) {
  const auto shown = lessons::shown_params(lesson_->params(), /*presenting=*/true);
  EXPECT_EQ(shown.size() + 1, lesson_->params().size());
  for (const lessons::ParamSpec* spec : shown) EXPECT_NE(spec->name, "product");
}

TEST_F(DenseLayerLessonTest, TheFastProductHasOneBlockStepItsOwnShape) {
  for (const char* batch : {"1", "16"}) {
    ASSERT_TRUE(
        lesson_->configure({{"product", "fast"}, {"batch", batch}, {"block", "8,4"}}).is_ok());
    const auto steps = lesson_->block_sweep();
    ASSERT_EQ(steps.size(), 1u) << "batch " << batch;
    EXPECT_EQ(steps.front().block.volume(), 256u) << "batch " << batch;
    EXPECT_EQ(steps.front().values.at("grid"), "auto");
    EXPECT_EQ(steps.front().values.at("product"), "fast");
  }
  ASSERT_TRUE(lesson_->configure({{"product", "tiled"}}).is_ok());
  EXPECT_GT(lesson_->block_sweep().size(), 1u);
}

TEST_F(DenseLayerLessonTest, CrossoverIsTheCpuOnAllThreadsAgainstTheFusedLayerEndToEnd) {
  const auto pair = lesson_->crossover();
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->first, (TimingKey{TimingRole::kCpuAllThreads, ""}));
  EXPECT_EQ(pair->second, (TimingKey{TimingRole::kEndToEndPageable, "fused"}));
}

// The block sweep, as the app runs it (a fresh lesson given the current values, then each step's):
// 2D blocks within the kernels' 32 × 32 shared-memory tiles, each one accepted by the lesson, with
// a grid that covers Y, and each traced launch of the fused and the unfused path checked.
TEST_F(DenseLayerLessonTest, BlockSweepVisitsBlocksWithinTheSharedMemoryTilesThatCoverY) {
  const std::vector<Dim3> expected = {{1, 1, 1},   {2, 1, 1},   {4, 1, 1},  {8, 1, 1},
                                      {16, 1, 1},  {32, 1, 1},  {32, 2, 1}, {32, 3, 1},
                                      {32, 4, 1},  {32, 6, 1},  {32, 8, 1}, {32, 12, 1},
                                      {32, 16, 1}, {32, 24, 1}, {32, 32, 1}};
  for (const char* path : {"fused", "unfused"}) {
    SCOPED_TRACE(path);
    // Y is 5 × 29: x along the 29 neurons, y along the 5 batch rows.
    ASSERT_TRUE(lesson_
                    ->configure({{"batch", "5"},
                                 {"inputs", "37"},
                                 {"neurons", "29"},
                                 {"grid", "2,2"},
                                 {"block", "16,4"},
                                 {"path", path}})
                    .is_ok());
    const auto steps = lesson_->block_sweep();
    std::vector<Dim3> blocks;
    for (const BlockStep& step : steps) blocks.push_back(step.block);
    EXPECT_EQ(blocks, expected);
    for (const BlockStep& step : steps) {
      SCOPED_TRACE("block " + to_string(step.block));
      EXPECT_LE(step.block.x, lessons::kDenseLayerMaxBlockX);
      EXPECT_LE(step.block.y, lessons::kDenseLayerMaxBlockY);
      EXPECT_EQ(step.values.at("block"),
                std::to_string(step.block.x) + "," + std::to_string(step.block.y));
      EXPECT_EQ(step.values.at("grid"), "auto");
      EXPECT_EQ(step.values.at("path"), path);
      EXPECT_EQ(step.values.at("batch"), "5");

      const auto lesson = lesson_for_block_step("dense-layer", lesson_->values(), step);
      ASSERT_NE(lesson, nullptr);
      const LaunchConfig config = lesson->launch_config();
      const Dim3 grid{(29 + step.block.x - 1) / step.block.x, (5 + step.block.y - 1) / step.block.y,
                      1};
      EXPECT_EQ(config, (LaunchConfig{grid, step.block}));
      EXPECT_TRUE(lessons::validate_dense_layer_launch(config).is_ok());
      EXPECT_TRUE(validate(config, device_->info().limits).empty());
      const auto traced = trace_block_step(*lesson, *device_);
      ASSERT_TRUE(traced.has_value());
      EXPECT_EQ(traced->config, config);
      ASSERT_EQ(traced->records, 5u * 29u);
      EXPECT_EQ(traced->summary.unwritten, 0u);
    }
  }
}

}  // namespace
}  // namespace tl::compute
