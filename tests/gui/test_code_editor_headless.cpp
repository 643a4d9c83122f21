// The code editor widget in a headless ImGui context (draw lists only, no window and no GL, as the
// plot widget's test): keys, typed characters and the mouse go in through ImGuiIO as a platform
// backend would send them, and the text model says what they did.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>
#include <vector>

#include "core/editor/text_model.hpp"
#include "ui/widgets/code_editor.hpp"
#include "ui/widgets/typed_input.hpp"

namespace tl::ui {
namespace {

using editor::TextPosition;

// Native key codes for the keys ImGui 1.86 names, away from the letters' ASCII codes (F is 'F').
constexpr int kKeyBase = 300;
int native(ImGuiKey key) {
  return kKeyBase + key;
}

class CodeEditorHeadless : public testing::Test {
 protected:
  void SetUp() override {
    context_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1024, 768);
    io.DeltaTime = 1.0f / 60.0f;
    for (int key = 0; key < ImGuiKey_COUNT; ++key) io.KeyMap[key] = native(key);
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    frame();  // the window and the editor's layout now exist
  }
  void TearDown() override {
    typed_input().set_connected(false);
    typed_input().begin_frame();  // nothing queued leaks into the next test
    typed_input().begin_frame();
    ImGui::DestroyContext(context_);
  }

  // One frame with the editor filling a fixed window; returns the vertices drawn.
  int frame() {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(900, 600));
    ImGui::Begin("editor test", nullptr, ImGuiWindowFlags_NoDecoration);
    CodeEditorOptions options;
    options.diagnostics = diagnostics_;
    options.soft_wrap = soft_wrap_;
    CodeEditor("kernel", model_, state_, options, ImVec2(0, 0));
    ImGui::End();
    ImGui::Render();
    int vertices = 0;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int i = 0; i < data->CmdListsCount; ++i) vertices += data->CmdLists[i]->VtxBuffer.Size;
    return vertices;
  }

  // A key pressed for one frame and released in the next, with modifiers held throughout.
  void press(int native_key, bool ctrl = false, bool shift = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl;
    io.KeyShift = shift;
    io.KeysDown[native_key] = true;
    frame();
    io.KeysDown[native_key] = false;
    frame();
    io.KeyCtrl = false;
    io.KeyShift = false;
    frame();  // people do not press keys on consecutive frames; widgets may act a frame later
  }
  void press(ImGuiKey_ key, bool ctrl = false, bool shift = false) {
    press(native(key), ctrl, shift);
  }

  void type(const std::string& text) {
    for (char c : text) ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(c));
    frame();
  }

  ImVec2 pixel_of(TextPosition position) {
    const ImVec2 at = code_editor_screen_position(model_, state_, position);
    return {at.x + 1.0f, at.y + state_.line_height * 0.5f};
  }

  void mouse_down_at(ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    io.MouseDown[0] = true;
    frame();
  }
  void mouse_up() {
    ImGui::GetIO().MouseDown[0] = false;
    frame();
  }
  void click(TextPosition position) {
    mouse_down_at(pixel_of(position));
    mouse_up();
  }

  ImGuiContext* context_ = nullptr;
  editor::TextModel model_;
  CodeEditorState state_;
  std::vector<editor::Diagnostic> diagnostics_;
  bool soft_wrap_ = false;
};

TEST_F(CodeEditorHeadless, TypesUndoesAndRedoes) {
  EXPECT_FALSE(state_.focused);
  type("lost");  // nothing has the keyboard yet
  EXPECT_EQ(model_.text(), "");

  click({0, 0});
  EXPECT_TRUE(state_.focused);
  // The app's shortcuts (arrows step the lesson) stand aside while the editor has the keys.
  EXPECT_TRUE(ImGui::GetIO().WantTextInput);
  EXPECT_TRUE(ImGui::GetIO().WantCaptureKeyboard);
  type("__global__ void k() {");
  press(ImGuiKey_Enter);
  type("x = 1;");
  EXPECT_EQ(model_.text(), "__global__ void k() {\n    x = 1;");
  EXPECT_TRUE(model_.changed());

  press(ImGuiKey_Z, /*ctrl=*/true);  // the typed run " 1;"
  EXPECT_EQ(model_.text(), "__global__ void k() {\n    x =");
  press(ImGuiKey_Z, true);
  press(ImGuiKey_Z, true);  // "x"
  EXPECT_EQ(model_.text(), "__global__ void k() {\n    ");
  press(ImGuiKey_Z, true, /*shift=*/true);
  EXPECT_EQ(model_.text(), "__global__ void k() {\n    x");
  press(ImGuiKey_Y, true);
  press(ImGuiKey_Y, true);
  EXPECT_EQ(model_.text(), "__global__ void k() {\n    x = 1;");
  press(ImGuiKey_Enter);
  type("}");  // a '}' typed on a blank line goes one level out
  EXPECT_EQ(model_.text(), "__global__ void k() {\n    x = 1;\n}");
}

