// The Kernel Lab tab on a headless UI: opened as a user (or a link) opens it, typed into through
// ImGuiIO as the GLFW backend feeds keys, checked with Ctrl+Enter. The check is a fake given to
// the controller (ControllerOptions::lab.check), so these tests need no GPU and no worker: they
// test the tab, not the engine (tests/lab does that).

#include <gtest/gtest.h>
#include <unistd.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include "action_check.hpp"
#include "app_controller.hpp"
#include "controller_test_support.hpp"
#include "core/color_scheme.hpp"
#include "core/compiled/compiled_listing.hpp"
#include "headless_ui.hpp"
#include "lab/exercise_registry.hpp"
#include "lab/lab_inspect.hpp"

namespace tl::ui {
namespace {

// GLFW's key code for Enter, as ImGui 1.86's GLFW backend stores it in io.KeysDown.
constexpr int kEnter = 257;

const ImGuiWindow* drawn_child(const std::string& name) {
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    const std::string full = window->Name;
    if (window->Active && full.find("/" + name + "_") != std::string::npos) return window;
  }
  return nullptr;
}

// The selected tab of the window's workspace bar (the one with a "Lesson" tab).
std::string selected_workspace_tab() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int i = 0; i < g.TabBars.GetMapSize(); ++i) {
    ImGuiTabBar* bar = g.TabBars.TryGetMapData(i);
    if (bar == nullptr) continue;
    bool workspace = false;
    std::string selected;
    for (const ImGuiTabItem& tab : bar->Tabs) {
      if (tab.NameOffset < 0) continue;
      const std::string name = bar->TabsNames.Buf.Data + tab.NameOffset;
      workspace = workspace || name == "Lesson";
      if (tab.ID == bar->SelectedTabId) selected = name;
    }
    if (workspace) return selected;
  }
  return {};
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What the fake check saw and what it answers. It can hold the check back, to look at the UI while
// a check runs.
struct FakeCheck {
  std::mutex mutex;
  std::condition_variable released_cv;
  bool hold = false;
  int calls = 0;
  std::string source;
  lab::LabOptions options;
  std::string exercise;
  lab::CheckVerdict answer;

  lab::CheckVerdict operator()(const lab::Exercise& e, const std::string& s,
                               const lab::LabOptions& o) {
    std::unique_lock lock(mutex);
    ++calls;
    source = s;
    options = o;
    exercise = e.id;
    released_cv.wait(lock, [&] { return !hold; });
    return answer;
  }
  void release() {
    {
      std::lock_guard lock(mutex);
      hold = false;
    }
    released_cv.notify_all();
  }
};

// A vector add over n = 40 whose elements 3 and 5 came out wrong (the rest right), as the engine
// reports it: one record per element, written once by thread i % 32 of block i / 32.
lab::CaseResult case_with_wrong_elements() {
  lab::CaseResult c;
  c.label = "n = 40";
  c.passed = false;
  c.message = "c[3] is 0, expected 7.5 (written by block (0,0,0) thread (3,0,0))";
  c.rows = 1;
  c.cols = 40;
  c.launch = {{2, 1, 1}, {32, 1, 1}, 0};
  for (std::uint32_t i = 0; i < 40; ++i) c.trace.push_back({i / 32, i % 32, 0, 1});
  c.wrong_elements = {3, 5};
  return c;
}

lab::CheckVerdict failed_verdict() {
  lab::CheckVerdict v;
  v.outcome = lab::Outcome::kFailed;
  v.reason = "n = 40: c[3] is 0, expected 7.5";
  v.device = "fake";
  lab::CaseResult small;
  small.label = "n = 1";
  small.passed = true;
  small.rows = 1;
  small.cols = 1;
  small.launch = {{1, 1, 1}, {32, 1, 1}, 0};
  small.trace = {{0, 0, 0, 1}};
  v.cases = {small, case_with_wrong_elements()};
  v.printed = "hello from thread 0\n";
  return v;
}

class LabTabTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One folder per test and process: CTest runs these tests at once, each in its own process.
    folder_ = std::filesystem::path(::testing::TempDir()) /
              ("threadlab_lab_tab_" +
               std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
               std::to_string(::getpid())) /
              "lab";
    std::filesystem::remove_all(folder_);
    auto ui = HeadlessUi::create(1600, 1000, 1.0f);
    ASSERT_TRUE(ui.is_ok()) << ui.message();
    ui_ = std::move(*ui);
    ImGui::GetIO().KeyMap[ImGuiKey_Enter] = kEnter;
    open_controller();
  }

  void open_controller() {
    ControllerOptions options =
        test_support::emulator_options(ui_->renderer(), "threadlab_lab_tab");
    options.lab.folder = folder_;
    options.lab.check = [fake = fake_](const lab::Exercise& e, const std::string& s,
                                       const lab::LabOptions& o) { return (*fake)(e, s, o); };
    options.lab.autosave = {0.0, 0.0};  // save at the next frame after a change
    auto controller = AppController::create(options);
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    app_ = std::move(*controller);
    test_support::wait_until_idle(*app_);
  }

  void frames(int count = 2) {
    for (int i = 0; i < count; ++i) ui_->draw_frame(*app_);
  }

  void open_lab() {
    ASSERT_TRUE(app_->show_view("lab").is_ok());
    frames(3);
    ASSERT_EQ(app_->state().view.workspace, Workspace::kLab);
  }

  // A click in the editor at (line, column) of the learner's source.
  void click_editor(int line, int column) {
    const CodeEditorState& editor = app_->lab().editor_state();
    const ImVec2 at =
        code_editor_screen_position(app_->lab().editor_model(), editor, {line, column});
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = {at.x + 1.0f, at.y + editor.line_height * 0.5f};
    io.MouseDown[0] = true;
    frames(1);
    io.MouseDown[0] = false;
    frames(1);
  }

  void type(const std::string& text) {
    for (char c : text) ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(c));
    frames(1);
  }

  void press_enter() {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[kEnter] = true;
    frames(1);
    io.KeysDown[kEnter] = false;
    frames(1);
  }

  void press_ctrl_enter() {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = true;
    io.KeysDown[kEnter] = true;
    frames(1);
    io.KeysDown[kEnter] = false;
    io.KeyCtrl = false;
    frames(1);
  }

  void finish_check() {
    app_->lab().wait_for_check(std::chrono::seconds(30));
    ASSERT_FALSE(app_->lab().checking());
    frames(2);
  }

  std::filesystem::path folder_;
  std::shared_ptr<FakeCheck> fake_ = std::make_shared<FakeCheck>();
  std::unique_ptr<HeadlessUi> ui_;
  std::unique_ptr<AppController> app_;
};

