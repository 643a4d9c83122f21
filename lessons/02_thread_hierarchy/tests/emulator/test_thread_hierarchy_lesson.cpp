// Lesson 2, the thread hierarchy, through the Lesson interface the UI and the command line use:
// its parameters as lesson links give them, the auto grid, timed and traced runs, sweeps, presets.

#include <gtest/gtest.h>

#include <thread>

#include "report_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "block_step_replay.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/trace.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy_runner.hpp"

namespace tl::compute {
namespace {

class ThreadHierarchyLessonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lesson = make_lesson("thread-hierarchy");
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    lesson_ = std::move(*lesson);
    lesson_->set_repeats(1);
  }

  // The preset with this label; fails the test when there is none.
  const LessonPreset* preset(const std::string& label) {
    presets_ = lesson_->presets();
    auto it = std::find_if(presets_.begin(), presets_.end(),
                           [&](const LessonPreset& p) { return p.label == label; });
    return it == presets_.end() ? nullptr : &*it;
  }

  std::unique_ptr<Device> device_ = make_emulator_device();
  std::unique_ptr<Lesson> lesson_;
  std::vector<LessonPreset> presets_;
};

TEST_F(ThreadHierarchyLessonTest, IsTheSecondLessonAndAvailable) {
  EXPECT_EQ(lesson_->info().number, 2);
  std::vector<std::string> names;
  for (const auto& spec : lesson_->params()) names.push_back(spec.name);
  EXPECT_EQ(names, (std::vector<std::string>{"n", "grid", "block", "grid_stride", "branch"}));
  const auto values = lesson_->values();
  EXPECT_EQ(values.size(), 5u);
  EXPECT_EQ(values.at("branch"), "none");
  EXPECT_EQ(values.at("grid"), "auto");
  EXPECT_EQ(values.at("block"), "256");
  EXPECT_EQ(values.at("grid_stride"), "0");
}

