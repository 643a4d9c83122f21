// The lesson workspace's Memory tab on a headless UI, on the emulator: opened by a lesson link's
// view=memory on lesson 3 (2d-blocks), its kernels recorded in the background, the per-line
// table's rows and the drawn request's data (which lane goes to which sector) read from the
// controller's state, which is what the panel draws. A recording held back by a fake shows that
// frames go on meanwhile and that Cancel stops it.

#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>

#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "headless_ui.hpp"

namespace tl::ui {
namespace {

// Lesson 3 at a size that names every element simply: lane l of warp 0 of block (0, 0) reads
// a[l] under x → column and a[l * 256] under x → row.
constexpr const char* kLessonThree =
    "threadlab:set?lesson=2d-blocks&rows=256&cols=256&block=32,8&grid=auto&view=memory";

// The recording builds shared with tests/emulator (keyed by their inputs' hash).
std::string recording_cache() {
  return (std::filesystem::temp_directory_path() / "threadlab-lesson-memory-tests").string();
}

// The selected tab of the results bar (the one with a "CPU vs GPU" tab).
std::string selected_results_tab() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int i = 0; i < g.TabBars.GetMapSize(); ++i) {
    ImGuiTabBar* bar = g.TabBars.TryGetMapData(i);
    if (bar == nullptr) continue;
    bool results = false;
    std::string selected;
    for (const ImGuiTabItem& tab : bar->Tabs) {
      if (tab.NameOffset < 0) continue;
      const std::string name = bar->TabsNames.Buf.Data + tab.NameOffset;
      results = results || name == "CPU vs GPU";
      if (tab.ID == bar->SelectedTabId) selected = name;
    }
    if (results) return selected;
  }
  return {};
}

const MemoryTabKernel* kernel_named(const LessonMemoryState& s, const std::string& name) {
  for (const MemoryTabKernel& k : s.kernels) {
    if (k.kernel == name) return &k;
  }
  ADD_FAILURE() << "no kernel " << name << " in the Memory tab";
  return nullptr;
}

// The index of the kernel's row on the line containing `text`, of that space and kind.
std::optional<std::size_t> row_of(const MemoryTabKernel& kernel, const std::string& text,
                                  memory::AccessKind kind) {
  for (std::size_t i = 0; i < kernel.rows.size(); ++i) {
    const MemoryTabRow& r = kernel.rows[i];
    if (r.source.find(text) != std::string::npos && r.totals.kind == kind &&
        r.totals.space == memory::MemorySpace::kGlobal) {
      return i;
    }
  }
  ADD_FAILURE() << kernel.kernel << " has no row for \"" << text << "\"";
  return std::nullopt;
}

// The widest column width of the ten-column tables drawn in the last frame (the Memory tab's).
float widest_memory_source_column() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  float widest = 0;
  for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
    ImGuiTable* table = g.Tables.TryGetMapData(i);
    if (table == nullptr || table->ColumnsCount != 10 || table->LastFrameActive != g.FrameCount) {
      continue;
    }
    widest = std::max(widest, table->Columns[1].WidthGiven);
  }
  return widest;
}

class MemoryTabTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ui = HeadlessUi::create(1600, 1000, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
  }
  void TearDown() override {
    app_.reset();  // its GL objects go before the context
    ui_.reset();
  }
  void open(LessonMemoryOptions memory = {}) {
    ControllerOptions options =
        test_support::emulator_options(ui_->renderer(), "threadlab_memory_tab_test");
    if (memory.cache_dir.empty()) memory.cache_dir = recording_cache();
    options.memory = std::move(memory);
    auto controller = AppController::create(options);
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
    test_support::wait_until_idle(*app_);
  }
  void frames(int count = 2) {
    for (int i = 0; i < count; ++i) ui_->draw_frame(*app_);
  }
  const LessonMemoryState& memory() const { return app_->lesson_memory().state(); }
  // Until the recording the open tab started is done.
  void recorded() {
    frames(2);
    app_->lesson_memory().wait(std::chrono::minutes(3));
    ASSERT_FALSE(memory().recording) << "still recording after three minutes";
    frames(2);
  }

  std::unique_ptr<HeadlessUi> ui_;
  std::unique_ptr<AppController> app_;
};