TEST_F(LabTabTest, OpensOnTheLessonsExercisesWithTheStarter) {
  const LabState& lab = app_->lab().state();
  ASSERT_EQ(app_->state().controls.lesson_id, "vector-add");
  EXPECT_EQ(lab.lesson_exercises, 2u) << "vector add and grid-stride belong to lesson 1";
  EXPECT_EQ(lab.current, "vector-add");
  EXPECT_EQ(app_->lab().source(), lab::find_exercise("vector-add")->starter);
  EXPECT_FALSE(lab.statement.blocks.empty()) << "the statement is parsed for the markdown view";
  EXPECT_EQ(lab.backend, "emulator") << "the app runs on the emulator here";
  // Every exercise is listed, each under its lesson's title: the reductions under lesson 6's.
  EXPECT_EQ(lab.exercises.size(), lab::registered_exercises().size());
  for (const LabExerciseEntry& entry : lab.exercises) {
    if (entry.lesson_id == "reductions") EXPECT_EQ(entry.lesson_title, "Reductions") << entry.id;
    if (entry.lesson_id == "vector-add") EXPECT_FALSE(entry.lesson_title.empty()) << entry.id;
  }

  frames();
  EXPECT_EQ(drawn_child("lab_editor"), nullptr) << "the lesson shows until the Lab is opened";
  open_lab();
  EXPECT_EQ(selected_workspace_tab(), "Kernel Lab (2)###lab");
  for (const char* child : {"lab_exercises", "lab_code"}) {
    EXPECT_NE(drawn_child(child), nullptr) << child;
  }
  // Nothing checked yet: the verdict column stays closed and the editor has its room.
  for (const char* child : {"lab_verdict", "lab_mapping"}) {
    EXPECT_EQ(drawn_child(child), nullptr) << child;
  }
  EXPECT_EQ(drawn_child("mapping"), nullptr) << "the lesson's panels make room";

  // Another lesson lists its own exercises and opens the first.
  app_->select_lesson("dense-layer");
  test_support::wait_until_idle(*app_);
  EXPECT_EQ(lab.current, "dense-layer");
  EXPECT_EQ(lab.lesson_exercises, 1u);
  frames();
  EXPECT_EQ(selected_workspace_tab(), "Kernel Lab (1)###lab") << "the Lab stays open";
}

TEST_F(LabTabTest, TypingAndCtrlEnterCheckTheSourceAndShowTheWrongElements) {
  fake_->answer = failed_verdict();
  open_lab();
  const std::string starter = app_->lab().source();
  click_editor(0, 0);
  type("// mine");
  press_enter();
  EXPECT_EQ(app_->lab().source(), "// mine\n" + starter);
  press_ctrl_enter();
  EXPECT_EQ(app_->lab().source(), "// mine\n" + starter) << "Ctrl+Enter checks, adds no line";
  finish_check();
  EXPECT_EQ(fake_->calls, 1);
  EXPECT_EQ(fake_->source, "// mine\n" + starter);
  EXPECT_EQ(fake_->exercise, "vector-add");
  EXPECT_EQ(fake_->options.backend, lab::LabBackend::kEmulator);

  const LabState& lab = app_->lab().state();
  ASSERT_TRUE(lab.verdict);
  EXPECT_EQ(lab.verdict->outcome, lab::Outcome::kFailed);
  // A failed check unlocks the hints first; the solution comes after the last of them.
  EXPECT_TRUE(lab.can_show_hint) << "a failed check unlocks the first hint";
  EXPECT_FALSE(lab.can_show_solution) << "the hints come before the solution";
  // The mapping view draws the first failing case, its two wrong elements marked.
  const LabMappingState& mapping = lab.mapping;
  ASSERT_TRUE(mapping.valid) << mapping.error;
  EXPECT_EQ(mapping.case_index, 1u);
  EXPECT_EQ(mapping.case_label, "n = 40");
  EXPECT_EQ(mapping.wrong, 2u);
  EXPECT_EQ(mapping.layout.elements, 40u);
  EXPECT_EQ(mapping.layout.idle_threads, 24u) << "2 blocks of 32 threads over 40 elements";
  auto pixels = app_->lab().read_mapping_pixels();
  ASSERT_TRUE(pixels.is_ok()) << pixels.message();
  const auto red = to_rgb8(kWrongElementColor);
  std::size_t red_pixels = 0;
  for (std::size_t i = 0; i + 3 < pixels->size(); i += 4) {
    if ((*pixels)[i] == red[0] && (*pixels)[i + 1] == red[1] && (*pixels)[i + 2] == red[2]) {
      ++red_pixels;
    }
  }
  EXPECT_GT(red_pixels, 20u) << "the wrong elements are outlined in the Lab's mapping view";

  // The whole tab with its verdict, left for a person to look at (as the other GUI tests leave
  // their screenshots).
  frames();
  const std::string png =
      (std::filesystem::path(::testing::TempDir()) / "threadlab-lab.png").string();
  EXPECT_TRUE(ui_->save_png(png).is_ok());

  // The passing case can be drawn instead: no marks there.
  app_->lab().show_case(0);
  EXPECT_EQ(lab.mapping.case_index, 0u);
  EXPECT_EQ(lab.mapping.wrong, 0u);
  frames();

  // Progress is on disk: a failed check, and the source that was checked.
  EXPECT_NE(read(folder_ / "progress.json").find("\"failed_checks\": 1"), std::string::npos);
  EXPECT_EQ(read(folder_ / "vector-add.cu"), "// mine\n" + starter);
}

// Pixels of the picture in `color` (RGBA, as read back).
std::size_t pixels_of(const std::vector<std::uint8_t>& pixels, const Rgb& color) {
  const auto rgb = to_rgb8(color);
  std::size_t count = 0;
  for (std::size_t i = 0; i + 3 < pixels.size(); i += 4) {
    if (pixels[i] == rgb[0] && pixels[i + 1] == rgb[1] && pixels[i + 2] == rgb[2]) ++count;
  }
  return count;
}

// A kernel without its guard over n = 40 in 2 blocks of 32: threads 40 to 63 read past the ends
// of a and b. The picture draws them hatched orange as out of range (it drew them as idle, which
// said "all fine" beside a verdict of "read a[40], past its end"); a spare thread that stayed
// inside is still idle grey.
TEST_F(LabTabTest, ThreadsThatWentPastTheEndAreDrawnOutOfRangeNotIdle) {
  lab::CheckVerdict v = failed_verdict();
  lab::CaseResult& strayed = v.cases[1];
  strayed.message = "block (1,0,0) thread (8,0,0) read a[40], past its end, size 40";
  strayed.wrong_elements.clear();
  for (std::uint64_t t = 40; t < 64; ++t) strayed.threads_outside.push_back(t);
  strayed.line = 3;  // the access's line in kernel.cu, as the prelude's views record it
  fake_->answer = v;
  open_lab();
  ASSERT_TRUE(app_->lab().check());
  finish_check();
  const LabMappingState& mapping = app_->lab().state().mapping;
  ASSERT_TRUE(mapping.valid) << mapping.error;
  EXPECT_EQ(mapping.case_index, 1u);
  EXPECT_EQ(mapping.threads_outside, 24u);
  EXPECT_EQ(mapping.layout.idle_threads, 24u);
  // The runtime error is marked on its line in the editor, as a compile error is.
  const LabState& lab = app_->lab().state();
  ASSERT_EQ(lab.diagnostics.size(), 1u);
  EXPECT_EQ(lab.diagnostics[0].line, 3);
  EXPECT_NE(lab.diagnostics[0].message.find("past its end"), std::string::npos);
  auto pixels = app_->lab().read_mapping_pixels();
  ASSERT_TRUE(pixels.is_ok()) << pixels.message();
  EXPECT_GT(
      pixels_of(*pixels, kOutOfRangeThreadColor) + pixels_of(*pixels, kOutOfRangeThreadStripeColor),
      100u)
      << "the 24 threads past the data are drawn out of range";
  EXPECT_EQ(pixels_of(*pixels, kIdleThreadColor) + pixels_of(*pixels, kIdleThreadStripeColor), 0u)
      << "none of them is drawn idle";
  frames();
  EXPECT_TRUE(
      ui_->save_png((std::filesystem::path(::testing::TempDir()) / "threadlab-lab-out-of-range.png")
                        .string())
          .is_ok());

  // Half of them strayed: the other half stay idle grey.
  strayed.threads_outside.resize(12);
  fake_->answer = v;
  ASSERT_TRUE(app_->lab().check());
  finish_check();
  ASSERT_TRUE(mapping.valid) << mapping.error;
  EXPECT_EQ(mapping.threads_outside, 12u);
  pixels = app_->lab().read_mapping_pixels();
  ASSERT_TRUE(pixels.is_ok()) << pixels.message();
  EXPECT_GT(
      pixels_of(*pixels, kOutOfRangeThreadColor) + pixels_of(*pixels, kOutOfRangeThreadStripeColor),
      50u);
  EXPECT_GT(pixels_of(*pixels, kIdleThreadColor) + pixels_of(*pixels, kIdleThreadStripeColor), 50u);
}

