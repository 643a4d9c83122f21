#pragma once
// The code editor's text: lines, the cursor and its selection, edits, undo/redo and find. No ImGui
// here: the widget (ui/widgets/code_editor) turns keys and clicks into these calls and draws the
// result, so everything an edit does is tested without a window.
//
// Positions are (line, byte column) into UTF-8 lines; movement steps over whole code points, and
// text_layout.hpp turns byte columns into the on-screen columns a monospace font draws.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tl::editor {

struct TextPosition {
  int line = 0;
  int column = 0;  // byte offset into the line
  auto operator<=>(const TextPosition&) const = default;
};

// An ordered range: begin <= end.
struct TextRange {
  TextPosition begin;
  TextPosition end;
  [[nodiscard]] bool empty() const { return begin == end; }
  bool operator==(const TextRange&) const = default;
};

struct FindOptions {
  bool match_case = false;
};

// Byte columns where `needle` starts in `line`, left to right, not overlapping (the find bar
// marks every match on the lines it draws).
[[nodiscard]] std::vector<int> find_in_line(std::string_view line, std::string_view needle,
                                            FindOptions options = {});

// How far the text indents one level: the most common step between the leading spaces of
// consecutive lines (the Lab's starters use 2), or `fallback` where no line is indented.
[[nodiscard]] int indent_width(std::string_view text, int fallback = 2);

class TextModel {
 public:
  static constexpr int kDefaultTabSize = 4;

  explicit TextModel(std::string_view text = {});

  // Replaces the whole text (a file loaded, "Reset", "Show solution"): no undo history, cursor at
  // the start, not changed. Windows line ends become plain ones.
  void set_text(std::string_view text);
  // The lines joined by '\n'.
  [[nodiscard]] std::string text() const;
  [[nodiscard]] int line_count() const { return static_cast<int>(lines_.size()); }
  [[nodiscard]] const std::string& line(int index) const { return lines_[index]; }
  [[nodiscard]] const std::vector<std::string>& lines() const { return lines_; }

  [[nodiscard]] int tab_size() const { return tab_size_; }
  void set_tab_size(int spaces) { tab_size_ = spaces < 1 ? 1 : spaces; }

  // Brackets in pairs (off unless asked): '(' '[' '{' typed before a blank, a closer, ';' ',' or
  // the line's end also put their closer after the cursor; a closer typed just before the same
  // closer steps over it; Backspace between an empty pair removes both. One undo step with the
  // typing around it.
  [[nodiscard]] bool auto_close() const { return auto_close_; }
  void set_auto_close(bool on) { auto_close_ = on; }

  // Read-only text (a shown solution) still moves, selects, copies and finds; edits do nothing.
  [[nodiscard]] bool read_only() const { return read_only_; }
  void set_read_only(bool read_only) { read_only_ = read_only; }

  // ---- cursor and selection ----
  [[nodiscard]] TextPosition cursor() const { return cursor_; }
  [[nodiscard]] TextPosition anchor() const { return anchor_; }
  [[nodiscard]] bool has_selection() const { return cursor_ != anchor_; }
  [[nodiscard]] TextRange selection() const;
  [[nodiscard]] std::string selected_text() const;
  [[nodiscard]] std::string text_in(TextRange range) const;
  // Moves the cursor to `position` (clamped into the text, onto a code point boundary); with
  // `extend_selection` the anchor stays, else it follows.
  void set_cursor(TextPosition position, bool extend_selection = false);
  void select(TextRange range);  // anchor at begin, cursor at end
  void select_all();
  void select_word_at(TextPosition position);
  [[nodiscard]] TextPosition clamp(TextPosition position) const;

  void move_left(bool extend_selection = false);
  void move_right(bool extend_selection = false);
  void move_word_left(bool extend_selection = false);
  void move_word_right(bool extend_selection = false);
  // Up and down keep the on-screen column the cursor had when vertical movement began.
  void move_up(int lines = 1, bool extend_selection = false);
  void move_down(int lines = 1, bool extend_selection = false);
  // Home goes to the first non-blank character, and from there to column 0.
  void move_home(bool extend_selection = false);
  void move_end(bool extend_selection = false);
  void move_to_start(bool extend_selection = false);
  void move_to_end(bool extend_selection = false);

