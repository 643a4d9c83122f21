#pragma once
// The Lab's code editor: an ImGui 1.86 widget over core/editor's TextModel. Debian ships no ImGui
// code editor and the known ones target newer ImGui, so this is a small one of our own. The text,
// the cursor, undo, find, highlighting and compiler messages live in core/editor (tested without
// a window); this file turns keys and the mouse into model calls and draws the result: a line
// number gutter, CUDA colours, the selection, find matches, and compiler diagnostics as a mark in
// the gutter plus a wavy underline whose message shows on hover.
//
// Keys: arrows, Home/End (Ctrl: the whole text), PageUp/PageDown, Shift to select, Ctrl+Left/Right
// by word, Enter (auto-indent; Ctrl+Enter is left to the caller: the Lab's Check), Tab/Shift+Tab,
// Backspace, Delete, Ctrl+Z, Ctrl+Y and Ctrl+Shift+Z, Ctrl+A/C/X/V (ImGui's clipboard), Ctrl+F
// (find bar: Enter next, Shift+Enter previous, Esc closes), Ctrl+H (the find bar with a replace
// row: Replace the selected match and select the next, or All as one undoable edit). Mouse: click,
// Shift+click, drag, double click selects a word, the wheel scrolls.

#include <imgui.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/editor/cuda_highlight.hpp"
#include "core/editor/diagnostics.hpp"
#include "core/editor/soft_wrap.hpp"
#include "core/editor/text_model.hpp"

namespace tl::ui {

struct CodeEditorColors {
  ImU32 background;
  ImU32 gutter_background;
  ImU32 line_number;
  ImU32 current_line_number;
  ImU32 current_line;  // the cursor's line, behind the text
  ImU32 selection;
  ImU32 find_match;
  ImU32 cursor;
  ImU32 error;
  ImU32 warning;
  ImU32 note;
  ImU32 read_only_label;
  // Indexed by editor::TokenKind.
  std::array<ImU32, 11> tokens;
};
const CodeEditorColors& dark_code_editor_colors();
const CodeEditorColors& high_contrast_code_editor_colors();

struct CodeEditorOptions {
  // The monospace font (ui::Fonts::mono, which follows the UI scale); null: the current font.
  ImFont* font = nullptr;
  const CodeEditorColors* colors = nullptr;  // null: dark_code_editor_colors()
  // Compiler messages about this text (their lines count from 1, as compilers do).
  std::span<const editor::Diagnostic> diagnostics{};
  // io.KeysDown index of the F key, which ImGui 1.86 does not name: GLFW numbers letters by their
  // upper-case ASCII code, which the headless UI and the tests use too.
  int find_key = 'F';
  int replace_key = 'H';  // Ctrl+H: the find bar with its replace row
  // Long lines drawn on several rows as wide as the editor (core/editor/soft_wrap.hpp) instead of
  // a horizontal scroll; Up and Down still move by lines of the text.
  bool soft_wrap = false;
};

// What the widget keeps between frames. Owned by the caller, one per editor.
struct CodeEditorState {
  bool focused = false;  // the editor has the keyboard (a click inside gives it, outside takes it)
  bool find_open = false;
  bool match_case = false;
  std::array<char, 256> find_text{};
  bool replace_open = false;  // the find bar's replace row (Ctrl+H)
  std::array<char, 256> replace_text{};

  // Filled each frame, for the caller and the tests.
  ImVec2 text_origin{};  // screen position of line 0, column 0 (scrolling included)
  float cell_width = 0.0f;
  float line_height = 0.0f;
  int visible_lines = 0;
  int hovered_diagnostic_line = 0;  // 1-based line whose message shows, 0 for none

  // Internal.
  std::uint64_t highlighted_version = ~std::uint64_t{0};
  std::vector<std::vector<editor::Token>> tokens;
  editor::WrapMap wrap;  // the rows of the last frame (one per line without soft wrap)
  std::uint64_t wrapped_version = ~std::uint64_t{0};
  int wrapped_width = -1;
  int widest_line_cells = 0;
  bool focus_find_field = false;
  bool scroll_to_cursor = false;
  double last_cursor_move_time = 0.0;
};

struct CodeEditorResult {
  bool text_changed = false;  // an edit, undo or redo this frame (autosave polls model.changed())
};

// Draws the editor filling `size` at the cursor (a size component <= 0 takes the space left) and
// applies this frame's input to `model`. Read-only models (a shown solution) select, copy and find.
CodeEditorResult CodeEditor(const char* id, editor::TextModel& model, CodeEditorState& state,
                            const CodeEditorOptions& options, ImVec2 size);

// Screen position of `position`'s top left in the last frame drawn (for overlays and tests).
ImVec2 code_editor_screen_position(const editor::TextModel& model, const CodeEditorState& state,
                                   editor::TextPosition position);

}  // namespace tl::ui