TEST_F(LabTabTest, CompileErrorsAreMarkedOnTheirLinesAndListed) {
  fake_->answer.outcome = lab::Outcome::kCompileError;
  fake_->answer.reason = "does not compile";
  fake_->answer.compiler_log =
      "kernel.cu(3): error: identifier \"idx\" is undefined\n"
      "      c[idx] = a[idx] + b[idx];\n"
      "        ^\n\n"
      "1 error detected in the compilation of \"kernel.cu\".\n";
  open_lab();
  ASSERT_TRUE(app_->lab().check());
  finish_check();
  const LabState& lab = app_->lab().state();
  ASSERT_EQ(lab.diagnostics.size(), 1u);
  EXPECT_EQ(lab.diagnostics[0].line, 3);
  EXPECT_EQ(lab.diagnostics[0].message, "identifier \"idx\" is undefined");
  EXPECT_FALSE(lab.mapping.valid) << "nothing ran, nothing to draw";
  EXPECT_NE(drawn_child("lab_diagnostics"), nullptr) << "the messages are listed under the editor";
  // The editor marks line 3: its message shows when the mouse is over that line.
  const CodeEditorState& editor = app_->lab().editor_state();
  const ImVec2 at = code_editor_screen_position(app_->lab().editor_model(), editor, {2, 4});
  ImGui::GetIO().MousePos = {at.x + 1.0f, at.y + editor.line_height * 0.5f};
  frames(3);
  EXPECT_EQ(editor.hovered_diagnostic_line, 3);
}

// A compile error's mark follows its line as the learner types, and goes once that line is
// edited: it stayed on the line after the text changed (issue 36 item 10).
TEST_F(LabTabTest, CompileMarksFollowTheirLineAndGoWhenItIsEdited) {
  fake_->answer.outcome = lab::Outcome::kCompileError;
  fake_->answer.reason = "does not compile";
  fake_->answer.compiler_log = "kernel.cu(3): error: identifier \"idx\" is undefined\n";
  open_lab();
  ASSERT_TRUE(app_->lab().check());
  finish_check();
  const LabState& lab = app_->lab().state();
  ASSERT_EQ(lab.diagnostics.size(), 1u);
  EXPECT_EQ(lab.diagnostics[0].line, 3);
  // A line added at the top: the mark moves down with its line.
  click_editor(0, 0);
  type("// mine");
  press_enter();
  frames(2);
  ASSERT_EQ(lab.diagnostics.size(), 1u);
  EXPECT_EQ(lab.diagnostics[0].line, 4);
  // Its own line edited: the message spoke of text that is gone, and the mark goes.
  click_editor(3, 0);
  type("x");
  frames(2);
  EXPECT_TRUE(lab.diagnostics.empty());
  EXPECT_EQ(lab.diagnostics_gone, 1u) << "the list says its message's line changed";
}

TEST_F(LabTabTest, OneCheckAtATimeAndProgressWhileItRuns) {
  fake_->answer = failed_verdict();
  fake_->hold = true;
  open_lab();
  ASSERT_TRUE(app_->lab().check());
  frames();
  EXPECT_TRUE(app_->lab().state().check.running);
  EXPECT_EQ(app_->lab().state().check.exercise_id, "vector-add");
  EXPECT_FALSE(app_->lab().check()) << "a second press while checking is ignored";
  press_ctrl_enter();
  fake_->release();
  finish_check();
  EXPECT_EQ(fake_->calls, 1);
  EXPECT_FALSE(app_->lab().state().check.running);
  EXPECT_EQ(app_->lab().state().checks_finished, 1u);
}

// The editor gets the width: the verdict column is closed until a check runs, then a splitter
// shares the room, and dragging it moves it. The editor indents by the starter's 2 spaces and
// pairs brackets.
TEST_F(LabTabTest, TheEditorHasTheRoomUntilAVerdictThenASplitterSharesIt) {
  fake_->answer = failed_verdict();
  fake_->hold = true;
  open_lab();
  const ImGuiWindow* code = drawn_child("lab_code");
  const ImGuiWindow* exercises = drawn_child("lab_exercises");
  ASSERT_TRUE(code && exercises);
  const float workspace = ImGui::GetMainViewport()->WorkSize.x;
  const float alone = code->Size.x;
  EXPECT_GT(alone, workspace * 0.65f) << "the editor without a verdict column";
  EXPECT_EQ(drawn_child("lab_verdict"), nullptr);
  // About 100 monospace columns at 1600 wide (the review counted 70).
  const float columns = alone / ImGui::CalcTextSize("x").x;
  EXPECT_GE(columns, 90.0f);

  ASSERT_TRUE(app_->lab().check());
  frames();
  ASSERT_NE(drawn_child("lab_verdict"), nullptr) << "a running check opens the verdict column";
  fake_->release();
  finish_check();
  code = drawn_child("lab_code");
  const ImGuiWindow* verdict = drawn_child("lab_verdict");
  ASSERT_TRUE(code && verdict);
  const float shared = code->Size.x;
  EXPECT_LT(shared, alone);
  EXPECT_GT(shared, verdict->Size.x) << "the editor keeps the larger share";

  // Dragging the splitter (between the two columns) 120 pixels to the right.
  ImGuiIO& io = ImGui::GetIO();
  const float x = (code->Pos.x + code->Size.x + verdict->Pos.x) * 0.5f;
  const float y = code->Pos.y + code->Size.y * 0.5f;
  io.MousePos = {x, y};
  frames(1);
  io.MouseDown[0] = true;
  frames(1);
  io.MousePos = {x + 60, y};
  frames(1);
  io.MousePos = {x + 120, y};
  frames(1);
  io.MouseDown[0] = false;
  frames(2);
  code = drawn_child("lab_code");
  ASSERT_TRUE(code);
  EXPECT_NEAR(code->Size.x, shared + 120, 2.0f) << "the splitter did not follow the mouse";
  EXPECT_GT(app_->lab().state().code_share, 0.0f);

  // The starter indents by 2: so do Tab, Enter after '{' and '}'; brackets come in pairs.
  const editor::TextModel& model = app_->lab().editor_model();
  EXPECT_EQ(model.tab_size(), 2);
  EXPECT_TRUE(model.auto_close());
}

