#include "ui/widgets/code_editor.hpp"
#include "ui/widgets/typed_input.hpp"

#include <imgui_internal.h>  // GetActiveID and the "wants text input" flag, absent from 1.86's API

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "core/editor/text_layout.hpp"

namespace tl::ui {
namespace {

using editor::Severity;
using editor::TextPosition;
using editor::TokenKind;

constexpr ImU32 rgb(int r, int g, int b, int a = 255) {
  return IM_COL32(r, g, b, a);
}

// Token colours in TokenKind order: plain, keyword, type, CUDA keyword, CUDA built-in, number,
// string, character, comment, preprocessor, punctuation.
const CodeEditorColors kDark{
    .background = rgb(24, 26, 31),
    .gutter_background = rgb(30, 33, 39),
    .line_number = rgb(110, 118, 129),
    .current_line_number = rgb(220, 224, 230),
    .current_line = rgb(255, 255, 255, 14),
    .selection = rgb(60, 110, 190, 130),
    .find_match = rgb(230, 180, 40, 70),
    .cursor = rgb(235, 235, 235),
    .error = rgb(240, 80, 80),
    .warning = rgb(230, 180, 50),
    .note = rgb(110, 170, 240),
    .read_only_label = rgb(150, 150, 150, 200),
    .tokens = {rgb(212, 212, 212), rgb(198, 120, 221), rgb(86, 182, 194), rgb(229, 120, 80),
               rgb(229, 192, 123), rgb(209, 154, 102), rgb(152, 195, 121), rgb(152, 195, 121),
               rgb(106, 153, 85), rgb(197, 134, 192), rgb(171, 178, 191)}};

// For projectors: black on white, saturated and dark so they survive a washed-out beamer.
const CodeEditorColors kHighContrast{
    .background = rgb(255, 255, 255),
    .gutter_background = rgb(236, 236, 236),
    .line_number = rgb(90, 90, 90),
    .current_line_number = rgb(0, 0, 0),
    .current_line = rgb(0, 0, 0, 16),
    .selection = rgb(80, 140, 255, 110),
    .find_match = rgb(255, 200, 0, 120),
    .cursor = rgb(0, 0, 0),
    .error = rgb(200, 0, 0),
    .warning = rgb(170, 110, 0),
    .note = rgb(0, 80, 200),
    .read_only_label = rgb(80, 80, 80),
    .tokens = {rgb(0, 0, 0), rgb(140, 0, 160), rgb(0, 110, 130), rgb(190, 60, 0), rgb(150, 90, 0),
               rgb(0, 100, 0), rgb(160, 30, 30), rgb(160, 30, 30), rgb(90, 90, 90), rgb(120, 60, 0),
               rgb(0, 0, 0)}};

bool pressed(ImGuiKey key) {
  const int index = ImGui::GetKeyIndex(key);
  return index >= 0 && ImGui::IsKeyPressed(index, /*repeat=*/true);
}

bool pressed_index(int index) {
  return index >= 0 && index < 512 && ImGui::IsKeyPressed(index, /*repeat=*/false);
}

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

ImU32 severity_color(const CodeEditorColors& colors, Severity severity) {
  switch (severity) {
    case Severity::kError:
      return colors.error;
    case Severity::kWarning:
      return colors.warning;
    case Severity::kNote:
      return colors.note;
  }
  return colors.error;
}

// Frame metrics shared by input and drawing.
struct Geometry {
  ImVec2 window_pos;
  ImVec2 visible;  // the child's inner size (scrollbars excluded)
  ImVec2 text_origin;
  float gutter = 0.0f;
  float cell = 1.0f;
  float line_height = 1.0f;
  float scroll_x = 0.0f;
  float scroll_y = 0.0f;
};

// The top left of `position` on screen: its row (one per line, or several where soft wrap breaks
// it) and its cell in that row.
ImVec2 screen_of(const editor::TextModel& model, const editor::WrapMap& wrap, const Geometry& g,
                 TextPosition position) {
  const editor::RowPlace place =
      wrap.place(model.line(position.line), position.line, position.column);
  return {g.text_origin.x + static_cast<float>(place.cell) * g.cell,
          g.text_origin.y + static_cast<float>(place.row) * g.line_height};
}

// The find bar above the text; returns whether its field has the keyboard.
bool draw_find_bar(editor::TextModel& model, CodeEditorState& state) {
  if (!state.find_open) return false;
  const editor::FindOptions options{.match_case = state.match_case};
  if (state.focus_find_field) {
    ImGui::SetKeyboardFocusHere();
    state.focus_find_field = false;
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  const bool entered =
      ImGui::InputTextWithHint("##find", "find", state.find_text.data(), state.find_text.size(),
                               ImGuiInputTextFlags_EnterReturnsTrue);
  const bool field_active = ImGui::IsItemActive();
  // Esc cancels ImGui's field before this code sees it: the field has just let go.
  const bool field_escaped = ImGui::IsItemDeactivated() && pressed(ImGuiKey_Escape);
  const std::string_view needle(state.find_text.data());
  const auto go = [&](bool forward) {
    const auto match =
        forward ? model.find_next(needle, options) : model.find_previous(needle, options);
    (void)match;  // the bar's match count says when there is none
    state.scroll_to_cursor = true;
  };
  if (entered) {
    go(!ImGui::GetIO().KeyShift);
    state.focus_find_field = true;  // Enter left the field: keep typing Enter for the next match
  }
  ImGui::SameLine();
  ImGui::Checkbox("Match case", &state.match_case);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##previous", ImGuiDir_Up)) go(false);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Down)) go(true);
  ImGui::SameLine();
  if (!needle.empty()) {
    const int count = model.count_matches(needle, options);
    if (count == 0) {
      ImGui::TextDisabled("no match");
    } else {
      ImGui::TextDisabled("%d %s", count, count == 1 ? "match" : "matches");
    }
    ImGui::SameLine();
  }
  bool replace_active = false;
  if (state.replace_open && !model.read_only()) {
    // Ctrl+H's second row: Replace changes the selected match and selects the next, so each
    // press shows what the next one changes; All is one edit that Ctrl+Z undoes.
    ImGui::NewLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
    ImGui::InputTextWithHint("##replace", "replace with", state.replace_text.data(),
                             state.replace_text.size());
    replace_active = ImGui::IsItemActive();
    const std::string_view replacement(state.replace_text.data());
    ImGui::SameLine();
    ImGui::BeginDisabled(needle.empty());
    if (ImGui::SmallButton("Replace")) {
      model.replace_next(needle, replacement, options);
      state.scroll_to_cursor = true;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("All")) model.replace_all(needle, replacement, options);
    ImGui::EndDisabled();
    ImGui::SameLine();
  }
  if (ImGui::SmallButton("x") || field_escaped || (field_active && pressed(ImGuiKey_Escape))) {
    state.find_open = false;
    state.replace_open = false;
    state.focused = true;  // back to the text
  }
  return field_active || replace_active;
}

// One key press (or repeat) applied to the model, with the modifiers held when it was pressed.
void apply_key(editor::TextModel& model, CodeEditorState& state, const CodeEditorOptions& options,
               int page_lines, const TypedEvent& press) {
  const auto is = [&](ImGuiKey key) { return press.key == ImGui::GetKeyIndex(key); };
  const bool shift = press.shift;
  const bool ctrl = press.ctrl;
  if (ctrl && !press.alt) {
    if (is(ImGuiKey_Z)) {
      if (shift) {
        model.redo();
      } else {
        model.undo();
      }
    } else if (is(ImGuiKey_Y)) {
      model.redo();
    } else if (is(ImGuiKey_A)) {
      model.select_all();
    } else if (is(ImGuiKey_C)) {
      if (model.has_selection()) ImGui::SetClipboardText(model.selected_text().c_str());
    } else if (is(ImGuiKey_X)) {
      if (model.has_selection() && !model.read_only()) {
        ImGui::SetClipboardText(model.cut().c_str());
      }
    } else if (is(ImGuiKey_V)) {
      if (const char* text = ImGui::GetClipboardText(); text != nullptr) model.insert_text(text);
    } else if ((press.key == options.find_key || press.key == options.replace_key) &&
               !press.repeat) {
      state.find_open = true;
      state.replace_open = press.key == options.replace_key;
      state.focus_find_field = true;
      state.focused = false;  // the keys go to the find field until it closes
      // A one-line selection is what the learner wants to find.
      if (model.has_selection() && model.selection().begin.line == model.selection().end.line) {
        const std::string selected = model.selected_text();
        const std::size_t n = std::min(selected.size(), state.find_text.size() - 1);
        std::copy_n(selected.data(), n, state.find_text.data());
        state.find_text[n] = '\0';
      }
    }
  }

  if (is(ImGuiKey_LeftArrow)) {
    if (ctrl) {
      model.move_word_left(shift);
    } else {
      model.move_left(shift);
    }
  } else if (is(ImGuiKey_RightArrow)) {
    if (ctrl) {
      model.move_word_right(shift);
    } else {
      model.move_right(shift);
    }
  } else if (is(ImGuiKey_UpArrow)) {
    model.move_up(1, shift);
  } else if (is(ImGuiKey_DownArrow)) {
    model.move_down(1, shift);
  } else if (is(ImGuiKey_PageUp)) {
    model.move_up(page_lines, shift);
  } else if (is(ImGuiKey_PageDown)) {
    model.move_down(page_lines, shift);
  } else if (is(ImGuiKey_Home)) {
    if (ctrl) {
      model.move_to_start(shift);
    } else {
      model.move_home(shift);
    }
  } else if (is(ImGuiKey_End)) {
    if (ctrl) {
      model.move_to_end(shift);
    } else {
      model.move_end(shift);
    }
  } else if (!ctrl && (is(ImGuiKey_Enter) || is(ImGuiKey_KeyPadEnter))) {
    model.new_line();  // Ctrl+Enter is the caller's (the Lab's Check)
  } else if (is(ImGuiKey_Tab)) {
    if (shift) {
      model.unindent();
    } else {
      model.indent();
    }
  } else if (is(ImGuiKey_Backspace)) {
    model.backspace();
  } else if (is(ImGuiKey_Delete)) {
    model.delete_forward();
  } else if (is(ImGuiKey_Escape) && model.has_selection()) {
    model.set_cursor(model.cursor());
  }
}

// One typed character; Ctrl combinations are commands (AltGr, which is Ctrl+Alt on some layouts,
// still types). One call per character, so several typed within a frame group for undo as if
// typed apart.
void apply_character(editor::TextModel& model, const TypedEvent& typed) {
  if (typed.ctrl && !typed.alt) return;
  if (typed.character < 0x20 || typed.character == 0x7F) return;  // Enter and Tab come as keys
  std::string text;
  append_utf8(text, typed.character);
  model.type_text(text);
}

// The keys the editor acts on, for a frame read from ImGui's per-frame state.
constexpr ImGuiKey kEditorKeys[] = {
    ImGuiKey_Z,       ImGuiKey_Y,         ImGuiKey_A,         ImGuiKey_C,
    ImGuiKey_X,       ImGuiKey_V,         ImGuiKey_LeftArrow, ImGuiKey_RightArrow,
    ImGuiKey_UpArrow, ImGuiKey_DownArrow, ImGuiKey_PageUp,    ImGuiKey_PageDown,
    ImGuiKey_Home,    ImGuiKey_End,       ImGuiKey_Enter,     ImGuiKey_KeyPadEnter,
    ImGuiKey_Tab,     ImGuiKey_Backspace, ImGuiKey_Delete,    ImGuiKey_Escape};

// This frame's keys and characters, applied to the model in the order they were typed. Returns
// whether the cursor moved or the text changed.
bool handle_keyboard(editor::TextModel& model, CodeEditorState& state,
                     const CodeEditorOptions& options, int page_lines) {
  const ImGuiIO& io = ImGui::GetIO();
  const TextPosition cursor_before = model.cursor();
  const TextPosition anchor_before = model.anchor();
  const std::uint64_t version_before = model.version();

  if (typed_input().connected()) {
    // The window's callbacks saw every press and character since the last frame, in order.
    for (const TypedEvent& typed : typed_input().this_frame()) {
      if (typed.kind == TypedEvent::Kind::kCharacter) {
        apply_character(model, typed);
      } else {
        apply_key(model, state, options, page_lines, typed);
      }
    }
  } else {
    // No platform queue (a headless context driven through ImGuiIO): what this frame's state says.
    TypedEvent press;
    press.shift = io.KeyShift;
    press.ctrl = io.KeyCtrl;
    press.alt = io.KeyAlt;
    for (ImGuiKey key : kEditorKeys) {
      if (!pressed(key)) continue;
      press.key = ImGui::GetKeyIndex(key);
      apply_key(model, state, options, page_lines, press);
    }
    for (const int letter : {options.find_key, options.replace_key}) {
      if (!pressed_index(letter)) continue;
      press.key = letter;
      apply_key(model, state, options, page_lines, press);
    }
    for (ImWchar c : io.InputQueueCharacters) {
      TypedEvent typed = press;
      typed.kind = TypedEvent::Kind::kCharacter;
      typed.character = c;
      apply_character(model, typed);
    }
  }
  return model.cursor() != cursor_before || model.anchor() != anchor_before ||
         model.version() != version_before;
}

void draw_wavy_line(ImDrawList* draw, float x1, float x2, float y, float amplitude, ImU32 color) {
  const float step = amplitude * 2.0f;
  std::vector<ImVec2> points;
  bool up = true;
  for (float x = x1; x < x2 + step * 0.5f; x += step) {
    points.emplace_back(std::min(x, x2), y + (up ? -amplitude : amplitude));
    up = !up;
  }
  if (points.size() < 2) points = {ImVec2(x1, y), ImVec2(x2, y)};
  draw->AddPolyline(points.data(), static_cast<int>(points.size()), color, ImDrawFlags_None, 1.0f);
}

}  // namespace

const CodeEditorColors& dark_code_editor_colors() {
  return kDark;
}

const CodeEditorColors& high_contrast_code_editor_colors() {
  return kHighContrast;
}

ImVec2 code_editor_screen_position(const editor::TextModel& model, const CodeEditorState& state,
                                   editor::TextPosition position) {
  position = model.clamp(position);
  if (state.wrap.rows() == model.line_count() || state.wrap.rows() == 0 ||
      state.wrapped_version != model.version()) {
    // One row per line (or no layout yet for this text): the line is the row.
    const int cells =
        editor::visual_column(model.line(position.line), position.column, model.tab_size());
    return {state.text_origin.x + static_cast<float>(cells) * state.cell_width,
            state.text_origin.y + static_cast<float>(position.line) * state.line_height};
  }
  const editor::RowPlace place =
      state.wrap.place(model.line(position.line), position.line, position.column);
  return {state.text_origin.x + static_cast<float>(place.cell) * state.cell_width,
          state.text_origin.y + static_cast<float>(place.row) * state.line_height};
}

CodeEditorResult CodeEditor(const char* id, editor::TextModel& model, CodeEditorState& state,
                            const CodeEditorOptions& options, ImVec2 size) {
  const CodeEditorColors& colors = options.colors ? *options.colors : kDark;
  const std::uint64_t version_before = model.version();
  ImGuiIO& io = ImGui::GetIO();
  ImGui::PushID(id);

  const bool find_field_active = draw_find_bar(model, state);

  ImFont* font = options.font != nullptr ? options.font : ImGui::GetFont();
  ImGui::PushFont(font);
  Geometry g;
  g.cell = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, "M").x;
  g.line_height = std::round(font->FontSize * 1.3f);