TEST_F(CodeEditorHeadless, KeysMoveSelectCopyAndPaste) {
  model_.set_text("int a;\nint b;");
  click({1, 6});
  press(ImGuiKey_Home, false, /*shift=*/true);
  EXPECT_EQ(model_.selected_text(), "int b;");
  press(ImGuiKey_C, /*ctrl=*/true);
  press(ImGuiKey_UpArrow);  // a selection's up goes from the cursor, at the line's start
  EXPECT_EQ(model_.cursor(), (TextPosition{0, 0}));
  press(ImGuiKey_End);
  press(ImGuiKey_Enter);
  press(ImGuiKey_V, true);
  EXPECT_EQ(model_.text(), "int a;\nint b;\nint b;");
  press(ImGuiKey_LeftArrow, /*ctrl=*/true);  // over ";"
  press(ImGuiKey_LeftArrow, true);           // to the start of "b"
  press(ImGuiKey_Backspace);
  press(ImGuiKey_Delete);
  EXPECT_EQ(model_.line(1), "int;");
  press(ImGuiKey_A, true);
  press(ImGuiKey_X, true);
  EXPECT_EQ(model_.text(), "");
  press(ImGuiKey_V, true);
  EXPECT_EQ(model_.text(), "int a;\nint;\nint b;");
  press(ImGuiKey_Tab);
  EXPECT_EQ(model_.line(2), "int b;  ");  // to the next tab stop
}

TEST_F(CodeEditorHeadless, MouseDragSelectsAndDoubleClickTakesAWord) {
  model_.set_text("float value = blockIdx.x;\nint i;");
  frame();
  mouse_down_at(pixel_of({0, 6}));
  ImGui::GetIO().MousePos = pixel_of({0, 11});
  frame();
  ImGui::GetIO().MousePos = pixel_of({1, 3});
  frame();
  mouse_up();
  EXPECT_EQ(model_.selection(), (editor::TextRange{{0, 6}, {1, 3}}));
  EXPECT_EQ(model_.selected_text(), "value = blockIdx.x;\nint");

  // Shift+click extends from the anchor.
  ImGui::GetIO().KeyShift = true;
  click({0, 2});
  ImGui::GetIO().KeyShift = false;
  EXPECT_EQ(model_.selected_text(), "oat ");

  // A double click: two presses close together.
  click({0, 16});
  click({0, 16});
  EXPECT_EQ(model_.selected_text(), "blockIdx");
}

TEST_F(CodeEditorHeadless, ClickingOutsideTakesTheKeyboardAway) {
  model_.set_text("x");
  click({0, 1});
  ASSERT_TRUE(state_.focused);
  mouse_down_at(ImVec2(950, 700));  // outside the window
  mouse_up();
  EXPECT_FALSE(state_.focused);
  frame();
  EXPECT_FALSE(ImGui::GetIO().WantTextInput);
  type("y");
  EXPECT_EQ(model_.text(), "x");
}

TEST_F(CodeEditorHeadless, ReadOnlyShowsButDoesNotEdit) {
  model_.set_text("solution();");
  model_.set_read_only(true);
  click({0, 0});
  type("typed");
  press(ImGuiKey_Backspace);
  press(ImGuiKey_Enter);
  press(ImGuiKey_A, true);
  press(ImGuiKey_X, true);
  EXPECT_EQ(model_.text(), "solution();");
  EXPECT_EQ(model_.selected_text(), "solution();");  // selecting and copying still work
  EXPECT_FALSE(model_.changed());
}

TEST_F(CodeEditorHeadless, FindBarFindsTheNextMatch) {
  model_.set_text("sum = 0;\nSum += x;\nreturn sum;");
  click({0, 0});
  press('F', /*ctrl=*/true);
  EXPECT_TRUE(state_.find_open);
  frame();  // the field takes the keyboard
  type("sum");
  EXPECT_EQ(std::string(state_.find_text.data()), "sum");
  EXPECT_EQ(model_.text(), "sum = 0;\nSum += x;\nreturn sum;");  // the text did not get the keys
  press(ImGuiKey_Enter);
  EXPECT_EQ(model_.selection(), (editor::TextRange{{0, 0}, {0, 3}}));
  press(ImGuiKey_Enter);
  EXPECT_EQ(model_.selection(), (editor::TextRange{{1, 0}, {1, 3}}));
  state_.match_case = true;
  press(ImGuiKey_Enter);
  EXPECT_EQ(model_.selection(), (editor::TextRange{{2, 7}, {2, 10}}));
  press(ImGuiKey_Enter, false, /*shift=*/true);
  EXPECT_EQ(model_.selection(), (editor::TextRange{{0, 0}, {0, 3}}));
  EXPECT_EQ(model_.text(), "sum = 0;\nSum += x;\nreturn sum;");
}