TEST_F(LabTabTest, ResetIsUndoableAndTheSolutionComesAfterAFailure) {
  open_lab();
  LabController& lab = app_->lab();
  const lab::Exercise& exercise = *lab::find_exercise("vector-add");
  click_editor(0, 0);
  type("int x;");
  ASSERT_NE(lab.source(), exercise.starter);
  lab.reset_to_starter();
  EXPECT_EQ(lab.source(), exercise.starter);
  ASSERT_TRUE(lab.editor_model().undo());
  EXPECT_EQ(lab.source(), "int x;" + exercise.starter) << "one Ctrl+Z brings the work back";

  lab.show_solution(true);
  EXPECT_FALSE(lab.state().showing_solution) << "no solution before a failed check";
  lab.show_next_hint();
  EXPECT_TRUE(lab.state().hints_shown.empty()) << "no hint before a failed check either";
  fake_->answer = failed_verdict();
  ASSERT_TRUE(lab.check());
  finish_check();
  // The ladder: every hint, one at a time, before the solution.
  ASSERT_GE(exercise.hints.size(), 2u) << "vector add has its hints.md";
  for (std::size_t i = 0; i < exercise.hints.size(); ++i) {
    lab.show_solution(true);
    EXPECT_FALSE(lab.state().showing_solution) << "hint " << i + 1 << " comes first";
    ASSERT_TRUE(lab.state().can_show_hint);
    lab.show_next_hint();
    EXPECT_EQ(lab.state().hints_shown.size(), i + 1);
    frames();  // drawn under the statement
  }
  EXPECT_FALSE(lab.state().can_show_hint);
  EXPECT_TRUE(lab.state().can_show_solution);
  lab.show_solution(true);
  ASSERT_TRUE(lab.state().showing_solution);
  EXPECT_TRUE(lab.editor_model().read_only());
  EXPECT_EQ(lab.editor_model().text(), exercise.solution);
  frames();
  EXPECT_FALSE(lab.check()) << "the solution is not the learner's to submit";
  // Compared with the learner's code, line by line, when asked; their code is left as it is.
  lab.show_diff(true);
  ASSERT_TRUE(lab.state().showing_diff);
  frames();
  EXPECT_NE(drawn_child("lab_diff"), nullptr);
  bool mine = false;
  bool theirs = false;
  for (const editor::DiffLine& line : lab.state().diff) {
    mine = mine || line.kind == editor::DiffKind::kOnlyMine;
    theirs = theirs || line.kind == editor::DiffKind::kOnlySolution;
  }
  EXPECT_TRUE(mine && theirs) << "the starter and the solution differ on both sides";
  EXPECT_EQ(lab.source(), "int x;" + exercise.starter);
  lab.show_solution(false);
  EXPECT_FALSE(lab.state().showing_diff);
  EXPECT_EQ(lab.editor_model().text(), "int x;" + exercise.starter);
}

TEST_F(LabTabTest, TheBlockControlReachesTheCheck) {
  fake_->answer = failed_verdict();
  open_lab();
  LabController& lab = app_->lab();
  ASSERT_FALSE(lab.state().block_is_fixed);
  EXPECT_EQ(lab.state().block_text, "256");
  lab.set_block("2000");
  EXPECT_FALSE(lab.state().block_problem.empty());
  EXPECT_FALSE(lab.check()) << "not with a block CUDA would refuse";
  lab.set_block("128");
  EXPECT_TRUE(lab.state().block_problem.empty());
  ASSERT_TRUE(lab.check());
  finish_check();
  ASSERT_TRUE(fake_->options.block.has_value());
  EXPECT_EQ(*fake_->options.block, (Dim3{128, 1, 1}));
}

// Run (Ctrl+Shift+Enter, or a link's `run`) is the example case with the learner's grid: the
// engine gets run_only and the grid, and a failed Run is not a try (no solution, no progress).
TEST_F(LabTabTest, RunTakesTheGridAndIsNotRecordedAsATry) {
  fake_->answer = failed_verdict();
  fake_->answer.run_only = true;
  open_lab();
  LabController& lab = app_->lab();
  EXPECT_TRUE(lab.state().grid_text.empty()) << "each case sizes its own grid by default";
  lab.set_grid("0");
  EXPECT_FALSE(lab.state().grid_problem.empty());
  EXPECT_FALSE(lab.run()) << "not with a grid CUDA would refuse";
  lab.set_grid("2");
  EXPECT_TRUE(lab.state().grid_problem.empty());
  ImGuiIO& io = ImGui::GetIO();
  io.KeyShift = true;
  press_ctrl_enter();
  io.KeyShift = false;
  ASSERT_TRUE(lab.checking() || fake_->calls == 1) << "Ctrl+Shift+Enter runs";
  finish_check();
  EXPECT_TRUE(fake_->options.run_only);
  ASSERT_TRUE(fake_->options.grid.has_value());
  EXPECT_EQ(*fake_->options.grid, (Dim3{2, 1, 1}));
  ASSERT_TRUE(lab.state().verdict);
  EXPECT_TRUE(lab.state().verdict->run_only);
  EXPECT_FALSE(lab.state().can_show_solution) << "a Run is not a try at the hidden checks";
  EXPECT_EQ(lab.state().mapping.wrong, 2u) << "its wrong elements are outlined all the same";

  // Back to automatic grids: empty text; then a Check is recorded.
  lab.set_grid("");
  ASSERT_TRUE(lab.check());
  finish_check();
  EXPECT_FALSE(fake_->options.run_only);
  EXPECT_FALSE(fake_->options.grid.has_value());

  // A link runs too.
  app_->apply_lesson_action("threadlab:set?exercise=grid-stride&run");
  test_support::wait_until_idle(*app_);
  EXPECT_EQ(fake_->exercise, "grid-stride");
  EXPECT_TRUE(fake_->options.run_only);
}

// A link (a lesson's text, a demo step, `threadlab gui --action`) opens an exercise and checks it;
// the scripted runs' wait for idle includes the check, so their screenshots show its verdict.
TEST_F(LabTabTest, ALinkOpensAnExerciseAndChecksIt) {
  fake_->answer = failed_verdict();
  app_->apply_lesson_action("threadlab:set?exercise=grid-stride&check");
  EXPECT_EQ(app_->state().view.workspace, Workspace::kLab);
  EXPECT_EQ(app_->lab().state().current, "grid-stride");
  test_support::wait_until_idle(*app_);
  EXPECT_FALSE(app_->lab().checking());
  EXPECT_EQ(fake_->exercise, "grid-stride");
  ASSERT_TRUE(app_->lab().state().verdict);
  frames();
  EXPECT_EQ(selected_workspace_tab(), "Kernel Lab (2)###lab");
  const std::size_t before = app_->state().messages.size();
  app_->apply_lesson_action("threadlab:set?exercise=no-such-thing");
  ASSERT_GT(app_->state().messages.size(), before);
  EXPECT_EQ(app_->state().messages.back().severity, Severity::kWarning);
}

