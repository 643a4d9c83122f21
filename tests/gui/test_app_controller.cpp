// The app's controller on a headless OpenGL context with the emulator: the commands a user gives
// through the panels, and what the panels then show.

#include <gtest/gtest.h>

#include "../emulator/report_rows.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "core/timing/row_label.hpp"
#include "lessons/04_matmul/views/element_reads.hpp"
#include "lessons/05_dense_layer/dense_layer_lesson.hpp"
#include "platform/egl_context.hpp"

namespace tl::ui {
namespace {

class AppControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto gl = platform::EglContext::create({});
    ASSERT_TRUE(gl.is_ok()) << gl.message();
    gl_ = std::move(*gl);
    // The device's ceilings are cached in the test's own folder, not the user's.
    auto controller = AppController::create(
        test_support::emulator_options(gl_->renderer(), "threadlab_gui_test"));
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    controller_ = std::move(*controller);
    wait_until_idle();
  }

  void wait_until_idle() { test_support::wait_until_idle(*controller_); }

  std::unique_ptr<platform::EglContext> gl_;
  std::unique_ptr<AppController> controller_;
};

TEST_F(AppControllerTest, StartsOnTheEmulatorWithTheLessonAndAFirstLaunch) {
  const AppState& s = controller_->state();
  EXPECT_EQ(s.backend, BackendKind::kEmulator);
  EXPECT_FALSE(s.backend_reason.empty());
  EXPECT_EQ(s.lesson.title, "Vector add");
  EXPECT_TRUE(s.lesson.error.empty());
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  EXPECT_TRUE(s.timed.report->check->passed);
  EXPECT_TRUE(controller_->embedded_source("lessons/01_vector_add/kernels/vector_add.cuh")
                  ->find("__global__ void vector_add") != std::string::npos);
  // The first timed run brought the device's ceilings: the emulator's copy, and no cuBLAS.
  ASSERT_TRUE(s.ceilings.has_value());
  EXPECT_GT(s.ceilings->copy_bytes_per_second, 0);
  EXPECT_FALSE(s.ceilings->sgemm_absent.empty());
}