TEST_F(ThreadHierarchyLessonTest, AutoGridCoversTheDataInXWhateverTheBlockShape) {
  ASSERT_TRUE(lesson_->configure({{"n", "1000"}, {"block", "256"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{4, 1, 1}, {256, 1, 1}}));
  // A 3D block of 128 threads: ceil(3000 / 128) = 24 blocks, all in x.
  ASSERT_TRUE(lesson_->configure({{"n", "3000"}, {"block", "8,4,4"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{24, 1, 1}, {8, 4, 4}}));
  EXPECT_EQ(lesson_->data_shape().rows, 1u);
  EXPECT_EQ(lesson_->data_shape().cols, 3000u);
  ASSERT_TRUE(lesson_->configure({{"grid", "4,3,2"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config().grid, (Dim3{4, 3, 2}));
  EXPECT_EQ(lesson_->values().at("grid"), "4,3,2");
}

TEST_F(ThreadHierarchyLessonTest, BadOrUnknownParametersChangeNothing) {
  ASSERT_TRUE(lesson_->configure({{"n", "5000"}, {"grid", "4"}, {"grid_stride", "1"}}).is_ok());
  const auto before = lesson_->values();
  const LaunchConfig config_before = lesson_->launch_config();

  const auto n_zero = lesson_->configure({{"n", "0"}, {"block", "128"}});
  EXPECT_FALSE(n_zero.is_ok());
  const auto bad_flag = lesson_->configure({{"grid_stride", "maybe"}, {"block", "128"}});
  ASSERT_FALSE(bad_flag.is_ok());
  EXPECT_NE(bad_flag.message().find("grid_stride"), std::string::npos) << bad_flag.message();
  EXPECT_FALSE(lesson_->configure({{"block", "16,0"}}).is_ok());
  EXPECT_FALSE(lesson_->configure({{"grid", "lots"}}).is_ok());
  // Legal dimensions whose product the kernel's 64-bit index cannot count.
  EXPECT_FALSE(lesson_->configure({{"grid", "2147483647,65535,65535"}, {"block", "1024"}}).is_ok());
  // Another lesson's parameter is not this one's.
  const auto unknown = lesson_->configure({{"rows", "4"}});
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.message().find("not a parameter"), std::string::npos) << unknown.message();

  EXPECT_EQ(lesson_->values(), before);
  EXPECT_EQ(lesson_->launch_config(), config_before);
}

TEST_F(ThreadHierarchyLessonTest, AConfigurationCudaRefusesIsKeptForItsErrorToShow) {
  ASSERT_TRUE(lesson_->configure({{"grid", "1"}, {"block", "2048"}}).is_ok());
  EXPECT_EQ(lesson_->launch_config().block, (Dim3{2048, 1, 1}));
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("invalid configuration argument"), std::string::npos)
      << report.message();
}

TEST_F(ThreadHierarchyLessonTest, TimedGridStrideRunReportsRowsPassesAndTheCheck) {
  // 4 × 3 × 2 blocks of 8 × 4 × 4: 3072 threads for 5000 elements, two passes.
  ASSERT_TRUE(
      lesson_
          ->configure({{"n", "5000"}, {"grid", "4,3,2"}, {"block", "8,4,4"}, {"grid_stride", "1"}})
          .is_ok());
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->on_gpu);
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
  // The kernel, the two copies, end to end, and the CPU on one thread and on all.
  ASSERT_EQ(report->rows.size(), 6u);
  EXPECT_EQ(row_named(*report, "GPU kernel"), nullptr);
  ASSERT_NE(row_named(*report, "copy in (emulated)"), nullptr);
  ASSERT_NE(row_named(*report, "Emulated end to end (CPU)"), nullptr);
  EXPECT_TRUE(row_named(*report, "Emulated end to end (CPU)")->plotted);
  EXPECT_FALSE(row_named(*report, "copy in (emulated)")->plotted);
  const TimingRow* kernel = row_named(*report, "Emulated kernel (CPU)");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->stats.repeats, 1);
  EXPECT_DOUBLE_EQ(kernel->bytes, 8.0 * 5000);
  EXPECT_DOUBLE_EQ(kernel->flops, 2.0 * 5000);
  const TimingRow* cpu = row_named(*report, "CPU, 1 thread");
  ASSERT_NE(cpu, nullptr);
  EXPECT_DOUBLE_EQ(cpu->bytes, 8.0 * 5000);
  // The same loop on every core, the other honest CPU baseline, and how many it used.
  const TimingRow* cpu_all = row_named(*report, "CPU, all threads");
  ASSERT_NE(cpu_all, nullptr);
  EXPECT_FALSE(cpu_all->stats.empty());
  ASSERT_EQ(report->notes.size(), 2u);
  // 5000 elements are too few to be worth a second thread, and the note says so.
  EXPECT_NE(report->notes[0].find("'CPU, all threads' used 1 thread"), std::string::npos)
      << report->notes[0];
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_NE(report->notes[0].find("too small to split further"), std::string::npos)
        << report->notes[0];
  }
  EXPECT_NE(report->notes[1].find("3,072 threads for 5,000 elements"), std::string::npos)
      << report->notes[1];
  EXPECT_NE(report->notes[1].find("up to 2 passes"), std::string::npos) << report->notes[1];
}

TEST_F(ThreadHierarchyLessonTest, TimedRunWithTooFewThreadsFailsTheCheckAndSaysWhy) {
  ASSERT_TRUE(lesson_->configure({{"n", "5000"}, {"grid", "4,3,2"}, {"block", "8,4,4"}}).is_ok());
  lesson_->set_time_cpu(false);
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_FALSE(report->check->passed);
  EXPECT_NE(report->check->description.find("index 3072"), std::string::npos)
      << report->check->description;
  EXPECT_EQ(row_named(*report, "CPU, 1 thread"), nullptr);
  ASSERT_EQ(report->notes.size(), 1u);
  EXPECT_NE(report->notes[0].find("the last 1,928 are never computed"), std::string::npos)
      << report->notes[0];
}