// A teacher shows a common mistake: a known-wrong submission in the editor (undoable), checked.
TEST_F(LabTabTest, ALinkLoadsAKnownWrongSubmission) {
  fake_->answer = failed_verdict();
  const std::string before = app_->lab().source();
  app_->apply_lesson_action("threadlab:set?exercise=vector-add&submission=missing_guard&check");
  test_support::wait_until_idle(*app_);
  const lab::Exercise& exercise = *lab::find_exercise("vector-add");
  const lab::KnownWrongSubmission* wrong = find_known_wrong(exercise, "missing_guard");
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(app_->lab().source(), known_wrong_source(*wrong));
  EXPECT_EQ(fake_->source, known_wrong_source(*wrong));
  EXPECT_EQ(app_->lab().source().find("// expect:"), std::string::npos)
      << "the tests' marker line is not shown to the class";
  EXPECT_NE(app_->lab().source().find("__global__"), std::string::npos);
  ASSERT_TRUE(app_->lab().editor_model().undo());
  EXPECT_EQ(app_->lab().source(), before);
  EXPECT_FALSE(app_->lab().load_known_wrong("no_such_file").is_ok());
}

// The Lab's demo script (the README's Lab pictures) is valid: every step's exercise and submission
// exist.
TEST(LabDemoScript, IsValid) {
  auto script =
      classroom::load_demo_script(std::string(THREADLAB_SOURCE_DIR) + "/docs/demos/lab.toml");
  ASSERT_TRUE(script.is_ok()) << script.message();
  EXPECT_TRUE(check_demo_script(*script).is_ok()) << check_demo_script(*script).message();
  classroom::DemoScript wrong = *script;
  wrong.steps[0].action.submission = "no_such_file";
  EXPECT_FALSE(check_demo_script(wrong).is_ok());
}

TEST_F(LabTabTest, ProgressAndSourcesSurviveARestart) {
  lab::CheckVerdict passed;
  passed.outcome = lab::Outcome::kPassed;
  passed.reason = "passed 5 of 5 checks";
  passed.kernel_ms = 0.25;
  passed.solution_ms = 0.2;
  passed.library_ms = 0.1;  // drawn beside the reference (the matrix products' cuBLAS)
  passed.library = "cublas-sgemm";
  fake_->answer = passed;
  open_lab();
  click_editor(0, 0);
  type("// kept");
  press_enter();
  frames();  // the autosave (due at once in this test) writes the source
  const std::string source = app_->lab().source();
  EXPECT_EQ(read(folder_ / "vector-add.cu"), source);
  ASSERT_TRUE(app_->lab().check());
  finish_check();
  app_->lab().select_exercise("grid-stride");
  frames();

  app_.reset();
  open_controller();
  const LabState& lab = app_->lab().state();
  app_->lab().select_exercise("vector-add");
  EXPECT_EQ(app_->lab().source(), source) << "the last source is back";
  const auto entry = std::find_if(lab.exercises.begin(), lab.exercises.end(),
                                  [](const auto& e) { return e.id == "vector-add"; });
  ASSERT_NE(entry, lab.exercises.end());
  EXPECT_TRUE(entry->passed);
  EXPECT_DOUBLE_EQ(entry->best_ms.value_or(0), 0.25);
  app_->lab().select_exercise("grid-stride");
  EXPECT_EQ(app_->lab().source(), lab::find_exercise("grid-stride")->starter)
      << "an exercise never edited starts from its starter";
}

// A passing Check asks for what the compiler made of the kernel too; the Compiled panel gives its
// registers, spills and occupancy in one line and the warnings as the verdict had them. A Run does
// not compile it again, and a failed check says when it will.
TEST_F(LabTabTest, APassingCheckShowsWhatTheCompilerMadeWithItsWarnings) {
  lab::CheckVerdict passed;
  passed.outcome = lab::Outcome::kPassed;
  passed.reason = "passed 5 of 5 hidden checks";
  passed.device = "fake";
  lab::CompiledFeedback compiled;
  compiled.arch = "sm_90";
  compiled.registers = 32;
  compiled.spill_store_bytes = 440;
  compiled.spill_load_bytes = 536;
  compiled.spill_lines = {10, 13};
  compiled.warnings = {
      "Registers spill to local memory: ... Lines 10 and 13 of kernel.cu hold "
      "the spill instructions."};
  passed.compiled = compiled;
  fake_->answer = passed;
  open_lab();
  LabController& lab = app_->lab();
  press_ctrl_enter();
  finish_check();
  EXPECT_TRUE(fake_->options.inspect_compiled) << "a Check asks what the compiler made";
  const LabCompiledState& shown = lab.state().compiled;
  EXPECT_TRUE(shown.unavailable.empty()) << shown.unavailable;
  EXPECT_EQ(shown.summary, lab::compiled_summary(compiled));
  EXPECT_NE(shown.summary.find("440 B spilled"), std::string::npos) << shown.summary;
  EXPECT_EQ(shown.warnings, compiled.warnings);
  EXPECT_EQ(shown.spill_lines, (std::vector<int>{10, 13}));
  frames();  // the panel draws them (ImGui stops on an unbalanced push or pop)
  EXPECT_FALSE(shown.has_listing) << "this verdict came without the listing";

  // With the listing NVRTC and the disassembler made (here by hand, as the worker sends them):
  // the learner's source beside its SASS, opened on the first spilling line, and its PTX.
  auto listing = std::make_shared<lab::LearnerListing>();
  listing->symbol = "_Z10vector_addPKfS0_Pfi";
  listing->source =
      "__global__ void vector_add(const float* a, const float* b, float* c, int n) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) c[i] = a[i] + b[i];\n"
      "}\n";
  listing->sass_text = R"(	.section	.text._Z10vector_addPKfS0_Pfi,"ax",@progbits
_Z10vector_addPKfS0_Pfi:
.text._Z10vector_addPKfS0_Pfi:
	//## File "kernel.cu", line 2
        /*0000*/                   S2R R0, SR_CTAID.X ;
	//## File "threadlab_lab.cuh", line 40
        /*0010*/                   LDC R1, c[0x0][0x28] ;
	//## File "kernel.cu", line 3
        /*0020*/                   LDG.E R2, desc[UR4][R2.64] ;
        /*0030*/                   STL [R1], R2 ;
        /*0040*/                   LDG.E R4, desc[UR4][R4.64] ;
        /*0050*/                   STG.E desc[UR4][R6.64], R9 ;
        /*0060*/                   EXIT ;
)";
  listing->sass = compiled::parse_sass(listing->sass_text);
  listing->ptx_text = R"(.version 9.0