TEST_F(AppControllerTest, TooFewBlocksLeaveElementsUnwrittenAndTheCheckSaysWhere) {
  controller_->apply_lesson_action("threadlab:set?n=1000&grid=3&block=256&color=writes&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  EXPECT_EQ(s.trace.unwritten, 232u);
  EXPECT_EQ(s.trace.idle_threads, 0u);
  EXPECT_EQ(s.view.color_by, ColorBy::kWrites);
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  EXPECT_FALSE(s.timed.report->check->passed);
  EXPECT_NE(s.timed.report->check->description.find("index 768"), std::string::npos);
}

TEST_F(AppControllerTest, OneBlockOfTooManyThreadsShowsCudasErrorAndTheAppKeepsWorking) {
  controller_->apply_lesson_action("threadlab:set?n=2048&grid=1&block=2048&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_FALSE(s.launch_problems.empty());
  EXPECT_NE(s.trace.error.find("invalid configuration argument"), std::string::npos)
      << s.trace.error;
  EXPECT_NE(s.timed.error.find("invalid configuration argument"), std::string::npos)
      << s.timed.error;
  // The picture shows the honest outcome: nothing written.
  EXPECT_EQ(s.trace.unwritten, 2048u);

  controller_->apply_lesson_action("threadlab:set?n=1000&grid=4&block=256&launch");
  wait_until_idle();
  EXPECT_TRUE(controller_->state().trace.error.empty());
  EXPECT_EQ(controller_->state().trace.idle_threads, 24u);
  EXPECT_TRUE(controller_->state().timed.report->check->passed);
}

// With the hardware-counters switch on, a timed launch also asks for the counters; the emulator
// has none, and the state says why rather than showing made-up counts. Off again, nothing stays.
TEST_F(AppControllerTest, HardwareCountersOnTheEmulatorSayWhyNot) {
  controller_->apply_lesson_action("threadlab:set?lesson=2d-blocks&rows=64&cols=64&launch");
  wait_until_idle();
  EXPECT_TRUE(controller_->state().counters.unavailable.empty());
  controller_->set_read_counters(true);
  controller_->launch();
  wait_until_idle();
  const HardwareCounterReading& counters = controller_->state().counters;
  EXPECT_TRUE(counters.enabled);
  EXPECT_FALSE(counters.pending);
  EXPECT_TRUE(counters.kernels.empty());
  EXPECT_EQ(counters.unavailable, std::string(kEmulatorHasNoCounters));
  ASSERT_TRUE(controller_->state().timed.report.has_value()) << controller_->state().timed.error;
  controller_->set_read_counters(false);
  EXPECT_TRUE(controller_->state().counters.unavailable.empty());
}

TEST_F(AppControllerTest, IdleThreadsAreCountedOnlyWhereAThreadOwnsOneElement) {
  // One element per thread: 4 × 256 threads for 1000 elements leave 24 idle.
  controller_->apply_lesson_action(
      "threadlab:set?lesson=thread-hierarchy&n=1000&grid=4&block=256&grid_stride=0&launch");
  wait_until_idle();
  ASSERT_TRUE(controller_->state().trace.valid) << controller_->state().trace.error;
  EXPECT_EQ(controller_->state().trace.idle_threads, std::optional<std::uint64_t>(24));
  // A grid-stride loop: 2 × 128 threads each write several of the 1000 elements; "threads minus
  // elements" means nothing there.
  controller_->apply_lesson_action(
      "threadlab:set?lesson=thread-hierarchy&n=1000&grid=2&block=128&grid_stride=1&launch");
  wait_until_idle();
  ASSERT_TRUE(controller_->state().trace.valid) << controller_->state().trace.error;
  EXPECT_EQ(controller_->state().trace.unwritten, 0u);
  EXPECT_FALSE(controller_->state().trace.idle_threads.has_value());
  // The dense layer's fast product: a warp per neuron, launched with its own shape.
  controller_->apply_lesson_action(
      "threadlab:set?lesson=dense-layer&batch=1&inputs=64&neurons=40&path=fused&product=fast&"
      "launch");
  wait_until_idle();
  ASSERT_TRUE(controller_->state().trace.valid) << controller_->state().trace.error;
  EXPECT_EQ(controller_->state().trace.unwritten, 0u);
  EXPECT_FALSE(controller_->state().trace.idle_threads.has_value());
}

TEST_F(AppControllerTest, InvalidInputsAreRefusedAndThePreviousStateKept) {
  controller_->set_param("n", "5000");
  for (const char* bad : {"0", "-3", "lots", "1e-3", "99999999999999999999"}) {
    controller_->set_param("n", bad);
    EXPECT_EQ(controller_->state().controls.values.at("n"), "5000") << bad;
    EXPECT_EQ(controller_->state().messages.back().severity, Severity::kWarning) << bad;
  }
  for (const char* bad : {"0", "abc", "16,0", "1,2,3,4"}) {
    controller_->set_param("block", bad);
    EXPECT_EQ(controller_->state().controls.values.at("block"), "256") << bad;
  }
  controller_->apply_lesson_action("threadlab:set?n=lots&launch");
  EXPECT_EQ(controller_->state().controls.values.at("n"), "5000");
  controller_->apply_lesson_action("threadlab:set?speed=11");
  EXPECT_NE(controller_->state().messages.back().text.find("not a parameter"), std::string::npos);
  controller_->set_param("n", "2^40");
  EXPECT_EQ(controller_->state().controls.values.at("n"), "5000");
  // A configuration CUDA refuses is accepted as controls (explained, launchable): the lesson wants
  // it.
  controller_->set_param("block", "4096");
  EXPECT_EQ(controller_->state().controls.values.at("block"), "4096");
  EXPECT_FALSE(controller_->state().launch_problems.empty());
}

TEST_F(AppControllerTest, SingleBlockPresetIsTheArticlesLaunch) {
  controller_->set_param("n", "1000");
  ASSERT_FALSE(controller_->state().controls.presets.empty());
  controller_->apply_preset(0);
  EXPECT_EQ(controller_->state().controls.config(), (LaunchConfig{{1, 1, 1}, {1000, 1, 1}}));
  EXPECT_TRUE(controller_->state().launch_problems.empty());
  controller_->set_param("n", "1500");
  controller_->apply_preset(0);
  EXPECT_FALSE(controller_->state().launch_problems.empty());
  controller_->set_param("grid", "auto");
  controller_->set_param("block", "256");
  EXPECT_EQ(controller_->state().controls.config(), (LaunchConfig{{6, 1, 1}, {256, 1, 1}}));
}

TEST_F(AppControllerTest, ThePictureStaysFittedWhenThePanelResizesUntilTheUserMovesIt) {
  controller_->apply_lesson_action("threadlab:set?n=1000&grid=4&block=256&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  ASSERT_TRUE(controller_->render_mapping({640, 480}).is_ok());
  EXPECT_EQ(s.view.camera.transform, fit_to_view(s.trace.layout, {640, 480}, 4.0));
  // A picture opens beside the view: the panel narrows, the picture is fitted again.
  ASSERT_TRUE(controller_->render_mapping({400, 480}).is_ok());
  EXPECT_EQ(s.view.camera.transform, fit_to_view(s.trace.layout, {400, 480}, 4.0));
  // Once the user has panned, a resize leaves the picture where the user put it ...
  controller_->pan(30, 10);
  const ViewTransform moved = s.view.camera.transform;
  ASSERT_TRUE(controller_->render_mapping({640, 480}).is_ok());
  EXPECT_EQ(s.view.camera.transform, moved);
  // ... until Fit, which follows the panel again.
  controller_->fit_view();
  ASSERT_TRUE(controller_->render_mapping({640, 480}).is_ok());
  ASSERT_TRUE(controller_->render_mapping({500, 300}).is_ok());
  EXPECT_EQ(s.view.camera.transform, fit_to_view(s.trace.layout, {500, 300}, 4.0));
}

TEST_F(AppControllerTest, HoverReportsTheThreadThatWroteTheElement) {
  controller_->apply_lesson_action("threadlab:set?n=1000&grid=4&block=256&launch");
  wait_until_idle();
  const Viewport viewport{640, 480};
  ASSERT_TRUE(controller_->render_mapping(viewport).is_ok());
  const AppState& s = controller_->state();
  const PixelPoint centre = cell_center_pixel(s.trace.layout, s.view.camera.transform, 300);
  controller_->hover(centre, viewport);
  ASSERT_TRUE(controller_->state().view.hover.has_value());
  const HoverInfo& hover = *controller_->state().view.hover;
  EXPECT_EQ(hover.hit.cell, 300u);
  ASSERT_TRUE(hover.record.has_value());
  EXPECT_EQ(hover.record->block.x, 1u);
  EXPECT_EQ(hover.record->thread.x, 44u);
  // Past the data: the idle threads of the last block.
  const PixelPoint idle = cell_center_pixel(s.trace.layout, s.view.camera.transform, 1010);
  controller_->hover(idle, viewport);
  ASSERT_TRUE(controller_->state().view.hover.has_value());
  EXPECT_EQ(controller_->state().view.hover->hit.kind, CellKind::kIdleThread);
}

TEST_F(AppControllerTest, SweepFillsTheSeriesAndCanBeCancelled) {
  controller_->set_param("n", "4096");
  controller_->start_sweep();
  EXPECT_TRUE(controller_->state().timing.sweeping);
  EXPECT_FALSE(controller_->can_launch());
  controller_->cancel_sweep();
  wait_until_idle();
  EXPECT_FALSE(controller_->state().timing.sweeping);
  EXPECT_TRUE(controller_->can_launch());
  EXPECT_EQ(controller_->state().timing.x_title, "elements N");
}

TEST_F(AppControllerTest, ACompletedSweepHasTheCpuAndEmulatedSeries) {
  // Sizes 2^10 .. 2^24 on the emulator take a few seconds; wait for them all.
  controller_->start_sweep();
  wait_until_idle();
  const auto& series = controller_->state().timing.series;
  // The kernel and its float4 version, end to end from pageable and from pinned memory, and the
  // CPU on one and on all threads.
  ASSERT_EQ(series.size(), 6u);
  std::vector<std::string> names;
  for (const auto& s : series) names.push_back(s.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "Emulated kernel (CPU)"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "Emulated kernel, float4 (CPU)"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "CPU, 1 thread"), names.end());
  for (const auto& s : series) EXPECT_EQ(s.points.size(), 15u) << s.name;
  // A second sweep keeps the first, faded.
  controller_->start_sweep();
  controller_->cancel_sweep();
  wait_until_idle();
  EXPECT_EQ(controller_->state().timing.earlier.size(), 6u);
  EXPECT_TRUE(controller_->state().timing.earlier[0].faint);
}

TEST_F(AppControllerTest, TheSweepCanBeReadAsRatesAndFallsBackToTimeWithoutPoints) {
  // Before any point only time can be shown, even when a link asks for GFLOP/s.
  controller_->apply_lesson_action("threadlab:set?plot=gflops");
  EXPECT_EQ(controller_->state().timing.quantity, plot::PlotQuantity::kFlopRate);
  EXPECT_EQ(controller_->state().timing.shown_quantity, plot::PlotQuantity::kTime);
  EXPECT_EQ(controller_->state().view.results_tab, ResultsTab::kTiming);

  controller_->apply_lesson_action("threadlab:set?n=4096&sweep");
  wait_until_idle();
  const TimingPlot& timing = controller_->state().timing;
  ASSERT_FALSE(timing.series.empty());
  // The points carry their work, so all three quantities are offered, and the asked-for one shows.
  EXPECT_EQ(timing.quantities.size(), 3u);
  EXPECT_EQ(timing.shown_quantity, plot::PlotQuantity::kFlopRate);
  // On the emulator the legend names what each series measures; the plot's title names the
  // backend once, and the exported sweep keeps the full names.
  const plot::PlotSeries* kernel = nullptr;
  for (const auto& s : timing.shown) {
    EXPECT_FALSE(names_backend(s.name)) << s.name;
    if (s.name == "kernel") kernel = &s;
  }
  ASSERT_NE(kernel, nullptr);
  ASSERT_FALSE(kernel->points.empty());
  EXPECT_TRUE(std::any_of(timing.series.begin(), timing.series.end(),
                          [](const auto& s) { return s.name == "Emulated kernel (CPU)"; }));
  // N additions in the median time: the first point's rate.
  const plot::PlotPoint& time = row_label_without_backend(timing.series[0].name) == kernel->name
                                    ? timing.series[0].points[0]
                                    : timing.series[1].points[0];
  EXPECT_EQ(time.flops, time.x);
  for (const auto& p : kernel->points) EXPECT_GT(p.y, 0) << "at x = " << p.x;

  // No cuBLAS on the emulator: no ceiling line in GFLOP/s; in GB/s the measured memcpy.
  EXPECT_TRUE(timing.guides.empty());
  controller_->set_plot_quantity(plot::PlotQuantity::kBandwidth);
  ASSERT_EQ(timing.guides.size(), 1u);
  EXPECT_NE(timing.guides[0].label.find("memcpy\nmeasured: "), std::string::npos);
  EXPECT_EQ(timing.guides[0].name, "host memcpy");
  EXPECT_NE(timing.guides[0].above_reason.find("caches"), std::string::npos);
  ASSERT_TRUE(controller_->state().ceilings.has_value());
  EXPECT_EQ(timing.guides[0].y, controller_->state().ceilings->copy_bytes_per_second);
  // A note exactly where a current line runs above the ceiling (small sizes fit in the caches).
  bool above = false;
  for (const auto& s : timing.shown) {
    for (const auto& p : s.points) above = above || (!s.faint && p.y > timing.guides[0].y);
  }
  EXPECT_EQ(timing.ceiling_notes.empty(), !above);
  for (const std::string& note : timing.ceiling_notes) {
    EXPECT_EQ(note.rfind("Above the host memcpy line: ", 0), 0u) << note;
  }

  controller_->set_plot_quantity(plot::PlotQuantity::kTime);
  EXPECT_TRUE(timing.guides.empty());
  EXPECT_TRUE(timing.ceiling_notes.empty());
  EXPECT_EQ(timing.shown.size(), timing.series.size());
  EXPECT_EQ(timing.shown[0].points[0].y, timing.series[0].points[0].y);
  controller_->apply_lesson_action("threadlab:set?plot=tflops");  // refused with a message
  EXPECT_EQ(timing.quantity, plot::PlotQuantity::kTime);
}

TEST_F(AppControllerTest, AMatmulLinkSwitchesLessonsAndLaunchesTheTiledKernel) {
  controller_->apply_lesson_action(
      "threadlab:set?lesson=matmul&m=40&n=24&k=16&kernel=tiled&tile=8&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_EQ(s.controls.lesson_id, "matmul");
  EXPECT_EQ(s.lesson.title, "Matrix multiply");
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  // C is drawn as its 40×24 matrix, every element written by one of the 3×5 blocks of 8×8.
  EXPECT_EQ(s.trace.shape.rows, 40u);
  EXPECT_EQ(s.trace.shape.cols, 24u);
  EXPECT_EQ(s.trace.config, (LaunchConfig{{3, 5, 1}, {8, 8, 1}}));
  EXPECT_EQ(s.trace.unwritten, 0u);
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  ASSERT_TRUE(s.timed.report->check.has_value());
  EXPECT_TRUE(s.timed.report->check->passed) << s.timed.report->check->description;
}

TEST_F(AppControllerTest, TheGridDiagramFollowsTheControlsAndAViewLinkBringsItForward) {
  const std::uint64_t requests = controller_->state().view.results_tab_requests;
  controller_->apply_lesson_action(
      "threadlab:set?lesson=thread-hierarchy&n=1000&grid=4&block=256&view=grid&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_EQ(s.view.results_tab, ResultsTab::kGrid);
  EXPECT_EQ(s.view.results_tab_requests, requests + 1);
  const GridDiagram& d = s.controls.grid_diagram;
  EXPECT_EQ(d.blocks, 4u);
  ASSERT_TRUE(d.idle_threads.has_value());
  EXPECT_EQ(*d.idle_threads, 24u);
  // Changing a control updates the diagram before any launch.
  controller_->set_param("block", "100");
  EXPECT_EQ(controller_->state().controls.grid_diagram.config.block, (Dim3{100, 1, 1}));
  EXPECT_EQ(controller_->state().controls.grid_diagram.last_warp_threads, 4u);
  controller_->apply_lesson_action("threadlab:set?view=sideways");
  EXPECT_EQ(controller_->state().view.results_tab, ResultsTab::kGrid);  // unchanged, with a message
}

TEST_F(AppControllerTest, PickingAnElementOfCShowsItsReadsPhaseByPhase) {
  controller_->apply_lesson_action(
      "threadlab:set?lesson=matmul&m=40&n=48&k=36&kernel=tiled&tile=8&launch&pick=17,30");
  wait_until_idle();
  const AppState& s = controller_->state();
  const auto* pick = matmul_views::current_pick(s);
  ASSERT_NE(pick, nullptr);
  EXPECT_EQ(s.view.results_tab, ResultsTab::kLesson);
  EXPECT_EQ(s.view.lesson_tab, "reads");
  EXPECT_EQ(pick->reads.element, (lessons::MatrixCell{17, 30}));
  ASSERT_EQ(pick->reads.phases.size(), 5u);  // ceil(36 / 8)
  matmul_views::show_phase(*controller_, 99);
  EXPECT_EQ(matmul_views::current_pick(s)->phase, 4u);  // clamped to the last phase
  EXPECT_EQ(matmul_views::current_pick(s)->reads.phases[4].k_range, (lessons::IndexRange{32, 36}));
  // Outside C: refused with a message, the pick stays; a new launch clears it.
  controller_->apply_lesson_action("threadlab:set?pick=40,0");
  EXPECT_EQ(matmul_views::current_pick(s)->reads.element, (lessons::MatrixCell{17, 30}));
  controller_->launch(false);
  EXPECT_EQ(matmul_views::current_pick(s), nullptr);
  // Lessons without a use for a picked element refuse it with a message.
  controller_->select_lesson("vector-add");
  wait_until_idle();
  controller_->pick_element(0, 3);
  EXPECT_EQ(controller_->state().lesson_pick, nullptr);
}

TEST_F(AppControllerTest, MatmulOpensOnTheEmulatorWithSizesItCanRun) {
  controller_->select_lesson("matmul");
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_EQ(s.controls.lesson_id, "matmul");
  EXPECT_EQ(s.controls.values.at("m"), "160");
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  EXPECT_EQ(s.trace.shape.rows, 160u);
  EXPECT_EQ(s.trace.shape.cols, 192u);
  EXPECT_EQ(s.trace.unwritten, 0u);
}

TEST_F(AppControllerTest, ARequestTooSlowForTheEmulatorHasNoPictureOnlyItsReason) {
  controller_->apply_lesson_action("threadlab:set?lesson=matmul&m=512&n=512&k=512&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_FALSE(s.trace.valid);
  EXPECT_NE(s.trace.error.find("emulator"), std::string::npos) << s.trace.error;
  EXPECT_EQ(s.trace.unwritten, 0u);  // nothing claims the elements were left unwritten
  // The app keeps working: a size the emulator can run draws again.
  controller_->apply_lesson_action("threadlab:set?m=64&n=64&k=64&launch");
  wait_until_idle();
  EXPECT_TRUE(controller_->state().trace.valid) << controller_->state().trace.error;
}

TEST_F(AppControllerTest, A2dBlocksLinkTracesTheMatrixAndTimesBothMappings) {
  controller_->apply_lesson_action(
      "threadlab:set?lesson=2d-blocks&rows=64&cols=48&mapping=x_to_row&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_EQ(s.controls.lesson_id, "2d-blocks");
  EXPECT_EQ(s.lesson.title, "2D blocks");
  EXPECT_EQ(s.controls.values.at("mapping"), "x-to-row");
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  // A is drawn as its 64×48 matrix; under row = x, 16×16 blocks need 4 in x and 3 in y.
  EXPECT_EQ(s.trace.shape.rows, 64u);
  EXPECT_EQ(s.trace.shape.cols, 48u);
  EXPECT_EQ(s.trace.config, (LaunchConfig{{4, 3, 1}, {16, 16, 1}}));
  EXPECT_EQ(s.trace.unwritten, 0u);
  ASSERT_TRUE(s.trace.check.has_value());
  EXPECT_TRUE(s.trace.check->passed) << s.trace.check->description;
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  EXPECT_NE(row_named(*s.timed.report, "Emulated kernel (CPU), x → column (coalesced)"), nullptr);
  EXPECT_NE(row_named(*s.timed.report, "Emulated kernel (CPU), x → row (strided)"), nullptr);
  ASSERT_TRUE(s.timed.report->check.has_value());
  EXPECT_TRUE(s.timed.report->check->passed) << s.timed.report->check->description;
}

TEST_F(AppControllerTest, TheFastDenseKernelsTraceIsDecodedByTheLaunchThatRan) {
  // The fast GEMM ignores the block control (32 × 8) and launches 128×128 tiles of Y with 256
  // threads: the trace keeps that launch, so blockIdx and threadIdx unfold by it.
  controller_->apply_lesson_action(
      "threadlab:set?lesson=dense-layer&batch=130&in=40&out=24&path=fused&product=fast&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  EXPECT_EQ(s.controls.config(), (LaunchConfig{{1, 17, 1}, {32, 8, 1}}));
  EXPECT_EQ(s.trace.config, (LaunchConfig{{1, 2, 1}, {256, 1, 1}}));
  EXPECT_EQ(s.trace.unwritten, 0u);
  EXPECT_EQ(s.trace.written_more, 0u);
  EXPECT_FALSE(s.trace.idle_threads.has_value());  // a thread owns 8 × 8 elements here
}

TEST_F(AppControllerTest, ADenseLayerLinkTracesYAndTimesEveryPath) {
  controller_->apply_lesson_action(
      "threadlab:set?lesson=dense-layer&batch=4&in=40&out=24&path=fused&launch");
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_EQ(s.controls.lesson_id, "dense-layer");
  EXPECT_EQ(s.lesson.title, "Dense layer");
  EXPECT_EQ(s.controls.values.at("path"), "fused");
  ASSERT_TRUE(s.trace.valid) << s.trace.error;
  // Y is drawn as its 4 × 24 matrix: one block of 32 × 8 threads, x along the neurons.
  EXPECT_EQ(s.trace.shape.rows, 4u);
  EXPECT_EQ(s.trace.shape.cols, 24u);
  EXPECT_EQ(s.trace.config, (LaunchConfig{{1, 1, 1}, {32, 8, 1}}));
  EXPECT_EQ(s.trace.unwritten, 0u);
  ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
  EXPECT_NE(row_named(*s.timed.report, "Emulated fused (CPU)"), nullptr);
  EXPECT_NE(row_named(*s.timed.report, "Emulated unfused, 3 launches (CPU)"), nullptr);
  ASSERT_TRUE(s.timed.report->check.has_value());
  EXPECT_TRUE(s.timed.report->check->passed) << s.timed.report->check->description;

  // The lesson opens on the layer's picture: 40 inputs averaged into 32 cells, 24 neurons one by
  // one, with the sigmoid's outputs.
  EXPECT_EQ(s.view.results_tab, ResultsTab::kLesson);
  EXPECT_EQ(s.view.lesson_tab, "layer");
  const lessons::LayerPicture* picture = compute::layer_picture(s.lesson_picture);
  ASSERT_NE(picture, nullptr);
  EXPECT_EQ(picture->in, 40u);
  EXPECT_EQ(picture->out, 24u);
  EXPECT_EQ(picture->input_cells, 32u);
  EXPECT_EQ(picture->neuron_cells, 24u);
  EXPECT_EQ(picture->outputs.size(), 24u);

  // A sweep link brings the plot forward; the picture stays while the sweep runs.
  controller_->apply_lesson_action("threadlab:set?sweep");
  EXPECT_EQ(controller_->state().view.results_tab, ResultsTab::kTiming);
  EXPECT_NE(compute::layer_picture(controller_->state().lesson_picture), nullptr);
  controller_->cancel_sweep();
  wait_until_idle();
  // Another lesson has no layer.
  controller_->select_lesson("vector-add");
  wait_until_idle();
  EXPECT_EQ(controller_->state().lesson_picture, nullptr);
}

TEST_F(AppControllerTest, OccupancyOnTheEmulatorModelsAReferenceGpuTheUserChooses) {
  const OccupancyView& view = controller_->state().controls.occupancy;
  EXPECT_EQ(view.kernel, "vector_add");
  EXPECT_TRUE(view.unavailable.empty()) << view.unavailable;
  ASSERT_TRUE(view.resources.has_value());
  EXPECT_EQ(view.model_label, "a model of H100 SXM, not measured");
  EXPECT_EQ(view.device.name, "H100 SXM");
  EXPECT_EQ(view.resources->registers_per_thread, kAssumedRegistersPerThread);
  EXPECT_EQ(view.current.block_threads, controller_->state().controls.resolved.block.volume());
  EXPECT_FALSE(view.limit_reason.empty());
  EXPECT_FALSE(view.by_block_size.empty());

  // Another GPU and the kernel's assumed registers: the figures follow (a T4 has 32 warp slots,
  // and 128 registers a thread leave 16 warps' worth of its 65536).
  OccupancyModelChoice choice{"T4", 128, 0};
  controller_->set_occupancy_model(choice);
  EXPECT_EQ(view.model_label, "a model of T4, not measured");
  EXPECT_EQ(view.current.max_warps, 32u);
  if (view.current.active_blocks > 0) EXPECT_LE(view.current.active_warps, 16u);
  // A GPU it does not know, or an impossible register count, is refused and changes nothing.
  controller_->set_occupancy_model({"GeForce 256", 32, 0});
  controller_->set_occupancy_model({"T4", 0, 0});
  EXPECT_EQ(controller_->state().controls.occupancy_model.gpu, "T4");
  EXPECT_EQ(controller_->state().controls.occupancy_model.registers_per_thread, 128u);
  ASSERT_GE(controller_->state().messages.size(), 2u);
  EXPECT_EQ(controller_->state().messages.back().severity, Severity::kError);

  // The kernel follows the controls, and the choice stays across lessons.
  controller_->apply_lesson_action(
      "threadlab:set?lesson=matmul&kernel=tiled&tile=8&view=occupancy");
  EXPECT_EQ(controller_->state().view.results_tab, ResultsTab::kOccupancy);
  EXPECT_EQ(controller_->state().controls.occupancy.kernel, "matmul_tiled<8>");
  EXPECT_EQ(controller_->state().controls.occupancy.current.block_threads, 64u);
  EXPECT_EQ(controller_->state().controls.occupancy.model_label, "a model of T4, not measured");
  wait_until_idle();
  controller_->apply_lesson_action("threadlab:set?lesson=dense-layer&path=cublas");
  wait_until_idle();
  EXPECT_TRUE(controller_->state().controls.occupancy.kernel.empty());
  EXPECT_NE(controller_->state().controls.occupancy.unavailable.find("cuBLAS"), std::string::npos);
}

// On the emulator the timing panel's note is the lesson's, and the step bar's the one for the
// current step's section (the lesson's where the section has none of its own).
TEST_F(AppControllerTest, EmulatorNotesFollowTheLessonAndTheCurrentStep) {
  const lessons::EmulatorNote* vector_add = controller_->lesson_emulator_note();
  ASSERT_NE(vector_add, nullptr);
  EXPECT_NE(vector_add->why.find("PCIe"), std::string_view::npos) << vector_add->why;
  EXPECT_EQ(controller_->step_emulator_note(), nullptr) << "no step is current";
  controller_->select_lesson("matmul");
  wait_until_idle();
  const lessons::EmulatorNote* matmul = controller_->lesson_emulator_note();
  ASSERT_NE(matmul, nullptr);
  EXPECT_NE(matmul, vector_add);
  // A step of each kind, neither a sweep (slow on the emulator) nor a large launch.
  const ClassroomState& classroom = controller_->state().classroom;
  const auto step_under = [&](std::string_view section) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < classroom.steps.size(); ++i) {
      const auto& step = classroom.steps[i];
      if (step.section == section && step.action.find("sweep") == std::string::npos &&
          step.action.find("1024") == std::string::npos) {
        return i;
      }
    }
    return std::nullopt;
  };
  const auto tiles = step_under("Shared memory and tiles");
  ASSERT_TRUE(tiles.has_value());
  controller_->go_to_step(*tiles);
  wait_until_idle();
  const lessons::EmulatorNote* note = controller_->step_emulator_note();
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->headline.find("tiled is slower"), std::string_view::npos);
  EXPECT_NE(note->why.find("__syncthreads()"), std::string_view::npos);
  const auto first = step_under("One thread per element of C");
  ASSERT_TRUE(first.has_value());
  controller_->go_to_step(*first);
  wait_until_idle();
  EXPECT_EQ(controller_->step_emulator_note(), matmul);
}

TEST_F(AppControllerTest, ABlockSweepTimesTheKernelsFromOneThreadToTheLimit) {
  controller_->apply_lesson_action("threadlab:set?n=4096&sweep=block");
  wait_until_idle();
  const TimingPlot& timing = controller_->state().timing;
  EXPECT_EQ(timing.kind, SweepKind::kBlock);
  EXPECT_NE(timing.x_title.find("threads per block"), std::string::npos) << timing.x_title;
  ASSERT_FALSE(timing.series.empty());
  for (const auto& s : timing.series) {
    EXPECT_EQ(s.name.rfind("CPU", 0), std::string::npos) << "the CPU is not timed over blocks";
    ASSERT_FALSE(s.points.empty()) << s.name;
    EXPECT_EQ(s.points.front().x, 1);
    EXPECT_EQ(s.points.back().x, 1024);
  }
  EXPECT_TRUE(timing.markers.empty());
  // A size sweep next does not keep the block sweep as its faded comparison: x means another thing.
  controller_->start_sweep(SweepKind::kSize);
  controller_->cancel_sweep();
  wait_until_idle();
  EXPECT_EQ(controller_->state().timing.kind, SweepKind::kSize);
  EXPECT_TRUE(controller_->state().timing.earlier.empty());
}

TEST_F(AppControllerTest, TheTiledProductSweepsItsThreeTiles) {
  controller_->apply_lesson_action(
      "threadlab:set?lesson=matmul&m=48&n=40&k=32&kernel=tiled&tile=16&sweep=block");
  wait_until_idle();
  const TimingPlot& timing = controller_->state().timing;
  ASSERT_FALSE(timing.series.empty());
  std::vector<double> xs;
  for (const auto& p : timing.series.front().points) xs.push_back(p.x);
  EXPECT_EQ(xs, (std::vector<double>{64, 256, 1024}));
}

// The reductions lesson's numerics step names 2^25 elements, a GPU's size: on the emulator the link
// runs at the lesson's emulator size, and the status bar says what it asked and what runs (the
// window froze for minutes on the link's own size). A size within reach of the emulator is kept.
TEST_F(AppControllerTest, OnTheEmulatorAGpuSizedLinkRunsAtTheEmulatorsSizeAndSaysSo) {
  controller_->apply_lesson_action("threadlab:set?lesson=reductions&n=32M&data=equal&launch");
  wait_until_idle();
  EXPECT_EQ(controller_->state().controls.lesson_id, "reductions");
  EXPECT_EQ(controller_->state().controls.values.at("n"), "64K");
  bool said = false;
  for (const Message& message : controller_->state().messages) {
    said = said || message.text.find("n=32M runs as n=64K") != std::string::npos;
  }
  EXPECT_TRUE(said) << "the status bar says the link's size was fitted";
  controller_->apply_lesson_action("threadlab:set?lesson=reductions&n=100000&launch");
  wait_until_idle();
  EXPECT_EQ(controller_->state().controls.values.at("n"), "100000")
      << "within 4x of the emulator's size: kept";
}

}  // namespace
}  // namespace tl::ui