TEST_F(ThreadHierarchyLessonTest, TracedRunReturnsTheShapeTheConfigAndEveryBlock) {
  // 2 blocks of 64 threads loop over 1000 elements: passes 0 to 7.
  ASSERT_TRUE(
      lesson_->configure({{"n", "1000"}, {"grid", "2"}, {"block", "64"}, {"grid_stride", "1"}})
          .is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_EQ(traced->shape.rows, 1u);
  EXPECT_EQ(traced->shape.cols, 1000u);
  EXPECT_EQ(traced->config, (LaunchConfig{{2, 1, 1}, {64, 1, 1}}));
  ASSERT_TRUE(traced->check.has_value());
  EXPECT_TRUE(traced->check->passed) << traced->check->description;
  ASSERT_EQ(traced->blocks.size(), 2u);
  for (const BlockRecord& block : traced->blocks) EXPECT_EQ(block.sm, -1);  // no SMs to record
  const TraceSummary summary = summarize(sink.records(), traced->config);
  EXPECT_EQ(summary.unwritten, 0u);
  EXPECT_EQ(summary.max_iteration, 7u);
  // Element 300 is thread 300 % 128 = 44 (block 0, thread 44) on pass 2.
  const DecodedTrace element = decode(sink.records()[300], 300, traced->shape, traced->config);
  EXPECT_EQ(element.block, (Dim3{0, 0, 0}));
  EXPECT_EQ(element.thread, (Dim3{44, 0, 0}));
  EXPECT_EQ(element.iteration, 2u);
}

TEST_F(ThreadHierarchyLessonTest, TracedRunOfA3DGridRecordsOneBlockRecordPerBlock) {
  ASSERT_TRUE(lesson_->configure({{"n", "3000"}, {"grid", "4,3,2"}, {"block", "8,4,4"}}).is_ok());
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_EQ(traced->blocks.size(), 24u);
  EXPECT_TRUE(traced->check->passed) << traced->check->description;
  const TraceSummary summary = summarize(sink.records(), traced->config);
  EXPECT_EQ(summary.unwritten, 0u);
  EXPECT_EQ(summary.idle_threads, 72u);  // 3072 threads for 3000 elements
}

TEST_F(ThreadHierarchyLessonTest, SweepVariesNAndKeepsTheGridOnlyForAGridStrideLoop) {
  const auto sizes = lesson_->sweep_sizes(*device_);
  ASSERT_FALSE(sizes.empty());
  EXPECT_EQ(sizes.front(), 1024u);
  EXPECT_LE(sizes.back(), std::uint64_t{1} << 24);
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
  EXPECT_EQ(lesson_->size_label(), "elements N");

  ASSERT_TRUE(lesson_->configure({{"grid", "3"}}).is_ok());
  auto values = lesson_->values_for_size(1 << 16);
  EXPECT_EQ(values.at("n"), std::to_string(1 << 16));
  EXPECT_EQ(values.at("grid"), "auto");  // one element per thread: the grid grows with N
  ASSERT_TRUE(lesson_->configure(values).is_ok());
  EXPECT_EQ(lesson_->launch_config().grid, (Dim3{256, 1, 1}));

  ASSERT_TRUE(lesson_->configure({{"grid", "4"}, {"grid_stride", "1"}}).is_ok());
  values = lesson_->values_for_size(1 << 20);
  EXPECT_EQ(values.at("grid"), "4");
  EXPECT_EQ(values.at("grid_stride"), "1");

  // One thread looping over everything: the sweep stops at 2^16 passes.
  ASSERT_TRUE(lesson_->configure({{"grid", "1"}, {"block", "1"}}).is_ok());
  const auto one_thread = lesson_->sweep_sizes(*device_);
  ASSERT_FALSE(one_thread.empty());
  EXPECT_EQ(one_thread.back(), std::uint64_t{1} << 16);
}

TEST_F(ThreadHierarchyLessonTest, PresetsAreValidAndShowTheHierarchy) {
  const LessonPreset* stride = preset("grid-stride with 4 blocks");
  ASSERT_NE(stride, nullptr);
  EXPECT_EQ(stride->values.at("grid"), "4");
  EXPECT_EQ(stride->values.at("grid_stride"), "1");
  const LessonPreset* three_d = preset("3D grid");
  ASSERT_NE(three_d, nullptr);
  ASSERT_TRUE(lesson_->configure(three_d->values).is_ok());
  EXPECT_EQ(lesson_->launch_config(), (LaunchConfig{{4, 2, 2}, {8, 4, 4}}));
  // It covers its N exactly: every thread has an element.
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_TRUE(traced->check->passed) << traced->check->description;
  EXPECT_EQ(summarize(sink.records(), traced->config).idle_threads, 0u);

  for (const LessonPreset& p : lesson_->presets()) {
    EXPECT_TRUE(lesson_->configure(p.values).is_ok()) << p.label;
    EXPECT_TRUE(validate(lesson_->launch_config(), device_->info().limits).empty()) << p.label;
    EXPECT_FALSE(p.help.empty()) << p.label;
  }
}

TEST_F(ThreadHierarchyLessonTest, CrossoverIsThePlainLoopAgainstTheGpuEndToEnd) {
  const auto pair = lesson_->crossover();
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->first, (TimingKey{TimingRole::kCpuOneThread, ""}));
  EXPECT_EQ(pair->second, (TimingKey{TimingRole::kEndToEndPageable, ""}));
}

