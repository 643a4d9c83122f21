// The lesson workspace's Compiled tab on a headless UI: opened by a link's view=compiled on lesson
// 3, its kernels listed timed ones first, a source line lighting the SASS instructions made from
// it and an instruction picking its line back, drawn at the usual sizes; a lesson change lists the
// new lesson's kernels. A build without listings shows why (the test then skips, saying so).

#include <gtest/gtest.h>

#include <string>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "headless_ui.hpp"

namespace tl::ui {
namespace {

class CompiledTabTest : public ::testing::TestWithParam<std::pair<int, int>> {
 protected:
  void SetUp() override {
    auto ui = HeadlessUi::create(GetParam().first, GetParam().second, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    ControllerOptions options =
        test_support::emulator_options(ui_->renderer(), "threadlab_compiled_tab_test");
    auto controller = AppController::create(options);
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
    test_support::wait_until_idle(*app_);
  }
  void TearDown() override {
    app_.reset();
    ui_.reset();
  }
  void frames(int count = 3) {
    for (int i = 0; i < count; ++i) ui_->draw_frame(*app_);
  }
  const CompiledViewState& view() const { return app_->compiled_view().state(); }

  std::unique_ptr<HeadlessUi> ui_;
  std::unique_ptr<AppController> app_;
};

TEST_P(CompiledTabTest, ASourceLineLightsItsInstructionsAndBack) {
  app_->apply_lesson_action("threadlab:set?lesson=2d-blocks&view=compiled");
  EXPECT_EQ(app_->state().view.results_tab, ResultsTab::kCompiled);
  frames();
  ASSERT_EQ(view().lesson_id, "2d-blocks") << "drawing the tab reads the lesson's listings";
  if (view().unavailable.starts_with("No compiled listings")) GTEST_SKIP() << view().unavailable;
  ASSERT_TRUE(view().unavailable.empty()) << view().unavailable;
  ASSERT_GE(view().kernels.size(), 2u);
  EXPECT_FALSE(view().kernels.front().traced) << "the timed kernels first";
  std::size_t row_kernel = view().kernels.size();
  for (std::size_t i = 0; i < view().kernels.size(); ++i) {
    if (view().kernels[i].name == "tl::gpu::matrix_add_x_to_row<tl::Untraced>") row_kernel = i;
  }
  ASSERT_LT(row_kernel, view().kernels.size());
  app_->compiled_view().select_kernel(row_kernel);
  EXPECT_EQ(view().source_path, "lessons/03_2d_blocks/kernels/matrix_add.cuh");
  EXPECT_NE(view().summary.find("registers a thread"), std::string::npos) << view().summary;
  EXPECT_NE(view().summary.find("no spills"), std::string::npos) << view().summary;

  int add_line = 0;
  for (const CompiledSourceRow& row : view().source) {
    if (row.text.find("c[i] = a[i] + b[i];") != std::string::npos && row.instructions > 0) {
      add_line = row.line;
    }
  }
  ASSERT_GT(add_line, 0) << "the add's line made instructions";
  app_->compiled_view().select_line(add_line);
  int loads = 0;
  int stores = 0;
  std::size_t lit = 0;
  std::optional<std::size_t> a_load;
  for (std::size_t i = 0; i < view().sass.size(); ++i) {
    const CompiledSassRow& row = view().sass[i];
    if (!row.lit) continue;
    ++lit;
    EXPECT_EQ(row.line, add_line);
    if (row.kind == compiled::InstructionKind::kGlobalLoad) {
      ++loads;
      a_load = i;
      EXPECT_FALSE(row.gloss.empty()) << "LDG has its gloss";
    }
    stores += row.kind == compiled::InstructionKind::kGlobalStore;
  }
  EXPECT_EQ(loads, 2);
  EXPECT_EQ(stores, 1);
  frames();

  // An instruction of another line picks that line.
  std::optional<std::size_t> other;
  for (std::size_t i = 0; i < view().sass.size(); ++i) {
    if (view().sass[i].line > 0 && view().sass[i].line != add_line) other = i;
  }
  ASSERT_TRUE(other.has_value());
  app_->compiled_view().select_instruction(*other);
  EXPECT_EQ(view().selected_line, view().sass[*other].line);
  EXPECT_FALSE(view().sass[*a_load].lit);
  frames();

  // The PTX beside the source instead: the add's line lights its PTX too (two ld.global, one
  // st.global), and a PTX line picks its source line.
  app_->compiled_view().show_listing(CompiledListingShown::kPtx);
  app_->compiled_view().select_line(add_line);
  if (view().ptx.empty()) {
    ADD_FAILURE() << "lesson 3's unit has PTX for " << view().kernels[view().kernel].arch << ": "
                  << view().ptx_unavailable;
  } else {
    int ptx_loads = 0;
    int ptx_stores = 0;
    for (const CompiledPtxRow& row : view().ptx) {
      if (!row.lit) continue;
      ptx_loads += row.text.find("ld.global") != std::string::npos;
      ptx_stores += row.text.find("st.global") != std::string::npos;
    }
    EXPECT_EQ(ptx_loads, 2);
    EXPECT_EQ(ptx_stores, 1);
    ASSERT_TRUE(view().first_lit_ptx.has_value());
    frames();
    std::optional<std::size_t> other_ptx;
    for (std::size_t i = 0; i < view().ptx.size(); ++i) {
      if (view().ptx[i].line > 0 && view().ptx[i].line != add_line) other_ptx = i;
    }
    ASSERT_TRUE(other_ptx.has_value());
    app_->compiled_view().select_ptx_row(*other_ptx);
    EXPECT_EQ(view().selected_line, view().ptx[*other_ptx].line);
    EXPECT_TRUE(view().ptx[*other_ptx].lit);
  }
  app_->compiled_view().show_listing(CompiledListingShown::kSass);
  frames();

  // Another lesson: its own kernels.
  app_->apply_lesson_action("threadlab:set?lesson=matmul&view=compiled");
  frames();
  EXPECT_EQ(view().lesson_id, "matmul");
  bool tiled = false;
  for (const CompiledKernelEntry& k : view().kernels) {
    tiled = tiled || k.name == "tl::gpu::matmul_tiled<16, tl::Untraced>";
    EXPECT_EQ(k.name.find("matrix_add"), std::string::npos) << k.name;
  }
  EXPECT_TRUE(tiled);
  EXPECT_EQ(view().kernels[view().kernel].name, "tl::gpu::matmul_tiled<16, tl::Untraced>")
      << "the kernel the lesson's settings time (tiled, TILE 16) is the one shown";

  // The ladder side by side: every timed kernel, none of the traced twins; the tiled kernel's
  // multiply-adds and shared loads as its SASS has them, and the 2D register tile feeding more
  // multiply-adds from each shared load with more registers.
  app_->compiled_view().show_listing(CompiledListingShown::kSideBySide);
  frames();
  const CompiledComparisonRow* tiled16 = nullptr;
  const CompiledComparisonRow* regtile2d = nullptr;
  for (const CompiledComparisonRow& row : view().side_by_side) {
    EXPECT_FALSE(view().kernels[row.kernel].traced) << row.name;
    if (row.name == "matmul_tiled<16>") tiled16 = &row;
    if (row.name == "matmul_regtile_2d") regtile2d = &row;
  }
  ASSERT_NE(tiled16, nullptr);
  ASSERT_NE(regtile2d, nullptr);
  const CompiledKernelEntry& tiled_entry = view().kernels[tiled16->kernel];
  EXPECT_EQ(tiled16->multiply_adds, tiled_entry.summary.multiply_adds);
  EXPECT_EQ(tiled16->shared_loads,
            tiled_entry.summary.count(compiled::InstructionKind::kSharedLoad));
  EXPECT_GT(tiled16->multiply_adds, 0u);
  EXPECT_GT(regtile2d->registers, tiled16->registers);
  EXPECT_GT(regtile2d->multiply_adds_per_shared_load, 2 * tiled16->multiply_adds_per_shared_load);
  app_->compiled_view().select_kernel(regtile2d->kernel);
  app_->compiled_view().show_listing(CompiledListingShown::kSass);
  EXPECT_EQ(view().kernels[view().kernel].timed_name, "matmul_regtile_2d");
  frames();
}

INSTANTIATE_TEST_SUITE_P(UsualSizes, CompiledTabTest,
                         ::testing::Values(std::pair{1280, 720}, std::pair{1600, 1000}));

}  // namespace
}  // namespace tl::ui
