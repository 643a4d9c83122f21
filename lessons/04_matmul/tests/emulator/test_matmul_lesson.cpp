// Lesson 4 through the Lesson interface the UI, the command line and the sweeps use.

#include <gtest/gtest.h>

#include "report_rows.hpp"

#include <algorithm>
#include <string>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "lessons/04_matmul/matmul.hpp"

namespace tl::compute {
namespace {

constexpr const char* kEmulatedNaive16 = "Emulated naive kernel, block 16×16 (CPU)";
constexpr const char* kEmulatedTiled8 = "Emulated tiled kernel, TILE = 8 (CPU)";

bool has_note_containing(const LessonReport& report, const std::string& a, const std::string& b) {
  return std::any_of(report.notes.begin(), report.notes.end(), [&](const std::string& note) {
    return note.find(a) != std::string::npos && note.find(b) != std::string::npos;
  });
}

class MatmulLessonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lesson = make_lesson("matmul");
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    lesson_ = std::move(*lesson);
    lesson_->set_repeats(1);
  }
  std::unique_ptr<Device> device_ = make_emulator_device();
  std::unique_ptr<Lesson> lesson_;
};

TEST_F(MatmulLessonTest, IsInTheCatalogWithTheDocumentedDefaults) {
  EXPECT_EQ(lesson_->info().id, "matmul");
  const lessons::ParamValues values = lesson_->values();
  EXPECT_EQ(values.at("m"), "512");
  EXPECT_EQ(values.at("n"), "512");
  EXPECT_EQ(values.at("k"), "512");
  EXPECT_EQ(values.at("kernel"), "tiled");
  EXPECT_EQ(values.at("tile"), "16");
  EXPECT_EQ(values.at("block"), "16,16");
  EXPECT_EQ(values.at("grid"), "auto");
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{32, 32, 1}, {16, 16, 1}}));
  EXPECT_EQ(lesson_->data_shape().rows, 512u);
  EXPECT_EQ(lesson_->data_shape().cols, 512u);
}

TEST_F(MatmulLessonTest, KernelAndTileAreChoices) {
  const auto params = lesson_->params();
  auto find = [&](const std::string& name) {
    return std::find_if(params.begin(), params.end(),
                        [&](const auto& s) { return s.name == name; });
  };
  ASSERT_NE(find("kernel"), params.end());
  EXPECT_EQ(find("kernel")->kind, lessons::ParamKind::kChoice);
  EXPECT_EQ(find("kernel")->choices,
            (std::vector<std::string>{"uncoalesced", "naive", "tiled", "regtile-1d", "regtile-2d",
                                      "vectorized", "warptile", "pipelined", "wmma-fp16",
                                      "wmma-bf16", "wmma-tf32", "mma-fp16", "wgmma-fp16",
                                      "wgmma-tma-fp16", "wgmma-tma-bf16"}));
  ASSERT_NE(find("tile"), params.end());
  EXPECT_EQ(find("tile")->choices, (std::vector<std::string>{"8", "16", "32"}));
  for (const char* name : {"m", "n", "k", "block", "grid"})
    EXPECT_NE(find(name), params.end()) << name;
}