// The block sweep over threads per block, as the app runs it: a fresh lesson given the current
// values, then each step's. Every step must configure and launch, or the sweep silently skips it.
TEST_F(ThreadHierarchyLessonTest, BlockSweepGoesFromOneThreadTo1024WithAGridThatCoversN) {
  ASSERT_TRUE(lesson_->configure({{"n", "1000"}, {"grid", "3"}, {"block", "8,4,4"}}).is_ok());
  const auto steps = lesson_->block_sweep();
  std::vector<std::uint32_t> threads;
  for (const BlockStep& step : steps) threads.push_back(step.block.x);
  EXPECT_EQ(threads, (std::vector<std::uint32_t>{1, 2, 4, 8, 16, 32, 64, 96, 128, 192, 256, 384,
                                                 512, 768, 1024}));
  for (const BlockStep& step : steps) {
    SCOPED_TRACE("block " + to_string(step.block));
    // 1D blocks, the whole grid recomputed for each.
    EXPECT_EQ(step.block.y, 1u);
    EXPECT_EQ(step.block.z, 1u);
    EXPECT_EQ(step.values.at("block"), std::to_string(step.block.x));
    EXPECT_EQ(step.values.at("grid"), "auto");
    EXPECT_EQ(step.values.at("n"), "1000");
    EXPECT_EQ(step.values.at("grid_stride"), "0");

    const auto lesson = lesson_for_block_step("thread-hierarchy", lesson_->values(), step);
    ASSERT_NE(lesson, nullptr);
    const LaunchConfig config = lesson->launch_config();
    const std::uint32_t blocks = (1000 + step.block.x - 1) / step.block.x;
    EXPECT_EQ(config, (LaunchConfig{{blocks, 1, 1}, step.block}));
    EXPECT_TRUE(validate(config, device_->info().limits).empty());
    const auto traced = trace_block_step(*lesson, *device_);
    ASSERT_TRUE(traced.has_value());
    EXPECT_EQ(traced->summary.unwritten, 0u);
    EXPECT_EQ(traced->summary.idle_threads, std::uint64_t{blocks} * step.block.x - 1000);
  }
}

// With a grid-stride loop the grid is the student's choice: the sweep keeps it, and the passes
// grow as the blocks shrink.
TEST_F(ThreadHierarchyLessonTest, BlockSweepOfAGridStrideLoopKeepsTheGrid) {
  ASSERT_TRUE(
      lesson_->configure({{"n", "1000"}, {"grid", "2"}, {"block", "64"}, {"grid_stride", "1"}})
          .is_ok());
  const auto steps = lesson_->block_sweep();
  ASSERT_EQ(steps.size(), 15u);
  EXPECT_EQ(steps.front().block, (Dim3{1, 1, 1}));
  EXPECT_EQ(steps.back().block, (Dim3{1024, 1, 1}));
  for (const BlockStep& step : steps) {
    SCOPED_TRACE("block " + to_string(step.block));
    EXPECT_EQ(step.values.at("grid"), "2");
    EXPECT_EQ(step.values.at("grid_stride"), "1");
    EXPECT_EQ(step.values.at("block"), std::to_string(step.block.x));

    const auto lesson = lesson_for_block_step("thread-hierarchy", lesson_->values(), step);
    ASSERT_NE(lesson, nullptr);
    EXPECT_EQ(lesson->launch_config(), (LaunchConfig{{2, 1, 1}, step.block}));
    EXPECT_TRUE(validate(lesson->launch_config(), device_->info().limits).empty());
    const auto traced = trace_block_step(*lesson, *device_);
    ASSERT_TRUE(traced.has_value());
    EXPECT_EQ(traced->summary.unwritten, 0u);
    // 2 × block.x threads: passes 0 to ceil(1000 / threads) - 1.
    const std::uint64_t grid_threads = 2ull * step.block.x;
    EXPECT_EQ(traced->summary.max_iteration, (1000 + grid_threads - 1) / grid_threads - 1);
  }
}