TEST_F(MemoryTabTest, LessonThreeShowsFourSectorsPerRequestForColumnsAndThirtyTwoForRows) {
  open();
  app_->apply_lesson_action(kLessonThree);
  ASSERT_EQ(app_->state().controls.lesson_id, "2d-blocks");
  EXPECT_EQ(app_->state().view.results_tab, ResultsTab::kMemory);
  frames(3);
  EXPECT_EQ(selected_results_tab(), "Memory") << "view=memory brings the tab to the front";
  // Drawing the tab is what asks for the recording; it runs in the background.
  EXPECT_TRUE(memory().recording || memory().recordings_finished > 0);
  recorded();
  const LessonMemoryState& s = memory();
  ASSERT_TRUE(s.error.empty()) << s.error;
  EXPECT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_FALSE(s.stale);
  EXPECT_EQ(s.lesson_id, "2d-blocks");
  ASSERT_EQ(s.kernels.size(), 2u) << "both mappings, as a timed run compares them";

  // x → column: 32 neighbouring floats, 4 sectors a request, the ideal.
  const MemoryTabKernel* column = kernel_named(s, "matrix_add_x_to_col");
  ASSERT_NE(column, nullptr);
  const auto column_load = row_of(*column, "c[i] = a[i] + b[i]", memory::AccessKind::kLoad);
  const auto column_store = row_of(*column, "c[i] = a[i] + b[i]", memory::AccessKind::kStore);
  ASSERT_TRUE(column_load && column_store);
  const MemoryTabRow& load = column->rows[*column_load];
  EXPECT_DOUBLE_EQ(load.totals.sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(load.totals.ideal_sectors_per_request(), 4.0);
  EXPECT_TRUE(load.ideal);
  EXPECT_EQ(load.arrays, "a, b") << "both arrays are read on that line";
  EXPECT_EQ(load.badge, "4 sectors / request — ideal");
  EXPECT_EQ(load.requests.size(), load.totals.requests);
  EXPECT_EQ(column->rows[*column_store].arrays, "c");
  EXPECT_DOUBLE_EQ(column->rows[*column_store].totals.sectors_per_request(), 4.0);
  EXPECT_NE(column->scope.find("blocks recorded"), std::string::npos) << column->scope;

  // x → row: 32 floats a row (256 floats) apart, a sector each: 32 a request, 8× the bytes.
  const MemoryTabKernel* row = kernel_named(s, "matrix_add_x_to_row");
  ASSERT_NE(row, nullptr);
  const auto row_load = row_of(*row, "c[i] = a[i] + b[i]", memory::AccessKind::kLoad);
  ASSERT_TRUE(row_load);
  EXPECT_DOUBLE_EQ(row->rows[*row_load].totals.sectors_per_request(), 32.0);
  EXPECT_FALSE(row->rows[*row_load].ideal);
  EXPECT_EQ(row->rows[*row_load].badge, "32 sectors / request — 8× the bytes needed");

  // The drawn request of x → column's load: warp 0 of block (0, 0), lanes 0-31 onto 4 sectors,
  // 8 lanes each, lane l into sector l / 8.
  std::size_t column_index = column == &s.kernels[0] ? 0 : 1;
  app_->lesson_memory().select_kernel(column_index);
  app_->lesson_memory().select_row(*column_load);
  frames();
  ASSERT_TRUE(s.request.has_value());
  const MemoryRequestView& coalesced = *s.request;
  EXPECT_EQ(coalesced.count, load.requests.size());
  const memory::RequestPicture& p = coalesced.picture;
  EXPECT_EQ(p.space, memory::MemorySpace::kGlobal);
  ASSERT_EQ(p.lanes.size(), 32u);
  ASSERT_EQ(p.targets.size(), 4u);
  EXPECT_EQ(p.actual, 4u);
  EXPECT_EQ(p.ideal, 4u);
  EXPECT_EQ(p.lines, 1u);
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(p.lanes[l].lane, l);
    EXPECT_EQ(p.lanes[l].target, l / 8) << "lane " << l;
  }
  for (const memory::PictureTarget& t : p.targets) EXPECT_EQ(t.lanes, 8u);
  ASSERT_EQ(coalesced.lanes.size(), 32u);
  EXPECT_EQ(coalesced.lanes[5].thread, (Dim3{5, 0, 0}));
  EXPECT_EQ(coalesced.lanes[5].block, (Dim3{0, 0, 0}));
  const std::string array = coalesced.lanes[0].element.substr(0, 1);  // "a" or "b", as compiled
  EXPECT_EQ(coalesced.lanes[5].element, array + "[5]");
  ASSERT_EQ(coalesced.target_labels.size(), 4u);
  EXPECT_EQ(coalesced.target_labels[1], array + "[8…15]");
  EXPECT_NE(coalesced.summary.find("4 sectors in 1 line"), std::string::npos) << coalesced.summary;

  EXPECT_EQ(coalesced.title.rfind("block (0, 0), warp 0, the 1st time through line ", 0), 0u)
      << coalesced.title;
  frames();
  EXPECT_TRUE(
      ui_->save_png((std::filesystem::path(::testing::TempDir()) / "threadlab-memory-coalesced.png")
                        .string())
          .is_ok());

  // The next request of that line is another one (the other array, or the next warp).
  app_->lesson_memory().select_request(coalesced.index + 1);
  ASSERT_TRUE(s.request.has_value());
  EXPECT_EQ(s.request->index, 1u);
  EXPECT_EQ(s.request->picture.lanes.size(), 32u);

  // x → row's load: every lane its own sector, 32 of them in 32 lines; lane l reads row l.
  app_->lesson_memory().select_kernel(1 - column_index);
  app_->lesson_memory().select_row(*row_load);
  frames();
  ASSERT_TRUE(s.request.has_value());
  const memory::RequestPicture& strided = s.request->picture;
  ASSERT_EQ(strided.lanes.size(), 32u);
  ASSERT_EQ(strided.targets.size(), 32u);
  EXPECT_EQ(strided.actual, 32u);
  EXPECT_EQ(strided.ideal, 4u);
  EXPECT_EQ(strided.lines, 32u);
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(strided.lanes[l].target, l) << "lane " << l;
    EXPECT_EQ(strided.targets[l].lanes, 1u);
  }
  const std::string strided_array = s.request->lanes[0].element.substr(0, 1);
  EXPECT_EQ(s.request->lanes[3].element, strided_array + "[768]") << "row 3 of 256 columns";
  EXPECT_EQ(s.request->lanes[3].thread, (Dim3{3, 0, 0}));
  EXPECT_NE(s.request->summary.find("8× the bytes needed"), std::string::npos)
      << s.request->summary;

  // Drawn at a size where the table and the picture sit side by side, and left for a person.
  frames();
  const std::string png =
      (std::filesystem::path(::testing::TempDir()) / "threadlab-memory-tab.png").string();
  EXPECT_TRUE(ui_->save_png(png).is_ok());
}