  ImGui::PushStyleColor(ImGuiCol_ChildBg, colors.background);
  ImGui::BeginChild("##code", size, /*border=*/false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoNavInputs);
  g.window_pos = ImGui::GetWindowPos();
  g.visible = ImGui::GetContentRegionAvail();
  g.scroll_x = ImGui::GetScrollX();
  g.scroll_y = ImGui::GetScrollY();
  const ImVec2 content_origin = ImGui::GetCursorScreenPos();
  const int digits = editor::line_number_digits(model.line_count());
  g.gutter = (static_cast<float>(digits) + 3.0f) * g.cell;
  // Half a cell of air between the gutter and column 0, so a cursor there is not lost in the edge.
  g.text_origin = ImVec2(content_origin.x + g.gutter + g.cell * 0.5f, content_origin.y);

  // Highlighting and the widest line follow the text, recomputed only when it changed.
  const auto refresh = [&] {
    if (state.highlighted_version == model.version()) return;
    state.tokens = editor::tokenize_lines(model.lines());
    state.widest_line_cells = 0;
    for (const std::string& line : model.lines()) {
      state.widest_line_cells =
          std::max(state.widest_line_cells,
                   editor::visual_column(line, static_cast<int>(line.size()), model.tab_size()));
    }
    state.highlighted_version = model.version();
  };
  refresh();
  // Soft wrap: rows as wide as the text area; else one row per line, scrolled sideways.
  const int wrap_width =
      options.soft_wrap
          ? std::max(8, static_cast<int>((g.visible.x - g.gutter - g.cell * 1.5f) / g.cell))
          : 0;
  const auto rewrap = [&] {
    if (state.wrapped_version == model.version() && state.wrapped_width == wrap_width &&
        state.wrap.rows() > 0) {
      return;
    }
    state.wrap = editor::WrapMap(model.lines(), wrap_width, model.tab_size());
    state.wrapped_version = model.version();
    state.wrapped_width = wrap_width;
  };
  rewrap();
  const int widest = state.widest_line_cells;
  // Room to scroll the last row to the top, and (unwrapped) a few cells past the widest line.
  const ImVec2 content(
      options.soft_wrap ? g.visible.x
                        : std::max(g.visible.x, g.gutter + static_cast<float>(widest + 4) * g.cell),
      std::max(g.visible.y, static_cast<float>(state.wrap.rows()) * g.line_height + g.visible.y -
                                g.line_height));
  const ImGuiID text_id = ImGui::GetID("##text");
  ImGui::InvisibleButton("##text", content);
  if (ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_TextInput);
  const bool active = ImGui::IsItemActive();
  const ImVec2 mouse = io.MousePos;
  const auto position_under_mouse = [&] {
    const int row = static_cast<int>(std::floor((mouse.y - g.text_origin.y) / g.line_height));
    return state.wrap.position_at(model.lines(), row, (mouse.x - g.text_origin.x) / g.cell);
  };