// The divergence demo: a timed run measures both branch rules over the same data, each row named
// for its condition and labelled as the emulator's; the chosen kernel's output is checked, and the
// notes say what each rule does to a warp and why the emulator's times cannot show it.
TEST_F(ThreadHierarchyLessonTest, BranchRunTimesBothRulesAndSaysWhatEachDoesToAWarp) {
  ASSERT_TRUE(
      lesson_->configure({{"n", "3000"}, {"block", "256"}, {"branch", "by-thread"}}).is_ok());
  EXPECT_EQ(lesson_->occupancy_kernel(), "hierarchy_branch_by_thread");
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_TRUE(report->check.has_value());
  EXPECT_TRUE(report->check->passed) << report->check->description;
  EXPECT_EQ(row_named(*report, "Emulated kernel (CPU)"), nullptr);
  const TimingRow* by_thread = report->find({TimingRole::kKernel, "by-thread"});
  const TimingRow* by_warp = report->find({TimingRole::kKernel, "by-warp"});
  ASSERT_NE(by_thread, nullptr);
  ASSERT_NE(by_warp, nullptr);
  EXPECT_EQ(by_thread->name, "Emulated kernel, if (threadIdx.x % 2) (CPU)");
  EXPECT_EQ(by_warp->name, "Emulated kernel, if (threadIdx.x / 32 % 2) (CPU)");
  EXPECT_TRUE(by_thread->plotted);
  EXPECT_FALSE(by_thread->stats.empty());
  EXPECT_FALSE(by_warp->stats.empty());
  EXPECT_DOUBLE_EQ(by_warp->flops, 2.0 * 256 * 3000);
  const auto has_note = [&](const std::string& text) {
    return std::any_of(report->notes.begin(), report->notes.end(), [&](const std::string& note) {
      return note.find(text) != std::string::npos;
    });
  };
  // 256 threads are 8 warps: by thread, each runs both sides with half its lanes idle; by warp,
  // each runs one side with none idle.
  EXPECT_TRUE(has_note("by-thread: 8 warp(s) per block run the branch's body 16 time(s), 50 %"));
  EXPECT_TRUE(has_note("by-warp: 8 warp(s) per block run the branch's body 8 time(s), 0 %"));
  EXPECT_TRUE(has_note("only a GPU shows divergence's cost"));

  // The other rule is checked when it is the chosen one.
  ASSERT_TRUE(lesson_->configure({{"branch", "by-warp"}}).is_ok());
  EXPECT_EQ(lesson_->occupancy_kernel(), "hierarchy_branch_by_warp");
  lesson_->set_time_cpu(false);
  auto warp = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(warp.is_ok()) << warp.message();
  EXPECT_TRUE(warp->check->passed) << warp->check->description;
}

TEST_F(ThreadHierarchyLessonTest, BranchTracedRunWritesEveryElementOnceWithAndWithoutTheLoop) {
  for (const char* grid_stride : {"0", "1"}) {
    ASSERT_TRUE(lesson_
                    ->configure({{"n", "1000"},
                                 {"grid", grid_stride[0] == '1' ? "2" : "auto"},
                                 {"block", "8,8"},
                                 {"grid_stride", grid_stride},
                                 {"branch", "by-warp"}})
                    .is_ok());
    HostTraceSink sink;
    auto traced = lesson_->run_traced(*device_, sink);
    ASSERT_TRUE(traced.is_ok()) << traced.message();
    ASSERT_TRUE(traced->check.has_value());
    EXPECT_TRUE(traced->check->passed) << traced->check->description;
    const TraceSummary summary = summarize(sink.records(), traced->config);
    EXPECT_EQ(summary.unwritten, 0u) << grid_stride;
    EXPECT_EQ(summary.written_more, 0u) << grid_stride;
  }
}

TEST_F(ThreadHierarchyLessonTest, UnknownBranchRuleIsRefusedAndTheEmulatorStopsAtItsBudget) {
  EXPECT_FALSE(lesson_->configure({{"branch", "sideways"}}).is_ok());
  EXPECT_EQ(lesson_->values().at("branch"), "none");
  ASSERT_TRUE(lesson_->configure({{"n", "2^21"}, {"branch", "by-thread"}}).is_ok());
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_FALSE(report.is_ok());
  EXPECT_EQ(report.error().kind, ErrorKind::kTooSlow);
  EXPECT_NE(report.message().find("divergence demo"), std::string::npos) << report.message();
  // Its sweep stops within that budget.
  for (std::uint64_t size : lesson_->sweep_sizes(*device_)) {
    EXPECT_LE(size, kEmulatorMaxBranchElements);
  }
}

}  // namespace
}  // namespace tl::compute