// Lesson 6's strided tree: at s = 1 thread t works on word 2t, so lanes l and l + 16 of a warp
// land in one bank on different words: the drawn request stacks two words in every even bank.
// On a GPU the timed run's hardware counters (the Counters section) stand beside each kernel's
// model in the tab: the same kernel by its timing key, read at the same settings; otherwise the
// tab says what to do or why not. Fed here as a GPU run would feed them (no GPU in this test).
TEST_F(MemoryTabTest, TheGpusCountersStandBesideTheModelOfTheSameKernel) {
  open();
  app_->apply_lesson_action(kLessonThree);
  frames(3);
  recorded();
  LessonMemoryController& controller = app_->lesson_memory();
  const LessonMemoryState& s = memory();
  ASSERT_EQ(s.kernels.size(), 2u);
  for (const MemoryTabKernel& k : s.kernels) {
    EXPECT_FALSE(k.counted_key.empty()) << k.label << ": lesson 3 counts both mappings";
    EXPECT_TRUE(k.measured.empty()) << "on the emulator nothing stands beside the model";
  }
  const MemoryTabKernel* row = kernel_named(s, "matrix_add_x_to_row");
  ASSERT_NE(row, nullptr);
  // The whole grid of 256 × 256 in 32 × 8 blocks: 2 loads and a store per warp, 32 sectors each.
  EXPECT_DOUBLE_EQ(row->model_counts.load_sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(row->model_counts.global_load_requests, 256.0 * 256 / 32 * 2);

  HardwareCounterReading reading;
  controller.show_counters(reading, true, true, "NVIDIA H200");
  EXPECT_NE(row->measured.find("tick Hardware counters"), std::string::npos) << row->measured;
  EXPECT_FALSE(row->measured_read);

  reading.enabled = true;
  reading.unavailable = "hardware counters are not permitted for this user (ERR_NVGPUCTRPERM)";
  controller.show_counters(reading, true, true, "NVIDIA H200");
  EXPECT_EQ(row->measured, reading.unavailable);

  reading.unavailable.clear();
  CountedKernel counted;
  counted.key = row->counted_key;
  counted.counters.memory = row->model_counts;  // the GPU agreeing with the model, as it does
  reading.kernels.push_back(counted);
  controller.show_counters(reading, true, true, "NVIDIA H200");
  EXPECT_TRUE(row->measured_read);
  EXPECT_NE(row->measured.find("on NVIDIA H200: global loads 32 sectors per request measured, 32 "
                               "in the model (4,096 and 4,096 requests)"),
            std::string::npos)
      << row->measured;
  const MemoryTabKernel& other = s.kernels[row == &s.kernels[0] ? 1 : 0];
  EXPECT_FALSE(other.measured_read) << "x → column was not counted: its line says so";
  EXPECT_NE(other.measured.find("Launch to read"), std::string::npos) << other.measured;

  controller.show_counters(reading, true, false, "NVIDIA H200");
  EXPECT_FALSE(row->measured_read) << "counters of other settings are not this table's";
  EXPECT_NE(row->measured.find("other settings"), std::string::npos) << row->measured;
  controller.show_counters(reading, false, true, "the CPU emulator");
  EXPECT_TRUE(row->measured.empty());
}

TEST_F(MemoryTabTest, LessonSixsStridedTreeStacksTwoWordsInEachEvenBank) {
  open();
  app_->apply_lesson_action("threadlab:set?lesson=reductions&n=4096&block=256&view=memory");
  recorded();
  const LessonMemoryState& s = memory();
  ASSERT_TRUE(s.error.empty()) << s.error;
  const MemoryTabKernel* strided = kernel_named(s, "sum_strided");
  ASSERT_NE(strided, nullptr);
  std::optional<std::size_t> load;
  for (std::size_t i = 0; i < strided->rows.size(); ++i) {
    const MemoryTabRow& r = strided->rows[i];
    if (r.source.find("partial[index] += partial[index + s];") != std::string::npos &&
        r.totals.space == memory::MemorySpace::kShared &&
        r.totals.kind == memory::AccessKind::kLoad) {
      load = i;
    }
  }
  ASSERT_TRUE(load) << "no shared load row for the strided tree's add";
  EXPECT_EQ(strided->rows[*load].arrays, "shared memory");
  EXPECT_GT(strided->rows[*load].totals.bank_conflicts(), 0u);
  EXPECT_FALSE(strided->rows[*load].ideal);
  app_->lesson_memory().select_kernel(static_cast<std::size_t>(strided - s.kernels.data()));
  app_->lesson_memory().select_row(*load);
  frames();
  ASSERT_TRUE(s.request.has_value());
  const memory::RequestPicture& p = s.request->picture;
  EXPECT_EQ(p.space, memory::MemorySpace::kShared);
  ASSERT_EQ(p.lanes.size(), 32u) << "the first full warp's request is drawn";
  ASSERT_EQ(p.targets.size(), 32u) << "all 32 banks";
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(p.lanes[l].target, memory::shared_bank(p.lanes[l].address)) << "lane " << l;
  }
  for (std::uint32_t l = 0; l < 16; ++l) {
    EXPECT_EQ(p.lanes[l].target, p.lanes[l + 16].target) << "lanes " << l << " and " << l + 16;
    // Two words apart: lanes 0-15 in 16 different banks.
    if (l > 0) EXPECT_NE(p.lanes[l].target, p.lanes[l - 1].target) << "lane " << l;
    EXPECT_EQ(p.lanes[l].target % 2, p.lanes[0].target % 2) << "every other bank";
  }
  for (const memory::PictureTarget& bank : p.targets) {
    EXPECT_TRUE(bank.words == 0 || bank.words == 2) << "bank " << bank.id << ": " << bank.words;
  }
  EXPECT_EQ(p.conflict_degree, 2u);
  EXPECT_EQ(p.actual, 2u);
  EXPECT_EQ(p.ideal, 1u);
  EXPECT_NE(s.request->summary.find("2-way bank conflict"), std::string::npos)
      << s.request->summary;
  EXPECT_EQ(s.request->target_labels[3], "bank 3");
  EXPECT_NE(s.request->lanes[0].element.find("shared byte"), std::string::npos);
  // A tall window, where the results panel holds the table and the whole picture, for a person.
  ASSERT_TRUE(ui_->resize(1600, 1500).is_ok());
  frames(3);
  EXPECT_TRUE(
      ui_->save_png(
             (std::filesystem::path(::testing::TempDir()) / "threadlab-memory-banks.png").string())
          .is_ok());
}