TEST_F(MatmulLessonTest, AutoGridCoversCForEitherKernel) {
  // C is 37 rows × 53 columns: x covers the columns, y the rows.
  ASSERT_TRUE(
      lesson_
          ->configure(
              {{"m", "37"}, {"n", "53"}, {"k", "29"}, {"kernel", "naive"}, {"block", "16,16"}})
          .is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{4, 3, 1}, {16, 16, 1}}));
  EXPECT_EQ(lesson_->data_shape().rows, 37u);
  EXPECT_EQ(lesson_->data_shape().cols, 53u);
  ASSERT_TRUE(lesson_->configure({{"block", "7,3"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{8, 13, 1}, {7, 3, 1}}));
  // The tiled kernel's block is TILE×TILE, whatever the naive block is.
  ASSERT_TRUE(lesson_->configure({{"kernel", "tiled"}, {"tile", "8"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{7, 5, 1}, {8, 8, 1}}));
  ASSERT_TRUE(lesson_->configure({{"tile", "32"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{2, 2, 1}, {32, 32, 1}}));
  // An explicit grid is used as given, and "auto" brings the covering one back.
  ASSERT_TRUE(lesson_->configure({{"grid", "2,2"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config().grid, (Dim3{2, 2, 1}));
  ASSERT_TRUE(lesson_->configure({{"grid", "auto"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config().grid, (Dim3{2, 2, 1}));
  ASSERT_TRUE(lesson_->configure({{"tile", "16"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config().grid, (Dim3{4, 3, 1}));
}

TEST_F(MatmulLessonTest, BadValuesAreRefusedNamingTheParameterAndChangeNothing) {
  ASSERT_TRUE(lesson_->configure({{"m", "37"}, {"kernel", "naive"}}).is_ok());
  const lessons::ParamValues before = lesson_->values();
  const LaunchConfig config_before = lesson_->launch_config();
  const std::vector<std::pair<lessons::ParamValues, std::string>> bad = {
      {{{"m", "0"}, {"n", "64"}}, "m: "},
      {{{"n", "lots"}}, "n: "},
      {{{"k", "-3"}}, "k: "},
      {{{"k", "2^40"}}, "k: "},
      {{{"m", "65536"}, {"k", "65536"}}, "A (M×K)"},  // 2^32 elements: past the int index
      {{{"kernel", "fast"}, {"m", "64"}}, "kernel: "},
      {{{"tile", "12"}}, "tile: "},
      {{{"block", "0,16"}}, "block: "},
      {{{"grid", "1,2,3,4"}}, "grid: "},
      {{{"rows", "4"}}, "'rows' is not a parameter of matmul"},
  };
  for (const auto& [values, named] : bad) {
    const Status status = lesson_->configure(values);
    ASSERT_FALSE(status.is_ok()) << named;
    EXPECT_TRUE(status.message().starts_with(named)) << status.message();
    EXPECT_EQ(lesson_->values(), before) << named;
    EXPECT_EQ(lesson_->launch_config(), config_before) << named;
  }
}

TEST_F(MatmulLessonTest, TimedRunTimesBothKernelsAndTheCpuWithGflops) {
  ASSERT_TRUE(
      lesson_
          ->configure({{"m", "37"}, {"n", "53"}, {"k", "29"}, {"kernel", "tiled"}, {"tile", "8"}})
          .is_ok());
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->on_gpu);
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
  EXPECT_NE(report->check->description.find("check passed"), std::string::npos);

  const double flops = 2.0 * 37 * 53 * 29;
  for (const char* name :
       {kEmulatedNaive16, kEmulatedTiled8, "CPU, naive 1 thread", "CPU, blocked all threads"}) {
    const TimingRow* row = row_named(*report, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_EQ(row->stats.repeats, 1) << name;
    EXPECT_TRUE(row->plotted) << name;
    EXPECT_DOUBLE_EQ(row->flops, flops) << name;
  }
  // The copies are timed but not plotted.
  ASSERT_NE(row_named(*report, "copy A, B (emulated)"), nullptr);
  EXPECT_FALSE(row_named(*report, "copy A, B (emulated)")->plotted);
  EXPECT_DOUBLE_EQ(row_named(*report, "copy A, B (emulated)")->bytes, 4.0 * (37 * 29 + 29 * 53));
  // The emulator has no cuBLAS: no row, and a note that says why.
  EXPECT_EQ(row_named(*report, "cuBLAS SGEMM"), nullptr);
  EXPECT_TRUE(has_note_containing(*report, "cuBLAS SGEMM", "emulator"));
}

TEST_F(MatmulLessonTest, AGridTooSmallFailsTheCheckAtTheFirstUnwrittenElement) {
  // 2×2 blocks of 16×16 reach columns 0..31 only: (row 0, col 32) is the first element nobody
  // wrote. The tiled kernel is left out: the grid was chosen for the naive kernel's blocks.
  ASSERT_TRUE(lesson_
                  ->configure({{"m", "37"},
                               {"n", "53"},
                               {"k", "29"},
                               {"kernel", "naive"},
                               {"block", "16,16"},
                               {"grid", "2,2"}})
                  .is_ok());
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_FALSE(report->check->passed);
  EXPECT_NE(report->check->description.find("(row 0, col 32)"), std::string::npos)
      << report->check->description;
  EXPECT_NE(report->check->description.find("largest difference"), std::string::npos);
  EXPECT_NE(report->check->description.find(std::to_string(37 * 53 - 32 * 32) + " wrong"),
            std::string::npos)
      << report->check->description;
  const TimingRow* tiled = row_named(*report, "Emulated tiled kernel, TILE = 16 (CPU)");
  ASSERT_NE(tiled, nullptr);
  EXPECT_TRUE(tiled->stats.empty());
  EXPECT_TRUE(has_note_containing(*report, "Emulated tiled kernel", "grid auto"));
}

TEST_F(MatmulLessonTest, TracedRunIsTheSelectedKernelOverC) {
  ASSERT_TRUE(
      lesson_
          ->configure({{"m", "40"}, {"n", "24"}, {"k", "16"}, {"kernel", "tiled"}, {"tile", "8"}})
          .is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_EQ(traced->shape.rows, 40u);
  EXPECT_EQ(traced->shape.cols, 24u);
  EXPECT_EQ(traced->config, (LaunchConfig{{3, 5, 1}, {8, 8, 1}}));
  EXPECT_EQ(traced->config, lesson_->launch_config());
  ASSERT_TRUE(traced->check.has_value());
  EXPECT_TRUE(traced->check->passed) << traced->check->description;
  const TraceSummary summary = summarize(sink.records(), traced->config);
  EXPECT_EQ(summary.elements, 40u * 24u);
  EXPECT_EQ(summary.unwritten, 0u);
}

TEST_F(MatmulLessonTest, SizesTooLargeForTheEmulatorAreClearErrors) {
  // The default 512×512×512 with the tiled kernel: millions of fibers meeting at barriers.
  auto timed = lesson_->run_timed(*device_, nullptr);
  ASSERT_FALSE(timed.is_ok());
  EXPECT_EQ(timed.error().kind, ErrorKind::kTooSlow);
  EXPECT_NE(timed.message().find("emulator"), std::string::npos) << timed.message();
  EXPECT_NE(timed.message().find("512×512×512"), std::string::npos) << timed.message();
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_FALSE(traced.is_ok());
  EXPECT_EQ(traced.error().kind, ErrorKind::kTooSlow);
  // A size that fits still runs afterwards.
  ASSERT_TRUE(lesson_->configure({{"m", "32"}, {"n", "32"}, {"k", "32"}}).is_ok());
  auto small = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(small.is_ok()) << small.message();
  EXPECT_TRUE(small->check->passed);
}

TEST_F(MatmulLessonTest, TheOtherKernelIsLeftOutWhenOnlyTheSelectedOneFitsTheEmulator) {
  // The smallest square size at which the tiled kernel would exceed the emulator's cap on this
  // machine, while the naive one, with far less work per thread, stays quick.
  const unsigned workers = static_cast<unsigned>(device_->info().multiprocessors);
  const lessons::MatmulVariant tiled16{lessons::MatmulKernel::kTiled, 16, {}};
  std::uint32_t side = 32;
  auto tiled_fits = [&](std::uint32_t s) {
    const lessons::MatmulSize square{s, s, s};
    return lessons::check_emulator_budget(square, tiled16,
                                          lessons::matmul_covering_config(square, tiled16), workers)
        .is_ok();
  };
  while (tiled_fits(side)) side += 32;
  const std::string size = std::to_string(side);
  ASSERT_TRUE(
      lesson_->configure({{"m", size}, {"n", size}, {"k", size}, {"kernel", "naive"}}).is_ok());
  lesson_->set_time_cpu(false);
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_NE(row_named(*report, kEmulatedNaive16), nullptr);
  EXPECT_FALSE(row_named(*report, kEmulatedNaive16)->stats.empty());
  const TimingRow* tiled = row_named(*report, "Emulated tiled kernel, TILE = 16 (CPU)");
  ASSERT_NE(tiled, nullptr);
  EXPECT_TRUE(tiled->stats.empty());
  EXPECT_TRUE(has_note_containing(*report, "Emulated tiled kernel", "emulator"));
  EXPECT_TRUE(report->check->passed) << report->check->description;
}

TEST_F(MatmulLessonTest, SweepVisitsSquareSizesTheEmulatorFinishes) {
  const auto tiled_sizes = lesson_->sweep_sizes(*device_);
  ASSERT_GE(tiled_sizes.size(), 3u);
  EXPECT_EQ(tiled_sizes.front(), 32u);
  EXPECT_TRUE(std::is_sorted(tiled_sizes.begin(), tiled_sizes.end()));
  // The largest point runs: the sweep stays under the emulator's cap.
  ASSERT_TRUE(lesson_->configure(lesson_->values_for_size(tiled_sizes.back())).is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  // The naive kernel costs the emulator far less, so its sweep goes at least as far (every point
  // also times the other rungs that fit, which caps both).
  ASSERT_TRUE(lesson_->configure({{"kernel", "naive"}}).is_ok());
  const auto naive_sizes = lesson_->sweep_sizes(*device_);
  EXPECT_GE(naive_sizes.back(), tiled_sizes.back());
  EXPECT_LE(naive_sizes.back(), 4096u);

  ASSERT_TRUE(lesson_->configure({{"grid", "2,2"}, {"tile", "8"}}).is_ok());
  const lessons::ParamValues values = lesson_->values_for_size(100);
  EXPECT_EQ(values.at("m"), "100");
  EXPECT_EQ(values.at("n"), "100");
  EXPECT_EQ(values.at("k"), "100");
  EXPECT_EQ(values.at("grid"), "auto");
  EXPECT_EQ(values.at("kernel"), "naive");
  EXPECT_EQ(values.at("tile"), "8");
  EXPECT_EQ(lesson_->size_label(), "square size M = N = K");
}

TEST_F(MatmulLessonTest, PresenterModeHidesOnlyTheTileSize) {
  const auto shown = lessons::shown_params(lesson_->params(), /*presenting=*/true);
  EXPECT_EQ(shown.size() + 1, lesson_->params().size());
  for (const lessons::ParamSpec* spec : shown) EXPECT_NE(spec->name, "tile");
}

TEST_F(MatmulLessonTest, CrossoverIsTheBlockedCpuAgainstTheGpuEndToEnd) {
  ASSERT_TRUE(lesson_->configure({{"kernel", "tiled"}, {"tile", "32"}}).is_ok());
  const auto pair = lesson_->crossover();
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->first, (TimingKey{TimingRole::kCpuAllThreads, "blocked"}));
  EXPECT_EQ(pair->second, (TimingKey{TimingRole::kEndToEndPageable, ""}));
}

}  // namespace
}  // namespace tl::compute