// Ctrl+H opens the find bar with its replace row; the model replaces a selected match and steps
// to the next, or every match as one undoable edit.
TEST_F(CodeEditorHeadless, CtrlHReplacesOneMatchAtATimeOrAllAsOneEdit) {
  model_.set_text("sum = 0;\nSum += x;\nreturn sum;");
  click({0, 0});
  press('H', /*ctrl=*/true);
  EXPECT_TRUE(state_.find_open);
  EXPECT_TRUE(state_.replace_open);
  EXPECT_EQ(model_.text(), "sum = 0;\nSum += x;\nreturn sum;")
      << "H reached the find bar, not the text";
  frame();

  const editor::FindOptions exact{.match_case = true};
  EXPECT_TRUE(model_.replace_next("sum", "total", exact)) << "the first press selects the match";
  EXPECT_EQ(model_.text(), "sum = 0;\nSum += x;\nreturn sum;");
  EXPECT_EQ(model_.selection(), (editor::TextRange{{0, 0}, {0, 3}}));
  EXPECT_TRUE(model_.replace_next("sum", "total", exact));
  EXPECT_EQ(model_.text(), "total = 0;\nSum += x;\nreturn sum;");
  EXPECT_EQ(model_.selection(), (editor::TextRange{{2, 7}, {2, 10}})) << "the next one selected";
  ASSERT_TRUE(model_.undo());
  EXPECT_EQ(model_.text(), "sum = 0;\nSum += x;\nreturn sum;");

  EXPECT_EQ(model_.replace_all("sum", "acc"), 3) << "without match case, Sum too";
  EXPECT_EQ(model_.text(), "acc = 0;\nacc += x;\nreturn acc;");
  ASSERT_TRUE(model_.undo());
  EXPECT_EQ(model_.text(), "sum = 0;\nSum += x;\nreturn sum;") << "one Ctrl+Z undoes them all";
  model_.set_read_only(true);
  EXPECT_EQ(model_.replace_all("sum", "acc"), 0);
}

// Soft wrap: a line wider than the editor continues on the next rows, inside the editor's width;
// a click on a wrapped row lands on the text drawn there, and typing there edits that spot.
TEST_F(CodeEditorHeadless, SoftWrapKeepsLongLinesInsideTheWidthAndClicksLandOnThem) {
  std::string signature = "__global__ void k(";
  for (int i = 0; i < 20; ++i) signature += "Array<const float> in" + std::to_string(i) + ", ";
  signature += "int n) {";
  model_.set_text(signature + "\n}");
  frame();
  EXPECT_EQ(state_.wrap.rows(), 2) << "unwrapped: one row per line";
  soft_wrap_ = true;
  frame();
  EXPECT_GT(state_.wrap.rows(), 3);
  EXPECT_EQ(state_.wrap.row_count(1), 1);
  const editor::TextPosition late{0, static_cast<int>(signature.size()) - 3};
  const ImVec2 at = code_editor_screen_position(model_, state_, late);
  const ImVec2 start = code_editor_screen_position(model_, state_, {0, 0});
  EXPECT_GT(at.y, start.y) << "drawn on a later row";
  EXPECT_LT(at.x, 900.0f) << "inside the editor's width";
  const ImVec2 closing = code_editor_screen_position(model_, state_, {1, 0});
  EXPECT_GT(closing.y, at.y) << "the next line comes after all the rows of this one";
  click(late);
  EXPECT_EQ(model_.cursor(), late);
  type("X");
  EXPECT_EQ(model_.line(0).substr(late.column, 1), "X");
}

TEST_F(CodeEditorHeadless, DiagnosticsMarkTheirLineAndShowOnHover) {
  model_.set_text("int a;\n    x = 1;\nint b;");
  const int plain = frame();
  diagnostics_ = {{.file = "kernel.cu",
                   .line = 2,
                   .column = 5,
                   .severity = editor::Severity::kError,
                   .message = "identifier \"x\" is undefined",
                   .detail = ""}};
  EXPECT_GT(frame(), plain);  // the mark and the underline add geometry
  EXPECT_EQ(state_.hovered_diagnostic_line, 0);
  ImGui::GetIO().MousePos = pixel_of({1, 4});  // on the "x"
  frame();
  EXPECT_EQ(state_.hovered_diagnostic_line, 2);
  ImGui::GetIO().MousePos =
      ImVec2(state_.text_origin.x - state_.cell_width, pixel_of({1, 0}).y);  // gutter
  frame();
  EXPECT_EQ(state_.hovered_diagnostic_line, 2);
  ImGui::GetIO().MousePos = pixel_of({2, 1});
  frame();
  EXPECT_EQ(state_.hovered_diagnostic_line, 0);
}