// The frame the table first shows is the one a headless screenshot saves: its source column is
// as wide as its text there, not a character wide until ImGui has measured it.
TEST_F(MemoryTabTest, TheTableIsReadableInTheFirstFrameItShows) {
  open();
  app_->apply_lesson_action(kLessonThree);
  frames(2);
  app_->lesson_memory().wait(std::chrono::minutes(3));
  ASSERT_FALSE(memory().kernels.empty()) << memory().error;
  frames(1);
  // 19 characters of mono text; a collapsed column is about one.
  const float font = ImGui::GetIO().Fonts->Fonts[0]->FontSize;
  EXPECT_GE(widest_memory_source_column(), font * 6.0f) << "the source column is collapsed";
}

TEST_F(MemoryTabTest, NewSettingsAreRecordedAgainAndTheOldTableIsGreyedMeanwhile) {
  open();
  app_->apply_lesson_action(kLessonThree);
  recorded();
  const std::uint64_t first = memory().recordings_finished;
  ASSERT_EQ(memory().kernels.size(), 2u) << memory().error;
  app_->apply_lesson_action("threadlab:set?cols=128");
  frames(1);
  // The tab asked for the new settings at once; until they are there, the old table is stale.
  EXPECT_TRUE(memory().recording || memory().recordings_finished > first);
  if (memory().recording) EXPECT_TRUE(memory().stale);
  recorded();
  EXPECT_EQ(memory().recordings_finished, first + 1);
  EXPECT_FALSE(memory().stale);
  EXPECT_EQ(memory().values.at("cols"), "128");
  const MemoryTabKernel* row = kernel_named(memory(), "matrix_add_x_to_row");
  ASSERT_NE(row, nullptr);
  const auto load = row_of(*row, "c[i] = a[i] + b[i]", memory::AccessKind::kLoad);
  ASSERT_TRUE(load);
  app_->lesson_memory().select_kernel(static_cast<std::size_t>(row - memory().kernels.data()));
  app_->lesson_memory().select_row(*load);
  ASSERT_TRUE(memory().request.has_value());
  const std::string array = memory().request->lanes[0].element.substr(0, 1);
  EXPECT_EQ(memory().request->lanes[3].element, array + "[384]") << "row 3 of 128 columns";
}