  // ---- mouse ----
  bool cursor_moved = false;
  if (ImGui::IsItemActivated()) {
    state.focused = true;
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      model.select_word_at(position_under_mouse());
    } else {
      model.set_cursor(position_under_mouse(), io.KeyShift);
    }
    cursor_moved = true;
  } else if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f) &&
             (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f || mouse.y < g.window_pos.y ||
              mouse.y > g.window_pos.y + g.visible.y)) {
    model.set_cursor(position_under_mouse(), /*extend_selection=*/true);
    // Dragging past an edge scrolls there.
    if (mouse.y < g.window_pos.y) ImGui::SetScrollY(g.scroll_y - g.line_height);
    if (mouse.y > g.window_pos.y + g.visible.y) ImGui::SetScrollY(g.scroll_y + g.line_height);
    cursor_moved = true;
  }
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
      !ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows |
                              ImGuiHoveredFlags_AllowWhenBlockedByActiveItem)) {
    state.focused = false;  // a click elsewhere takes the keyboard away
  }

  // ---- keyboard ----
  const ImGuiID active_id = ImGui::GetActiveID();
  const bool keyboard_ours =
      state.focused && !find_field_active && (active_id == 0 || active_id == text_id);
  g.visible.y = std::max(g.visible.y, g.line_height);
  const int page_lines = std::max(1, static_cast<int>(g.visible.y / g.line_height) - 1);
  if (keyboard_ours) {
    if (handle_keyboard(model, state, options, page_lines)) {
      cursor_moved = true;
      state.scroll_to_cursor = true;
    }
    // Keys typed here are not the app's shortcuts (arrows would otherwise step the lesson).
    ImGui::GetCurrentContext()->WantTextInputNextFrame = 1;
    ImGui::CaptureKeyboardFromApp(true);
  } else if (state.focused && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) &&
             !find_field_active) {
    state.focused = false;
  }
  if (cursor_moved) state.last_cursor_move_time = ImGui::GetTime();
  refresh();
  rewrap();

  // ---- keep the cursor in view ----
  if (state.scroll_to_cursor) {
    state.scroll_to_cursor = false;
    const TextPosition cursor = model.cursor();
    const editor::RowPlace place =
        state.wrap.place(model.line(cursor.line), cursor.line, cursor.column);
    const float cy = static_cast<float>(place.row) * g.line_height;
    if (cy < g.scroll_y) ImGui::SetScrollY(cy);
    if (cy + g.line_height > g.scroll_y + g.visible.y)
      ImGui::SetScrollY(cy + g.line_height - g.visible.y);
    const float cx = (g.text_origin.x - content_origin.x) + static_cast<float>(place.cell) * g.cell;
    if (cx < g.scroll_x + g.gutter) ImGui::SetScrollX(std::max(0.0f, cx - g.gutter - 4 * g.cell));
    if (cx + g.cell > g.scroll_x + g.visible.x) ImGui::SetScrollX(cx + 4 * g.cell - g.visible.x);
  }

  // ---- draw ----
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 window_end(g.window_pos.x + g.visible.x, g.window_pos.y + g.visible.y);
  const editor::WrapMap& wrap = state.wrap;
  const int first_row =
      std::clamp(static_cast<int>(g.scroll_y / g.line_height), 0, wrap.rows() - 1);
  const int last_row = std::clamp(static_cast<int>((g.scroll_y + g.visible.y) / g.line_height) + 1,
                                  0, wrap.rows() - 1);
  const int first = wrap.line_of_row(first_row);
  const int last = wrap.line_of_row(last_row);
  const float font_size = font->FontSize;
  const float text_top = (g.line_height - font_size) * 0.5f;
  const editor::TextRange selection = model.selection();
  const TextPosition cursor = model.cursor();
  const std::string_view needle(state.find_text.data());
  const editor::FindOptions find_options{.match_case = state.match_case};

  draw->PushClipRect(ImVec2(g.window_pos.x + g.gutter, g.window_pos.y), window_end, true);
  for (int row = first_row; row <= last_row; ++row) {
    const int line = wrap.line_of_row(row);
    const std::string& text = model.line(line);
    const int begin = wrap.row_begin(row);
    const int end = wrap.row_end(row, text);
    const bool last_of_line = end >= static_cast<int>(text.size());
    const float y = g.text_origin.y + static_cast<float>(row) * g.line_height;
    const int begin_cells = editor::visual_column(text, begin, model.tab_size());
    // A byte column of this row (clamped to it) on screen.
    const auto x_at = [&](int column) {
      column = std::clamp(column, begin, end);
      return g.text_origin.x +
             static_cast<float>(editor::visual_column(text, column, model.tab_size()) -
                                begin_cells) *
                 g.cell;
    };
    if (line == cursor.line && !model.has_selection()) {
      draw->AddRectFilled(ImVec2(g.window_pos.x + g.gutter, y),
                          ImVec2(window_end.x, y + g.line_height), colors.current_line);
    }
    if (state.find_open && !needle.empty()) {
      for (int at : editor::find_in_line(text, needle, find_options)) {
        const int stop = at + static_cast<int>(needle.size());
        if (stop <= begin || at >= end) continue;
        draw->AddRectFilled(ImVec2(x_at(at), y), ImVec2(x_at(stop), y + g.line_height),
                            colors.find_match);
      }
    }
    if (model.has_selection() && line >= selection.begin.line && line <= selection.end.line) {
      const int from = line == selection.begin.line ? selection.begin.column : 0;
      const int to =
          line == selection.end.line ? selection.end.column : static_cast<int>(text.size());
      const bool in_row = to > begin && from < end;
      const bool carries_newline = line < selection.end.line && last_of_line;
      if (in_row || carries_newline) {
        const float newline = carries_newline ? g.cell * 0.5f : 0.0f;
        draw->AddRectFilled(ImVec2(x_at(from), y), ImVec2(x_at(to) + newline, y + g.line_height),
                            colors.selection);
      }
    }
    // Tokens, each split at tabs (so that every piece starts at its own cell) and at the row's
    // edges.
    if (line < static_cast<int>(state.tokens.size())) {
      for (const editor::Token& token : state.tokens[line]) {
        const int token_begin = std::max(token.begin, begin);
        const int token_end = std::min(token.end, end);
        if (token_begin >= token_end) continue;
        const ImU32 color = colors.tokens[static_cast<std::size_t>(token.kind)];
        int piece = token_begin;
        for (int at = token_begin; at <= token_end; ++at) {
          if (at < token_end && text[at] != '\t') continue;
          if (at > piece) {
            draw->AddText(font, font_size, ImVec2(x_at(piece), y + text_top), color,
                          text.data() + piece, text.data() + at);
          }
          piece = at + 1;
        }
      }
    }
  }

  // Compiler messages: an underline where they point, the message on hover.
  state.hovered_diagnostic_line = 0;
  const bool mouse_in_window =
      ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
  for (const editor::Diagnostic& diagnostic : options.diagnostics) {
    const int line = std::clamp(diagnostic.line - 1, 0, model.line_count() - 1);
    if (line < first || line > last) continue;
    const auto [from, to] = editor::underline_columns(model.line(line), diagnostic.column);
    // On the row where the underlined text starts, to its end or that row's end.
    const ImVec2 start = screen_of(model, wrap, g, {line, from});
    const int row = wrap.place(model.line(line), line, from).row;
    const int stop = std::min(to, wrap.row_end(row, model.line(line)));
    const float y = start.y;
    const float x1 = start.x;
    const float x2 =
        stop > from
            ? start.x + static_cast<float>(
                            editor::visual_column(model.line(line), stop, model.tab_size()) -
                            editor::visual_column(model.line(line), from, model.tab_size())) *
                            g.cell
            : x1 + g.cell;
    draw_wavy_line(draw, x1, x2, y + g.line_height - 2.0f, std::max(1.0f, g.cell * 0.15f),
                   severity_color(colors, diagnostic.severity));
    if (mouse_in_window && mouse.x >= x1 && mouse.x <= x2 && mouse.y >= y &&
        mouse.y < y + g.line_height) {
      state.hovered_diagnostic_line = line + 1;
    }
  }

  // The cursor, blinking only while it stands still.
  if (state.focused) {
    const double still = ImGui::GetTime() - state.last_cursor_move_time;
    if (still < 0.5 || std::fmod(still, 1.0) < 0.5) {
      const ImVec2 at = screen_of(model, wrap, g, cursor);
      const float x = at.x;
      const float y = at.y;
      draw->AddRectFilled(ImVec2(x, y),
                          ImVec2(x + std::max(1.0f, g.cell * 0.12f), y + g.line_height),
                          colors.cursor);
    }
  }
  draw->PopClipRect();

  // The gutter stays put while the text scrolls sideways.
  draw->AddRectFilled(g.window_pos, ImVec2(g.window_pos.x + g.gutter, window_end.y),
                      colors.gutter_background);
  char number[16];
  for (int line = first; line <= last; ++line) {
    // The number on the line's first row; a wrapped line's other rows have none.
    const int row = wrap.first_row(line);
    if (row < first_row || row > last_row) continue;
    const float y = g.text_origin.y + static_cast<float>(row) * g.line_height;
    const int length = std::snprintf(number, sizeof number, "%d", line + 1);
    const float x = g.window_pos.x + g.gutter - g.cell * (1.0f + static_cast<float>(length));
    draw->AddText(font, font_size, ImVec2(x, y + text_top),
                  line == cursor.line ? colors.current_line_number : colors.line_number, number,
                  number + length);
  }
  // One mark per line with messages, in the colour of the most severe.
  std::vector<std::pair<int, Severity>> marks;
  for (const editor::Diagnostic& diagnostic : options.diagnostics) {
    const int line = std::clamp(diagnostic.line - 1, 0, model.line_count() - 1);
    auto mark = std::find_if(marks.begin(), marks.end(), [&](auto& m) { return m.first == line; });
    if (mark == marks.end()) {
      marks.emplace_back(line, diagnostic.severity);
    } else {
      mark->second = std::min(mark->second, diagnostic.severity);  // kError sorts first
    }
  }
  for (const auto& [line, severity] : marks) {
    const int row = wrap.first_row(line);
    if (row < first_row || row > last_row) continue;
    const float y = g.text_origin.y + static_cast<float>(row) * g.line_height;
    const ImVec2 center(g.window_pos.x + g.cell * 0.9f, y + g.line_height * 0.5f);
    draw->AddCircleFilled(center, std::min(g.cell * 0.45f, g.line_height * 0.3f),
                          severity_color(colors, severity));
    if (mouse_in_window && mouse.x >= g.window_pos.x && mouse.x < g.window_pos.x + g.gutter &&
        mouse.y >= y && mouse.y < y + g.line_height) {
      state.hovered_diagnostic_line = line + 1;
    }
  }
  if (model.read_only()) {
    const char* label = "read-only";
    const float width = font->CalcTextSizeA(font_size, FLT_MAX, 0.0f, label).x;
    draw->AddText(font, font_size, ImVec2(window_end.x - width - g.cell, g.window_pos.y + 2.0f),
                  colors.read_only_label, label);
  }

  ImGui::EndChild();
  ImGui::PopStyleColor();
  ImGui::PopFont();

  if (state.hovered_diagnostic_line > 0) {
    ImGui::BeginTooltip();
    for (const editor::Diagnostic& diagnostic : options.diagnostics) {
      if (std::clamp(diagnostic.line, 1, model.line_count()) != state.hovered_diagnostic_line)
        continue;
      ImGui::PushStyleColor(ImGuiCol_Text, severity_color(colors, diagnostic.severity));
      ImGui::TextUnformatted(editor::severity_name(diagnostic.severity).data());
      ImGui::PopStyleColor();
      ImGui::SameLine();
      ImGui::TextUnformatted(diagnostic.message.c_str());
      if (!diagnostic.detail.empty()) ImGui::TextDisabled("%s", diagnostic.detail.c_str());
    }
    ImGui::EndTooltip();
  }

  state.text_origin = g.text_origin;
  state.cell_width = g.cell;
  state.line_height = g.line_height;
  state.visible_lines = page_lines + 1;
  ImGui::PopID();
  return {.text_changed = model.version() != version_before};
}

}  // namespace tl::ui