TEST_F(CodeEditorHeadless, PagesAndScrollsToKeepTheCursorInView) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "line " + std::to_string(i + 1) + "\n";
  model_.set_text(text);
  click({0, 0});
  const float top = state_.text_origin.y;
  ASSERT_GT(state_.visible_lines, 5);
  press(ImGuiKey_PageDown);
  EXPECT_EQ(model_.cursor().line, state_.visible_lines - 1);
  press(ImGuiKey_End, /*ctrl=*/true);
  EXPECT_EQ(model_.cursor().line, 200);
  // The last line is now on screen: the text moved up by about 200 lines less a window.
  const float cursor_y = code_editor_screen_position(model_, state_, model_.cursor()).y;
  EXPECT_LT(state_.text_origin.y, top - 100 * state_.line_height);
  EXPECT_GE(cursor_y, 0.0f);
  EXPECT_LE(cursor_y + state_.line_height, 600.0f);
  press(ImGuiKey_Home, /*ctrl=*/true, /*shift=*/true);
  EXPECT_EQ(model_.selection(), (editor::TextRange{{0, 0}, {200, 0}}));
  EXPECT_FLOAT_EQ(state_.text_origin.y, top);
}

TEST_F(CodeEditorHeadless, ResultReportsChangesForAutosave) {
  model_.set_text("a");
  click({0, 1});
  const auto before = model_.version();
  type("b");
  EXPECT_GT(model_.version(), before);
  EXPECT_TRUE(model_.changed());
  model_.mark_saved();
  EXPECT_FALSE(model_.changed());
  press(ImGuiKey_RightArrow);
  EXPECT_FALSE(model_.changed());
}

// What the window's GLFW callbacks queue (widgets/typed_input.hpp), as they queue it: presses
// shorter than a frame, characters and keys interleaved.
void queue_text(const std::string& text) {
  for (char c : text) {
    TypedEvent typed;
    typed.kind = TypedEvent::Kind::kCharacter;
    typed.character = static_cast<unsigned char>(c);
    typed_input().push(typed);
  }
}
void queue_key(ImGuiKey_ key, bool ctrl = false) {
  TypedEvent press;
  press.key = native(key);
  press.ctrl = ctrl;
  typed_input().push(press);
}

// A slow window (9 frames a second on software GL) sees a whole line typed within one frame:
// every key and character arrives, in the order typed. Read from ImGui's per-frame state, the
// Enter and Backspace pressed and released within the frame would never be seen.
TEST_F(CodeEditorHeadless, EverythingTypedWithinOneFrameArrivesInOrder) {
  click({0, 0});
  ASSERT_TRUE(state_.focused);
  typed_input().set_connected(true);
  queue_text("x = 1;");
  queue_key(ImGuiKey_Enter);
  queue_text("y = 2");
  queue_key(ImGuiKey_Backspace);
  queue_text("3;");
  queue_key(ImGuiKey_Enter);
  queue_key(ImGuiKey_UpArrow);
  queue_key(ImGuiKey_Home);
  queue_text("//");
  typed_input().begin_frame();  // as the window does after polling its events
  frame();
  EXPECT_EQ(model_.text(), "x = 1;\n//y = 3;\n");
  // Ctrl+Z in the same stream undoes what the stream typed last.
  queue_key(ImGuiKey_Z, /*ctrl=*/true);
  typed_input().begin_frame();
  frame();
  EXPECT_EQ(model_.text(), "x = 1;\ny = 3;\n");
}

// Typing at twice the frame rate, for 200 keystrokes: two events a frame, nothing lost.
TEST_F(CodeEditorHeadless, TypingFasterThanTheFrameRateLosesNothing) {
  click({0, 0});
  ASSERT_TRUE(state_.focused);
  typed_input().set_connected(true);
  std::string expected;
  for (int i = 0; i < 100; ++i) {
    const char c = static_cast<char>('a' + i % 26);
    queue_text(std::string(1, c));
    expected += c;
    if (i % 10 == 9) {
      queue_key(ImGuiKey_Enter);
      expected += '\n';
    } else {
      queue_text(" ");
      expected += ' ';
    }
    typed_input().begin_frame();
    frame();
  }
  EXPECT_EQ(model_.text(), expected);
  EXPECT_EQ(typed_input().dropped(), 0u);
}

// Keys typed while the editor does not have the keyboard go elsewhere, not into the text.
TEST_F(CodeEditorHeadless, QueuedKeysReachOnlyAFocusedEditor) {
  typed_input().set_connected(true);
  queue_text("lost");
  queue_key(ImGuiKey_Enter);
  typed_input().begin_frame();
  frame();
  EXPECT_EQ(model_.text(), "");
}

}  // namespace
}  // namespace tl::ui