  // ---- edits (each does nothing in read-only mode; each is one undo step unless noted) ----
  // Typed text: consecutive typed characters join one undo step until a word ends, the cursor
  // moves elsewhere or another kind of edit comes between.
  void type_text(std::string_view text);
  // Replaces the selection by `text` (a paste); '\r\n' becomes '\n'.
  void insert_text(std::string_view text);
  // Enter: a line break indented as the line it splits, one level deeper after '{'; between '{'
  // and '}' the '}' moves to its own line at the outer level.
  void new_line();
  // Tab: spaces up to the next tab stop; with a selection over several lines, indents them all.
  void indent();
  // Shift+Tab: removes up to one level of leading spaces from the cursor's (or selection's) lines.
  void unindent();
  // Backspace: the selection, else the code point before the cursor; inside leading spaces it
  // removes back to the previous tab stop. Consecutive backspaces join one undo step.
  void backspace();
  // Delete: the selection, else the code point after the cursor (or the line break).
  void delete_forward();
  void delete_selection();
  // Ctrl+X: returns the selected text and removes it.
  std::string cut();

  // ---- undo ----
  bool undo();
  bool redo();
  [[nodiscard]] bool can_undo() const { return !undo_stack_.empty(); }
  [[nodiscard]] bool can_redo() const { return !redo_stack_.empty(); }

  // ---- changes, for autosave ----
  // Differs from the last saved text (undoing back to it counts as unchanged).
  [[nodiscard]] bool changed() const { return state_id_ != saved_state_id_; }
  // Also ends the typed run, so that undo comes back to exactly the saved text.
  void mark_saved();
  // Grows by one on every change of the text (edits, undo, redo, set_text): poll it to know
  // whether to save or re-highlight.
  [[nodiscard]] std::uint64_t version() const { return version_; }

  // ---- find ----
  // The next match at or after the end of the selection (wrapping around), selected; nothing
  // when there is none or `needle` is empty.
  std::optional<TextRange> find_next(std::string_view needle, FindOptions options = {});
  // The previous match before the start of the selection (wrapping around), selected.
  std::optional<TextRange> find_previous(std::string_view needle, FindOptions options = {});
  [[nodiscard]] int count_matches(std::string_view needle, FindOptions options = {}) const;
  // Replace: where the selection is a match of `needle`, it becomes `replacement` (one undoable
  // edit) and the next match is selected; otherwise the next match is only selected, so that the
  // learner sees what a second press replaces. False when there is no match at all.
  bool replace_next(std::string_view needle, std::string_view replacement,
                    FindOptions options = {});
  // Every match (within lines, left to right, not overlapping) replaced as one undoable edit;
  // returns how many.
  int replace_all(std::string_view needle, std::string_view replacement, FindOptions options = {});

 private:
  // One undoable edit: at `at`, `removed` was replaced by `inserted`.
  struct Edit {
    TextPosition at;
    std::string removed;
    std::string inserted;
  };
  enum class GroupKind { kOther, kTyping, kBackspace };
  struct UndoGroup {
    std::vector<Edit> edits;
    TextPosition cursor_before, anchor_before;
    TextPosition cursor_after, anchor_after;
    GroupKind kind = GroupKind::kOther;
    std::uint64_t state_id = 0;  // the text state this group leads to
    bool closed = false;         // a later typed run may not join it
  };

  // Low level: replace `range` by `text`, returning where the inserted text ends. No undo.
  TextPosition replace_raw(TextRange range, std::string_view text);
  // Replace, recorded in the group being built.
  TextPosition replace(TextRange range, std::string_view text);
  // Every edit runs between these: begin joins the top undo group when it is an open run of the
  // same `kind` ending where the cursor is, else starts a new group; end pushes it.
  void begin_group(GroupKind kind);
  void end_group();
  void close_open_group();
  [[nodiscard]] TextPosition end_of_insert(TextPosition at, std::string_view text) const;
  [[nodiscard]] int visual_column_of(TextPosition position) const;
  [[nodiscard]] int first_non_blank(int line) const;
  [[nodiscard]] std::optional<TextRange> find_from(std::string_view needle, FindOptions options,
                                                   TextPosition from, bool forward) const;

  std::vector<std::string> lines_{std::string()};
  TextPosition cursor_;
  TextPosition anchor_;
  std::optional<int> preferred_visual_column_;  // kept across up/down moves
  int tab_size_ = kDefaultTabSize;
  bool read_only_ = false;
  bool auto_close_ = false;

  std::vector<UndoGroup> undo_stack_;
  std::vector<UndoGroup> redo_stack_;
  std::optional<UndoGroup> building_;  // the group the current operation adds to
  std::size_t building_edits_before_ = 0;
  std::uint64_t next_state_id_ = 1;
  std::uint64_t state_id_ = 0;
  std::uint64_t saved_state_id_ = 0;
  std::uint64_t base_state_id_ = 0;  // the state set_text left, below every undo group
  std::uint64_t version_ = 0;
};

}  // namespace tl::editor