.target sm_90
.address_size 64
.file	1 "kernel.cu"
.visible .entry _Z10vector_addPKfS0_Pfi(
	.param .u64 _Z10vector_addPKfS0_Pfi_param_0
)
{
	.loc	1 3 0
	ld.global.f32 	%f1, [%rd1];
	ret;
}
)";
  listing->ptx = compiled::parse_ptx(listing->ptx_text);
  lab::CheckVerdict with_listing = passed;
  with_listing.compiled->spill_lines = {3};
  with_listing.compiled->listing = listing;
  fake_->answer = with_listing;
  ASSERT_TRUE(lab.check());
  finish_check();
  EXPECT_TRUE(lab.state().compiled.has_listing);
  const CompiledViewState& view = lab.compiled_view().state();
  ASSERT_EQ(view.source.size(), 4u) << "the learner's own lines";
  EXPECT_EQ(view.source[2].text, "  if (i < n) c[i] = a[i] + b[i];");
  // Two loads, the spill, the store and the EXIT after them; the prelude's LDC is not line 3's.
  EXPECT_EQ(view.source[2].instructions, 5u);
  EXPECT_EQ(view.selected_line, 3) << "opened on the spilling line";
  std::size_t lit = 0;
  for (const CompiledSassRow& row : view.sass) lit += row.lit;
  EXPECT_EQ(lit, 5u);
  EXPECT_EQ(view.sass[3].kind, compiled::InstructionKind::kLocalStore);
  frames();
  lab.compiled_view().show_listing(CompiledListingShown::kPtx);
  ASSERT_FALSE(view.ptx.empty()) << view.ptx_unavailable;
  bool ptx_lit = false;
  for (const CompiledPtxRow& row : view.ptx) {
    ptx_lit = ptx_lit || (row.lit && row.text.find("ld.global") != std::string::npos);
  }
  EXPECT_TRUE(ptx_lit) << "line 3's PTX lights too";
  frames();
  lab.compiled_view().select_line(2);
  EXPECT_EQ(view.selected_line, 2);
  frames();

  ASSERT_TRUE(lab.run());
  finish_check();
  EXPECT_FALSE(fake_->options.inspect_compiled) << "a Run stays quick";

  fake_->answer = failed_verdict();
  ASSERT_TRUE(lab.check());
  finish_check();
  EXPECT_TRUE(lab.state().compiled.summary.empty());
  EXPECT_EQ(lab.state().compiled.unavailable, "Shown once the kernel passes its checks");

  lab::CheckVerdict no_nvrtc = passed;
  no_nvrtc.compiled = lab::CompiledFeedback{};
  no_nvrtc.compiled->unavailable = "NVRTC (libnvrtc.so) is not installed";
  fake_->answer = no_nvrtc;
  ASSERT_TRUE(lab.check());
  finish_check();
  EXPECT_EQ(lab.state().compiled.unavailable,
            "No word from the compiler: NVRTC (libnvrtc.so) is not installed");
  frames();
}

// Where a course page would: "3 of 15 passed" over every exercise, and the next session opens the
// exercise the learner was on, with its last verdict in words and the hints they had seen.
TEST_F(LabTabTest, TheNextSessionReopensTheExerciseWithItsLastVerdictAndCountsThePassed) {
  const LabState* lab = &app_->lab().state();
  EXPECT_EQ(lab->passed_total, 0u);
  lab::CheckVerdict passed;
  passed.outcome = lab::Outcome::kPassed;
  passed.reason = "passed 5 of 5 hidden checks";
  fake_->answer = passed;
  open_lab();
  ASSERT_TRUE(app_->lab().check());
  finish_check();
  EXPECT_EQ(lab->passed_total, 1u);
  EXPECT_EQ(lab->passed_in_lesson, 1u);

  // Another lesson's exercise, picked by the learner, fails; one hint is shown.
  app_->lab().select_exercise("transpose");
  fake_->answer = failed_verdict();
  ASSERT_TRUE(app_->lab().check());
  finish_check();
  app_->lab().show_next_hint();
  ASSERT_EQ(lab->hints_shown.size(), 1u);
  frames();

  app_.reset();
  open_controller();
  lab = &app_->lab().state();
  EXPECT_EQ(lab->current, "transpose") << "the exercise the learner was on";
  EXPECT_EQ(lab->passed_total, 1u);
  EXPECT_EQ(lab->exercises.size(), lab::registered_exercises().size());
  EXPECT_FALSE(lab->verdict) << "no check in this session yet";
  ASSERT_TRUE(lab->earlier_verdict.has_value());
  EXPECT_EQ(lab->earlier_verdict->outcome, "failed");
  EXPECT_EQ(lab->earlier_verdict->reason, failed_verdict().reason);
  EXPECT_EQ(lab->hints_shown.size(), 1u) << "the hints seen stay seen";
  open_lab();
  EXPECT_NE(drawn_child("lab_verdict"), nullptr) << "the verdict column opens with it";
}

// Save as… writes the learner's kernel where they say, atomically, and never replaces a file
// without a second yes; Open… loads one as a single edit that Ctrl+Z undoes.
TEST_F(LabTabTest, SaveAsNeverReplacesWithoutAskingAndOpenIsUndoable) {
  open_lab();
  LabController& lab = app_->lab();
  const std::filesystem::path dir = folder_.parent_path() / "elsewhere";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "mine.cu";
  // A saved file ends with a newline, as a text file does.
  const auto as_saved = [](std::string text) {
    if (text.empty() || text.back() != '\n') text.push_back('\n');
    return text;
  };
  click_editor(0, 0);
  type("// first");
  const std::string first = as_saved(lab.source());
  auto saved = lab.save_source_as(file, /*replace=*/false);
  ASSERT_TRUE(saved.is_ok()) << saved.message();
  EXPECT_TRUE(*saved);
  EXPECT_EQ(read(file), first);

  type(" and more");
  saved = lab.save_source_as(file, /*replace=*/false);
  ASSERT_TRUE(saved.is_ok()) << saved.message();
  EXPECT_FALSE(*saved) << "a file there already is not replaced without asking";
  EXPECT_EQ(read(file), first);
  saved = lab.save_source_as(file, /*replace=*/true);
  ASSERT_TRUE(saved.is_ok()) << saved.message();
  EXPECT_EQ(read(file), as_saved(lab.source()));
  EXPECT_FALSE(lab.save_source_as(dir, true).is_ok()) << "a folder is not a file to replace";

  const std::filesystem::path other = dir / "other.cu";
  { std::ofstream(other) << "__global__ void other() {}\r\n"; }
  const std::string before = lab.source();
  ASSERT_TRUE(lab.open_source(other).is_ok());
  EXPECT_EQ(lab.source(), "__global__ void other() {}\n") << "CRLF read as LF";
  ASSERT_TRUE(lab.editor_model().undo());
  EXPECT_EQ(lab.source(), before) << "one Ctrl+Z brings the code Open replaced back";
  EXPECT_FALSE(lab.open_source(dir / "missing.cu").is_ok());
  frames();
}