TEST_F(MemoryTabTest, ALessonWithoutRecordingsSaysWhyAndRecordsNothing) {
  int calls = 0;
  LessonMemoryOptions options;
  options.record = [&calls](const memory::MemoryExperiment&,
                            const std::string&) -> Result<lab::LessonKernelMemory> {
    ++calls;
    return Error{ErrorKind::kIoError, "not expected"};
  };
  open(std::move(options));
  app_->apply_lesson_action("threadlab:set?lesson=thread-hierarchy&view=memory");
  frames(3);
  EXPECT_EQ(selected_results_tab(), "Memory");
  EXPECT_FALSE(memory().recording);
  EXPECT_TRUE(memory().kernels.empty());
  EXPECT_NE(memory().unavailable.find("Thread hierarchy does not record"), std::string::npos)
      << memory().unavailable;
  EXPECT_NE(memory().unavailable.find("3 (2D blocks)"), std::string::npos);
  EXPECT_EQ(calls, 0);
}

// A recording held back: the window keeps drawing, the tab says it is recording, Cancel stops it
// (and it does not start again by itself), Record starts it again, and a failure is shown as the
// reason.
TEST_F(MemoryTabTest, ARecordingRunsBehindTheFramesAndCanBeCancelled) {
  struct Gate {
    std::mutex mutex;
    std::condition_variable cv;
    bool open = false;
    int calls = 0;
  };
  auto gate = std::make_shared<Gate>();
  LessonMemoryOptions options;
  options.record = [gate](const memory::MemoryExperiment& e,
                          const std::string&) -> Result<lab::LessonKernelMemory> {
    std::unique_lock lock(gate->mutex);
    ++gate->calls;
    gate->cv.wait(lock, [&] { return gate->open; });
    return Error{ErrorKind::kIoError, "the fake compiler refused " + e.kernel};
  };
  open(std::move(options));
  app_->apply_lesson_action(kLessonThree);
  frames(5);
  ASSERT_TRUE(memory().recording) << "held by the fake: still recording after 5 frames";
  EXPECT_EQ(memory().kernels_total, 2u);
  EXPECT_EQ(memory().kernels_done, 0u);
  EXPECT_EQ(memory().recording_kernel, "matrix_add_x_to_col");

  app_->lesson_memory().cancel();
  frames(3);
  EXPECT_FALSE(memory().recording);
  EXPECT_TRUE(memory().cancelled);
  {
    std::lock_guard lock(gate->mutex);
    gate->open = true;
  }
  gate->cv.notify_all();
  frames(3);
  EXPECT_FALSE(memory().recording) << "a cancelled recording does not start again by itself";
  EXPECT_EQ(memory().recordings_finished, 0u) << "the cancelled result is never shown";

  app_->record_lesson_memory();
  EXPECT_TRUE(memory().recording);
  recorded();
  EXPECT_NE(memory().error.find("the fake compiler refused matrix_add_x_to_col"), std::string::npos)
      << memory().error;
  EXPECT_TRUE(memory().kernels.empty());
  frames(2);
  EXPECT_FALSE(memory().recording) << "a failure is a result: not retried every frame";
}

}  // namespace
}  // namespace tl::ui