// The Open… / Save as… dialog as the window shows it: a popup with the suggested path; a save
// over a file that is there asks "Replace it?" first and writes nothing until the second yes; Open
// loads the file and closes the popup; Cancel closes it with nothing written.
TEST_F(LabTabTest, TheFileDialogAsksBeforeReplacingAndClosesWhenDone) {
  open_lab();
  LabController& lab = app_->lab();
  const auto popup_drawn = [] {
    for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
      if (window->Active && std::string(window->Name).rfind("##Popup_", 0) == 0) return true;
    }
    return false;
  };
  frames();
  EXPECT_FALSE(popup_drawn());
  lab.begin_file_dialog(/*saving=*/true);
  frames();
  EXPECT_TRUE(popup_drawn()) << "Save as… opens its popup";
  EXPECT_NE(lab.state().file_dialog.path.find("threadlab-vector-add.cu"), std::string::npos)
      << lab.state().file_dialog.path;

  const std::filesystem::path dir = folder_.parent_path() / "dialog";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "kept.cu";
  { std::ofstream(file) << "// someone's work\n"; }
  lab.set_file_dialog_path(file.string());
  lab.submit_file_dialog();
  frames();
  EXPECT_TRUE(lab.state().file_dialog.confirm_replace) << "asks first";
  EXPECT_TRUE(popup_drawn()) << "the question is in the popup";
  EXPECT_EQ(read(file), "// someone's work\n") << "nothing written before the second yes";
  // Another name withdraws the yes to replacing the first.
  lab.set_file_dialog_path((dir / "other.cu").string());
  EXPECT_FALSE(lab.state().file_dialog.confirm_replace);
  lab.set_file_dialog_path(file.string());
  lab.submit_file_dialog();
  ASSERT_TRUE(lab.state().file_dialog.confirm_replace);
  lab.submit_file_dialog();
  frames();
  EXPECT_FALSE(lab.state().file_dialog.open);
  EXPECT_FALSE(popup_drawn()) << "closed once saved";
  EXPECT_EQ(read(file), lab.source().back() == '\n' ? lab.source() : lab.source() + "\n");

  // Open: a missing file is said in the popup, which stays; a file there is loaded and closes it.
  lab.begin_file_dialog(/*saving=*/false);
  lab.set_file_dialog_path((dir / "missing.cu").string());
  lab.submit_file_dialog();
  frames();
  EXPECT_TRUE(popup_drawn());
  EXPECT_FALSE(lab.state().file_dialog.problem.empty());
  { std::ofstream(dir / "theirs.cu") << "__global__ void theirs() {}\n"; }
  lab.set_file_dialog_path((dir / "theirs.cu").string());
  EXPECT_TRUE(lab.state().file_dialog.problem.empty()) << "a new path clears the old problem";
  lab.submit_file_dialog();
  frames();
  EXPECT_FALSE(popup_drawn());
  EXPECT_EQ(lab.source(), "__global__ void theirs() {}\n");

  // Cancel: nothing written.
  lab.begin_file_dialog(/*saving=*/true);
  lab.set_file_dialog_path((dir / "never.cu").string());
  frames();
  lab.close_file_dialog();
  frames();
  EXPECT_FALSE(popup_drawn());
  EXPECT_FALSE(std::filesystem::exists(dir / "never.cu"));
}

// A passing Check asks for the memory recording; the Memory panel lists each access line with
// its badge, worked out by the controller from the verdict (the panel only draws), quoting the
// line of the source that was checked. A Run does not record, and a failed check says when it will.
TEST_F(LabTabTest, APassingCheckShowsTheMemoryPanelWithABadgePerLine) {
  lab::CheckVerdict passed;
  passed.outcome = lab::Outcome::kPassed;
  passed.reason = "passed 5 of 5 hidden checks";
  passed.device = "fake";
  lab::MemoryFindings findings;
  findings.case_label = "n = 1000";
  findings.launch = {{4, 1, 1}, {256, 1, 1}, 0};
  memory::LineTotals strided;
  strided.line = 2;
  strided.requests = 32;
  strided.sectors = 32 * 32;
  strided.ideal_sectors = 32 * 4;
  memory::LineTotals coalesced = strided;
  coalesced.line = 3;
  coalesced.kind = memory::AccessKind::kStore;
  coalesced.sectors = 32 * 4;
  memory::LineTotals shared;
  shared.line = 3;
  shared.space = memory::MemorySpace::kShared;
  shared.requests = 32;
  shared.wavefronts = 32 * 8;
  shared.ideal_wavefronts = 32;
  shared.worst_conflict_degree = 8;
  findings.reply.table.rows = {strided, coalesced, shared};
  findings.reply.table.recorded_blocks = 4;
  findings.reply.table.grid_blocks = 4;
  findings.reply.row_argument = {0, 2, lab::MemoryReply::kNoArray};  // a, c
  const lab::Exercise& exercise = *lab::find_exercise("vector-add");
  findings.notes = lab::memory_notes(exercise, findings.reply);
  passed.memory = findings;
  fake_->answer = passed;
  open_lab();
  LabController& lab = app_->lab();
  const std::string checked = lab.source();
  press_ctrl_enter();
  finish_check();
  EXPECT_TRUE(fake_->options.record_memory) << "a Check records the memory accesses";
  const LabMemoryState& memory = lab.state().memory;
  EXPECT_TRUE(memory.unavailable.empty()) << memory.unavailable;
  EXPECT_EQ(memory.scope, "recorded every warp of all 4 blocks of n = 1000 <<<4, 256>>>: exact");
  ASSERT_EQ(memory.lines.size(), 3u);
  EXPECT_EQ(memory.lines[0].badge, "32 sectors / request — 8× the bytes needed");
  EXPECT_EQ(memory.lines[0].access, "load of `a`");
  EXPECT_FALSE(memory.lines[0].ideal);
  EXPECT_EQ(memory.lines[0].source, lab::source_line(checked, 2));
  EXPECT_EQ(memory.lines[1].badge, "4 sectors / request — ideal");
  EXPECT_EQ(memory.lines[1].access, "store to `c`");
  EXPECT_TRUE(memory.lines[1].ideal);
  EXPECT_EQ(memory.lines[2].badge, "8-way bank conflict");
  EXPECT_EQ(memory.lines[2].note,
            "your shared-memory loads hit a 8-way bank conflict: 8 wavefronts per request where 1 "
            "would do — line 3");
  frames();  // the panel draws them (ImGui stops on an unbalanced push or pop)
  EXPECT_TRUE(
      ui_->save_png(
             (std::filesystem::path(::testing::TempDir()) / "threadlab-lab-memory.png").string())
          .is_ok());

  ASSERT_TRUE(lab.run());
  finish_check();
  EXPECT_FALSE(fake_->options.record_memory) << "a Run stays quick";

  fake_->answer = failed_verdict();
  ASSERT_TRUE(lab.check());
  finish_check();
  EXPECT_TRUE(lab.state().memory.lines.empty());
  EXPECT_EQ(lab.state().memory.unavailable, "Recorded once the kernel passes its checks");
  frames();
}

// The naive matrix product's findings as a recording of its example case would return them: a
// load of A whose requests came back cut to the first two (a partial warp, then a full one that
// reads A[4160] to A[4191], row 13 from column 260 on), a shared-memory load whose lanes are 8
// words apart (banks 0, 8, 16, 24, eight words each: an 8-way conflict), and A's, B's and C's
// places; A and B loaded 16 times per element, C not at all (an output).
lab::MemoryFindings matmul_findings(const lab::Exercise& exercise) {
  constexpr std::uint64_t kA = 0x7f00'0001'0000;
  constexpr std::uint64_t kB = 0x7f00'0009'0000;
  constexpr std::uint64_t kC = 0x7f00'0011'0000;
  lab::MemoryFindings findings;
  findings.case_label = "A 257 × 300, B 300 × 129";
  findings.launch = {{9, 17, 1}, {16, 16, 1}, 0};
  memory::LineTotals load;
  load.line = 7;
  load.requests = 100;
  load.sectors = 400;
  load.ideal_sectors = 400;
  memory::LineTotals shared;
  shared.line = 8;
  shared.space = memory::MemorySpace::kShared;
  shared.requests = 1;
  shared.wavefronts = 8;
  shared.ideal_wavefronts = 1;
  shared.worst_conflict_degree = 8;
  findings.reply.table.rows = {load, shared};
  findings.reply.table.recorded_blocks = 4;
  findings.reply.table.grid_blocks = 153;
  findings.reply.row_argument = {0, lab::MemoryReply::kNoArray};
  memory::WarpRequest partial;
  partial.block = 152;
  for (std::uint32_t l = 0; l < 16; ++l) partial.lanes.push_back({l, kA + 4 * l, 4});
  memory::WarpRequest full;
  full.block = 10;  // (1, 1) of the 9 × 17 grid
  full.warp = 1;    // threads 32..63: (0..15, 2) and (0..15, 3)
  for (std::uint32_t l = 0; l < 32; ++l) full.lanes.push_back({l, kA + 4 * (4160 + l), 4});
  memory::WarpRequest banked;
  banked.space = memory::MemorySpace::kShared;
  for (std::uint32_t l = 0; l < 32; ++l) banked.lanes.push_back({l, 32u * l, 4});
  findings.reply.row_requests = {{partial, full}, {banked}};
  findings.reply.arrays = {{0, kA, 257 * 300 * 4, 4, 257, 300, {230400, 14400, 3}},
                           {1, kB, 300 * 129 * 4, 4, 300, 129, {230400, 14400, 3}},
                           {2, kC, 257 * 129 * 4, 4, 257, 129, {0, 0, 0}}};
  findings.notes = lab::memory_notes(exercise, findings.reply);
  findings.budgets = lab::load_budget_notes(exercise, findings.reply);
  return findings;
}

// A passing check's Memory panel draws one warp's request of the selected line, as the lesson
// workspace's Memory tab draws it (the one drawing, memory_request_drawing): the controller picks
// the line's first full warp, names each lane's block, thread and element from the recorded
// arrays' places, labels the sectors, says the line's requests were cut, steps through them and
// moves to another line; the access budgets are listed. Then drawn at the usual window sizes,
// where the 32 lanes fit the verdict column (nothing runs past its right edge).
TEST_F(LabTabTest, TheMemoryPanelDrawsTheSelectedLinesRequestAndTheAccessBudget) {
  const lab::Exercise& exercise = *lab::find_exercise("matmul");
  lab::CheckVerdict passed;
  passed.outcome = lab::Outcome::kPassed;
  passed.reason = "passed 5 of 5 hidden checks";
  passed.device = "fake";
  passed.memory = matmul_findings(exercise);
  fake_->answer = passed;
  open_lab();
  LabController& lab = app_->lab();
  lab.select_exercise("matmul");
  frames();
  ASSERT_TRUE(lab.check());
  finish_check();
  const LabMemoryState& memory = lab.state().memory;
  ASSERT_EQ(memory.lines.size(), 2u);
  EXPECT_EQ(memory.line, 0u);
  ASSERT_TRUE(memory.request.has_value()) << memory.no_picture;
  const MemoryRequestView& view = *memory.request;
  EXPECT_EQ(view.index, 1u) << "the first full warp's request, not the partial one before it";
  EXPECT_EQ(view.count, 2u);
  EXPECT_EQ(view.title,
            "block (1, 1), warp 1, the 1st time through line 7: load of A (32 active lanes)");
  EXPECT_NE(view.cut.find("The first 2 of this line's 100 requests"), std::string::npos)
      << view.cut;
  ASSERT_EQ(view.picture.lanes.size(), 32u);
  ASSERT_EQ(view.picture.targets.size(), 4u) << "32 floats in a row: 4 sectors";
  ASSERT_EQ(view.lanes.size(), 32u);
  EXPECT_EQ(view.lanes[0].element, "A[4160] = A(13, 260)");
  EXPECT_EQ(view.lanes[31].element, "A[4191] = A(13, 291)");
  EXPECT_EQ(view.lanes[0].block, (Dim3{1, 1, 0}));
  EXPECT_EQ(view.lanes[0].thread, (Dim3{0, 2, 0}));
  EXPECT_EQ(view.lanes[17].thread, (Dim3{1, 3, 0}));
  EXPECT_EQ(view.target_labels[0], "A[4160…4167]");
  EXPECT_EQ(view.target_labels[3], "A[4184…4191]");
  ASSERT_EQ(memory.budgets.size(), 2u) << "A and B; C is an output";
  EXPECT_EQ(memory.budgets[0].text,
            "each block reads each element of `A` it uses 16 times from global memory (on average "
            "over the 3 recorded blocks); through 16 × 16 shared-memory tiles (the next exercise) "
            "it needs about 1");
  EXPECT_FALSE(memory.budgets[0].within);
  frames();

  lab.select_memory_request(0);
  ASSERT_TRUE(memory.request.has_value());
  EXPECT_EQ(memory.request->index, 0u);
  EXPECT_EQ(memory.request->lanes.size(), 16u);
  EXPECT_EQ(memory.request->lanes[3].element, "A[3] = A(0, 3)");
  EXPECT_EQ(memory.request->lanes[3].block, (Dim3{8, 16, 0}));
  lab.select_memory_request(5);
  EXPECT_EQ(memory.request->index, 1u) << "clamped to the requests that came back";

  lab.select_memory_line(1);
  EXPECT_EQ(memory.line, 1u);
  ASSERT_TRUE(memory.request.has_value());
  const memory::RequestPicture& banks = memory.request->picture;
  EXPECT_EQ(banks.space, memory::MemorySpace::kShared);
  ASSERT_EQ(banks.targets.size(), 32u);
  EXPECT_EQ(banks.conflict_degree, 8u);
  EXPECT_EQ(banks.targets[8].words, 8u);
  EXPECT_EQ(memory.request->lanes[1].element, "shared byte 32 (word 8, bank 8)");
  EXPECT_TRUE(memory.request->cut.empty()) << "every request of the line came back";
  lab.select_memory_line(0);

  struct Size {
    int width, height;
  };
  for (const Size size : {Size{1280, 720}, Size{1600, 1000}, Size{1920, 1080}, Size{2560, 1440}}) {
    ASSERT_TRUE(ui_->resize(size.width, size.height).is_ok());
    frames(3);
    const ImGuiWindow* verdict = drawn_child("lab_verdict");
    ASSERT_NE(verdict, nullptr) << size.width << "x" << size.height;
    EXPECT_LE(verdict->ContentSize.x, verdict->InnerRect.GetWidth() + 1.0f)
        << "the picture runs past the verdict column at " << size.width << "x" << size.height;
    // The picture is at the column's end: scrolled there for the person looking at the file.
    ImGui::SetScrollY(const_cast<ImGuiWindow*>(verdict), verdict->ScrollMax.y);
    frames(1);
    EXPECT_TRUE(
        ui_->save_png((std::filesystem::path(::testing::TempDir()) /
                       ("threadlab-lab-memory-picture-" + std::to_string(size.width) + ".png"))
                          .string())
            .is_ok());
  }
}

}  // namespace
}  // namespace tl::ui
