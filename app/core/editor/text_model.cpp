#include "core/editor/text_model.hpp"

#include <algorithm>
#include <utility>

#include "core/editor/text_layout.hpp"

namespace tl::editor {
namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines(1);
  for (char c : text) {
    if (c == '\r') continue;  // "\r\n" files load as plain '\n' lines
    if (c == '\n') {
      lines.emplace_back();
    } else {
      lines.back().push_back(c);
    }
  }
  return lines;
}

std::string without_carriage_returns(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != '\r') out.push_back(c);
  }
  return out;
}

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// Identifier characters, and any non-ASCII byte (a word in a comment may be "σ(Wx+b)").
bool is_word(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_';
}

// The closer of an opening bracket, or 0.
char closer_for(char c) {
  switch (c) {
    case '(':
      return ')';
    case '[':
      return ']';
    case '{':
      return '}';
    default:
      return 0;
  }
}

bool is_closer(char c) {
  return c == ')' || c == ']' || c == '}';
}

char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lowered(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

}  // namespace

std::vector<int> find_in_line(std::string_view line, std::string_view needle, FindOptions options) {
  std::vector<int> found;
  if (needle.empty()) return found;
  std::string haystack(line);
  std::string pattern(needle);
  if (!options.match_case) {
    haystack = lowered(haystack);
    pattern = lowered(pattern);
  }
  for (std::size_t at = haystack.find(pattern); at != std::string::npos;
       at = haystack.find(pattern, at + pattern.size())) {
    found.push_back(static_cast<int>(at));
  }
  return found;
}

int indent_width(std::string_view text, int fallback) {
  // Steps up in leading spaces between consecutive non-blank lines, counted by size.
  std::vector<int> counts(17, 0);
  int previous = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const std::size_t first = line.find_first_not_of(' ');
    if (first != std::string_view::npos && line[first] != '\t' && line[first] != '\r') {
      const int spaces = static_cast<int>(first);
      const int step = spaces - previous;
      if (step > 0 && step < static_cast<int>(counts.size())) ++counts[step];
      previous = spaces;
    }
    start = end + 1;
  }
  int best = 0;
  for (int step = 1; step < static_cast<int>(counts.size()); ++step) {
    if (counts[step] > counts[best]) best = step;
  }
  return best == 0 ? fallback : best;
}

TextModel::TextModel(std::string_view text) {
  set_text(text);
}

void TextModel::set_text(std::string_view text) {
  lines_ = split_lines(text);
  cursor_ = anchor_ = {};
  preferred_visual_column_.reset();
  undo_stack_.clear();
  redo_stack_.clear();
  building_.reset();
  state_id_ = next_state_id_++;
  base_state_id_ = state_id_;
  saved_state_id_ = state_id_;
  ++version_;
}

std::string TextModel::text() const {
  std::string out;
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    if (i > 0) out.push_back('\n');
    out += lines_[i];
  }
  return out;
}

// ---- cursor and selection ----

TextRange TextModel::selection() const {
  return cursor_ < anchor_ ? TextRange{cursor_, anchor_} : TextRange{anchor_, cursor_};
}

std::string TextModel::text_in(TextRange range) const {
  if (range.end < range.begin) std::swap(range.begin, range.end);
  range.begin = clamp(range.begin);
  range.end = clamp(range.end);
  if (range.begin.line == range.end.line) {
    return lines_[range.begin.line].substr(range.begin.column,
                                           range.end.column - range.begin.column);
  }
  std::string out = lines_[range.begin.line].substr(range.begin.column);
  for (int line = range.begin.line + 1; line < range.end.line; ++line) {
    out.push_back('\n');
    out += lines_[line];
  }
  out.push_back('\n');
  out += lines_[range.end.line].substr(0, range.end.column);
  return out;
}

std::string TextModel::selected_text() const {
  return text_in(selection());
}

TextPosition TextModel::clamp(TextPosition position) const {
  position.line = std::clamp(position.line, 0, line_count() - 1);
  position.column = code_point_start(lines_[position.line], position.column);
  return position;
}

void TextModel::set_cursor(TextPosition position, bool extend_selection) {
  preferred_visual_column_.reset();
  close_open_group();
  cursor_ = clamp(position);
  if (!extend_selection) anchor_ = cursor_;
}

void TextModel::select(TextRange range) {
  set_cursor(range.begin);
  set_cursor(range.end, /*extend_selection=*/true);
}

void TextModel::select_all() {
  select({{0, 0}, {line_count() - 1, static_cast<int>(lines_.back().size())}});
}

void TextModel::select_word_at(TextPosition position) {
  position = clamp(position);
  const std::string& text = lines_[position.line];
  int begin = position.column;
  int end = position.column;
  // On the boundary after a word (a double click past its last letter), take that word.
  if ((end >= static_cast<int>(text.size()) || !is_word(text[end])) && begin > 0 &&
      is_word(text[begin - 1])) {
    --begin;
  }
  if (begin < static_cast<int>(text.size()) && is_word(text[begin])) {
    while (begin > 0 && is_word(text[begin - 1])) --begin;
    end = std::max(end, begin);
    while (end < static_cast<int>(text.size()) && is_word(text[end])) ++end;
  } else if (end < static_cast<int>(text.size())) {
    end = next_code_point(text, end);  // a single punctuation or blank character
  }
  select({{position.line, begin}, {position.line, end}});
}

void TextModel::move_left(bool extend_selection) {
  if (has_selection() && !extend_selection) {
    set_cursor(selection().begin);
    return;
  }
  if (cursor_.column > 0) {
    set_cursor({cursor_.line, previous_code_point(lines_[cursor_.line], cursor_.column)},
               extend_selection);
  } else if (cursor_.line > 0) {
    set_cursor({cursor_.line - 1, static_cast<int>(lines_[cursor_.line - 1].size())},
               extend_selection);
  } else {
    set_cursor(cursor_, extend_selection);
  }
}

void TextModel::move_right(bool extend_selection) {
  if (has_selection() && !extend_selection) {
    set_cursor(selection().end);
    return;
  }
  if (cursor_.column < static_cast<int>(lines_[cursor_.line].size())) {
    set_cursor({cursor_.line, next_code_point(lines_[cursor_.line], cursor_.column)},
               extend_selection);
  } else if (cursor_.line + 1 < line_count()) {
    set_cursor({cursor_.line + 1, 0}, extend_selection);
  } else {
    set_cursor(cursor_, extend_selection);
  }
}

void TextModel::move_word_left(bool extend_selection) {
  TextPosition at = cursor_;
  if (at.column == 0) {
    if (at.line > 0) at = {at.line - 1, static_cast<int>(lines_[at.line - 1].size())};
    set_cursor(at, extend_selection);
    return;
  }
  const std::string& text = lines_[at.line];
  int c = at.column;
  while (c > 0 && is_blank(text[c - 1])) --c;
  if (c > 0 && is_word(text[c - 1])) {
    while (c > 0 && is_word(text[c - 1])) --c;
  } else {
    while (c > 0 && !is_word(text[c - 1]) && !is_blank(text[c - 1])) --c;
  }
  set_cursor({at.line, c}, extend_selection);
}

void TextModel::move_word_right(bool extend_selection) {
  TextPosition at = cursor_;
  const std::string& text = lines_[at.line];
  const int size = static_cast<int>(text.size());
  if (at.column >= size) {
    if (at.line + 1 < line_count()) at = {at.line + 1, 0};
    set_cursor(at, extend_selection);
    return;
  }
  int c = at.column;
  if (is_word(text[c])) {
    while (c < size && is_word(text[c])) ++c;
  } else if (!is_blank(text[c])) {
    while (c < size && !is_word(text[c]) && !is_blank(text[c])) ++c;
  }
  while (c < size && is_blank(text[c])) ++c;
  set_cursor({at.line, c}, extend_selection);
}

int TextModel::visual_column_of(TextPosition position) const {
  return visual_column(lines_[position.line], position.column, tab_size_);
}

void TextModel::move_up(int lines, bool extend_selection) {
  const int visual = preferred_visual_column_.value_or(visual_column_of(cursor_));
  if (cursor_.line == 0) {
    set_cursor({0, 0}, extend_selection);
    return;
  }
  const int target = std::max(0, cursor_.line - std::max(lines, 1));
  set_cursor({target, column_at_visual(lines_[target], static_cast<float>(visual), tab_size_)},
             extend_selection);
  preferred_visual_column_ = visual;
}

void TextModel::move_down(int lines, bool extend_selection) {
  const int visual = preferred_visual_column_.value_or(visual_column_of(cursor_));
  if (cursor_.line + 1 >= line_count()) {
    set_cursor({cursor_.line, static_cast<int>(lines_[cursor_.line].size())}, extend_selection);
    return;
  }
  const int target = std::min(line_count() - 1, cursor_.line + std::max(lines, 1));
  set_cursor({target, column_at_visual(lines_[target], static_cast<float>(visual), tab_size_)},
             extend_selection);
  preferred_visual_column_ = visual;
}

int TextModel::first_non_blank(int line) const {
  const std::string& text = lines_[line];
  int c = 0;
  while (c < static_cast<int>(text.size()) && is_blank(text[c])) ++c;
  return c;
}

void TextModel::move_home(bool extend_selection) {
  const int indent = first_non_blank(cursor_.line);
  set_cursor({cursor_.line, cursor_.column == indent ? 0 : indent}, extend_selection);
}

void TextModel::move_end(bool extend_selection) {
  set_cursor({cursor_.line, static_cast<int>(lines_[cursor_.line].size())}, extend_selection);
}

void TextModel::move_to_start(bool extend_selection) {
  set_cursor({0, 0}, extend_selection);
}

void TextModel::move_to_end(bool extend_selection) {
  set_cursor({line_count() - 1, static_cast<int>(lines_.back().size())}, extend_selection);
}

// ---- raw edits and undo groups ----

TextPosition TextModel::end_of_insert(TextPosition at, std::string_view text) const {
  for (char c : text) {
    if (c == '\n') {
      ++at.line;
      at.column = 0;
    } else {
      ++at.column;
    }
  }
  return at;
}

TextPosition TextModel::replace_raw(TextRange range, std::string_view text) {
  const std::string prefix = lines_[range.begin.line].substr(0, range.begin.column);
  const std::string suffix = lines_[range.end.line].substr(range.end.column);
  std::vector<std::string> pieces = split_lines(text);
  const TextPosition end{
      range.begin.line + static_cast<int>(pieces.size()) - 1,
      static_cast<int>((pieces.size() == 1 ? prefix.size() : 0) + pieces.back().size())};
  pieces.front().insert(0, prefix);
  pieces.back() += suffix;
  lines_.erase(lines_.begin() + range.begin.line, lines_.begin() + range.end.line + 1);
  lines_.insert(lines_.begin() + range.begin.line, std::make_move_iterator(pieces.begin()),
                std::make_move_iterator(pieces.end()));
  ++version_;
  return end;
}

void TextModel::begin_group(GroupKind kind) {
  preferred_visual_column_.reset();
  if (kind != GroupKind::kOther && !undo_stack_.empty()) {
    UndoGroup& top = undo_stack_.back();
    if (top.kind == kind && !top.closed && top.cursor_after == cursor_ &&
        top.anchor_after == anchor_) {
      building_ = std::move(top);
      undo_stack_.pop_back();
      building_edits_before_ = building_->edits.size();
      return;
    }
  }
  close_open_group();
  building_ = UndoGroup{};  // not emplace(): clang judges UndoGroup before its class is complete
  building_->cursor_before = cursor_;
  building_->anchor_before = anchor_;
  building_->kind = kind;
  building_edits_before_ = 0;
}

void TextModel::end_group() {
  UndoGroup group = std::move(*building_);
  building_.reset();
  const bool joined = group.state_id != 0;  // only groups already on the stack have an id
  if (group.edits.size() == building_edits_before_) {
    if (joined) undo_stack_.push_back(std::move(group));  // nothing happened: put it back as it was
    return;
  }
  group.cursor_after = cursor_;
  group.anchor_after = anchor_;
  group.state_id = next_state_id_++;  // a joined group leads to a new text state too
  state_id_ = group.state_id;
  undo_stack_.push_back(std::move(group));
  redo_stack_.clear();
}

void TextModel::close_open_group() {
  if (!undo_stack_.empty()) undo_stack_.back().closed = true;
}

TextPosition TextModel::replace(TextRange range, std::string_view text) {
  const std::string clean = without_carriage_returns(text);
  building_->edits.push_back({range.begin, text_in(range), clean});
  return replace_raw(range, clean);
}

// ---- edits ----

void TextModel::type_text(std::string_view text) {
  if (read_only_ || text.empty()) return;
  if (text == "\n") {
    new_line();
    return;
  }
  const std::string& here = lines_[cursor_.line];
  const char next = cursor_.column < static_cast<int>(here.size()) ? here[cursor_.column] : '\0';
  const bool one_char = text.size() == 1 && !has_selection();
  // A closer typed just before the same closer steps over it (the pair's own, usually), staying
  // in the typed run.
  if (auto_close_ && one_char && is_closer(text[0]) && next == text[0]) {
    UndoGroup* run = nullptr;
    if (!undo_stack_.empty()) {
      UndoGroup& top = undo_stack_.back();
      if (top.kind == GroupKind::kTyping && !top.closed && top.cursor_after == cursor_ &&
          top.anchor_after == anchor_) {
        run = &top;
      }
    }
    preferred_visual_column_.reset();
    ++cursor_.column;
    anchor_ = cursor_;
    if (run != nullptr) run->cursor_after = run->anchor_after = cursor_;
    return;
  }
  const char closer = auto_close_ && one_char ? closer_for(text[0]) : '\0';
  const bool pair = closer != '\0' && (next == '\0' || is_blank(next) || is_closer(next) ||
                                       next == ';' || next == ',');
  // A word ends where a blank follows a non-blank: the next letter starts a new undo step.
  const bool starts_blank = is_blank(text.front());
  const bool after_blank =
      cursor_.column == 0 || is_blank(lines_[cursor_.line][cursor_.column - 1]);
  if (starts_blank && !after_blank) close_open_group();
  if (has_selection()) close_open_group();
  begin_group(GroupKind::kTyping);
  // A '}' typed on a line of only indentation closes a block: it goes one level out.
  const std::string& line = lines_[cursor_.line];
  if (text == "}" && !has_selection() && cursor_.column > 0 &&
      first_non_blank(cursor_.line) == static_cast<int>(line.size()) &&
      cursor_.column == static_cast<int>(line.size())) {
    const int remove = std::min(cursor_.column, tab_size_);
    cursor_ = replace({{cursor_.line, cursor_.column - remove}, cursor_}, "");
    anchor_ = cursor_;
  }
  cursor_ = anchor_ = replace(selection(), text);
  if (pair) replace({cursor_, cursor_}, std::string(1, closer));  // the cursor stays before it
  end_group();
}

void TextModel::insert_text(std::string_view text) {
  if (read_only_) return;
  begin_group(GroupKind::kOther);
  cursor_ = anchor_ = replace(selection(), text);
  end_group();
  close_open_group();
}

void TextModel::new_line() {
  if (read_only_) return;
  begin_group(GroupKind::kOther);
  const TextRange range = selection();
  const std::string& line = lines_[range.begin.line];
  const int indent_end = std::min(first_non_blank(range.begin.line), range.begin.column);
  std::string indent = line.substr(0, indent_end);
  int before = range.begin.column;
  while (before > 0 && is_blank(line[before - 1])) --before;
  const bool opens_block = before > 0 && line[before - 1] == '{';
  const std::string& end_line = lines_[range.end.line];
  int after = range.end.column;
  while (after < static_cast<int>(end_line.size()) && is_blank(end_line[after])) ++after;
  const bool closes_block = after < static_cast<int>(end_line.size()) && end_line[after] == '}';
  // The blanks around the break would only be trailing or doubled indentation: drop them.
  const TextRange replaced{{range.begin.line, before}, {range.end.line, after}};
  if (opens_block) {
    const std::string inner = indent + std::string(tab_size_, ' ');
    if (closes_block) {
      replace(replaced, "\n" + inner + "\n" + indent);
    } else {
      replace(replaced, "\n" + inner);
    }
    cursor_ = anchor_ = {range.begin.line + 1, static_cast<int>(inner.size())};
  } else {
    cursor_ = anchor_ = replace(replaced, "\n" + indent);
  }
  end_group();
  close_open_group();
}

void TextModel::indent() {
  if (read_only_) return;
  const TextRange range = selection();
  begin_group(GroupKind::kOther);
  if (range.begin.line == range.end.line) {
    const int visual = visual_column_of(range.begin);
    const std::string spaces(tab_size_ - visual % tab_size_, ' ');
    cursor_ = anchor_ = replace(range, spaces);
  } else {
    // A selection ending at a line's start does not take that line with it.
    const int last = range.end.column == 0 ? range.end.line - 1 : range.end.line;
    const std::string spaces(tab_size_, ' ');
    for (int line = range.begin.line; line <= last; ++line) {
      if (lines_[line].empty()) continue;  // no trailing blanks on empty lines
      replace({{line, 0}, {line, 0}}, spaces);
      if (cursor_.line == line) cursor_.column += tab_size_;
      if (anchor_.line == line) anchor_.column += tab_size_;
    }
  }
  end_group();
  close_open_group();
}

void TextModel::unindent() {
  if (read_only_) return;
  const TextRange range = selection();
  const int last = range.end.column == 0 && range.end.line > range.begin.line ? range.end.line - 1
                                                                              : range.end.line;
  begin_group(GroupKind::kOther);
  for (int line = range.begin.line; line <= last; ++line) {
    int remove = 0;
    while (remove < tab_size_ && remove < static_cast<int>(lines_[line].size()) &&
           lines_[line][remove] == ' ') {
      ++remove;
    }
    if (remove == 0) continue;
    replace({{line, 0}, {line, remove}}, "");
    if (cursor_.line == line) cursor_.column = std::max(0, cursor_.column - remove);
    if (anchor_.line == line) anchor_.column = std::max(0, anchor_.column - remove);
  }
  end_group();
  close_open_group();
}

void TextModel::delete_selection() {
  if (read_only_ || !has_selection()) return;
  begin_group(GroupKind::kOther);
  cursor_ = anchor_ = replace(selection(), "");
  end_group();
  close_open_group();
}

void TextModel::backspace() {
  if (read_only_) return;
  if (has_selection()) {
    delete_selection();
    return;
  }
  if (cursor_ == TextPosition{}) return;
  begin_group(GroupKind::kBackspace);
  TextPosition from;
  const std::string& here = lines_[cursor_.line];
  if (auto_close_ && cursor_.column > 0 && cursor_.column < static_cast<int>(here.size()) &&
      closer_for(here[cursor_.column - 1]) == here[cursor_.column]) {
    // Between an empty pair: both go.
    cursor_ = anchor_ =
        replace({{cursor_.line, cursor_.column - 1}, {cursor_.line, cursor_.column + 1}}, "");
    end_group();
    return;
  }
  if (cursor_.column == 0) {
    from = {cursor_.line - 1, static_cast<int>(lines_[cursor_.line - 1].size())};
  } else if (first_non_blank(cursor_.line) >= cursor_.column &&
             lines_[cursor_.line].compare(0, cursor_.column, std::string(cursor_.column, ' ')) ==
                 0) {
    // Inside indentation made of spaces: back to the previous tab stop.
    const int over = cursor_.column % tab_size_;
    from = {cursor_.line, cursor_.column - (over == 0 ? tab_size_ : over)};
  } else {
    from = {cursor_.line, previous_code_point(lines_[cursor_.line], cursor_.column)};
  }
  cursor_ = anchor_ = replace({from, cursor_}, "");
  end_group();
}

void TextModel::delete_forward() {
  if (read_only_) return;
  if (has_selection()) {
    delete_selection();
    return;
  }
  const std::string& line = lines_[cursor_.line];
  TextPosition to;
  if (cursor_.column < static_cast<int>(line.size())) {
    to = {cursor_.line, next_code_point(line, cursor_.column)};
  } else if (cursor_.line + 1 < line_count()) {
    to = {cursor_.line + 1, 0};
  } else {
    return;
  }
  begin_group(GroupKind::kOther);
  cursor_ = anchor_ = replace({cursor_, to}, "");
  end_group();
  close_open_group();
}

std::string TextModel::cut() {
  std::string text = selected_text();
  if (!read_only_) delete_selection();
  return text;
}

// ---- undo ----

bool TextModel::undo() {
  if (undo_stack_.empty()) return false;
  UndoGroup group = std::move(undo_stack_.back());
  undo_stack_.pop_back();
  for (auto edit = group.edits.rbegin(); edit != group.edits.rend(); ++edit) {
    replace_raw({edit->at, end_of_insert(edit->at, edit->inserted)}, edit->removed);
  }
  cursor_ = group.cursor_before;
  anchor_ = group.anchor_before;
  preferred_visual_column_.reset();
  group.closed = true;
  redo_stack_.push_back(std::move(group));
  // The state before this group is the one the group below it led to (or the loaded text).
  state_id_ = undo_stack_.empty() ? base_state_id_ : undo_stack_.back().state_id;
  return true;
}

bool TextModel::redo() {
  if (redo_stack_.empty()) return false;
  UndoGroup group = std::move(redo_stack_.back());
  redo_stack_.pop_back();
  for (const Edit& edit : group.edits) {
    replace_raw({edit.at, end_of_insert(edit.at, edit.removed)}, edit.inserted);
  }
  cursor_ = group.cursor_after;
  anchor_ = group.anchor_after;
  preferred_visual_column_.reset();
  state_id_ = group.state_id;
  undo_stack_.push_back(std::move(group));
  return true;
}

void TextModel::mark_saved() {
  saved_state_id_ = state_id_;
  close_open_group();
}

// ---- find ----

std::optional<TextRange> TextModel::find_from(std::string_view needle, FindOptions options,
                                              TextPosition from, bool forward) const {
  if (needle.empty()) return std::nullopt;
  std::string haystack = text();
  std::string pattern(needle);
  if (!options.match_case) {
    haystack = lowered(haystack);
    pattern = lowered(pattern);
  }
  std::vector<std::size_t> line_starts;
  std::size_t start = 0;
  for (const std::string& line : lines_) {
    line_starts.push_back(start);
    start += line.size() + 1;
  }
  const std::size_t offset = line_starts[from.line] + from.column;
  std::size_t found = std::string::npos;
  if (forward) {
    found = haystack.find(pattern, offset);
    if (found == std::string::npos) found = haystack.find(pattern);
  } else {
    if (offset > 0) found = haystack.rfind(pattern, offset - 1);
    if (found == std::string::npos) found = haystack.rfind(pattern);
  }
  if (found == std::string::npos) return std::nullopt;
  const auto to_position = [&](std::size_t at) {
    const auto line = std::upper_bound(line_starts.begin(), line_starts.end(), at) - 1;
    return TextPosition{static_cast<int>(line - line_starts.begin()), static_cast<int>(at - *line)};
  };
  return TextRange{to_position(found), to_position(found + pattern.size())};
}

std::optional<TextRange> TextModel::find_next(std::string_view needle, FindOptions options) {
  auto match = find_from(needle, options, selection().end, /*forward=*/true);
  if (match) select(*match);
  return match;
}

std::optional<TextRange> TextModel::find_previous(std::string_view needle, FindOptions options) {
  auto match = find_from(needle, options, selection().begin, /*forward=*/false);
  if (match) select(*match);
  return match;
}

bool TextModel::replace_next(std::string_view needle, std::string_view replacement,
                             FindOptions options) {
  if (needle.empty()) return false;
  const TextRange selected = selection();
  if (!read_only_ && selected.begin.line == selected.end.line && !selected.empty()) {
    const std::vector<int> here =
        find_in_line(lines_[selected.begin.line].substr(
                         selected.begin.column, selected.end.column - selected.begin.column),
                     needle, options);
    const bool is_match =
        !here.empty() && here.front() == 0 &&
        selected.end.column - selected.begin.column == static_cast<int>(needle.size());
    if (is_match) {
      begin_group(GroupKind::kOther);
      cursor_ = anchor_ = replace(selected, replacement);
      end_group();
      close_open_group();
    }
  }
  return find_next(needle, options).has_value();
}

int TextModel::replace_all(std::string_view needle, std::string_view replacement,
                           FindOptions options) {
  if (read_only_ || needle.empty()) return 0;
  int count = 0;
  begin_group(GroupKind::kOther);
  const TextPosition cursor_before = cursor_;
  for (int line = 0; line < line_count(); ++line) {
    const std::vector<int> found = find_in_line(lines_[line], needle, options);
    // Right to left, so that the columns still to replace stay where they were found.
    for (auto at = found.rbegin(); at != found.rend(); ++at) {
      replace({{line, *at}, {line, *at + static_cast<int>(needle.size())}}, replacement);
      ++count;
    }
  }
  cursor_ = anchor_ = clamp(cursor_before);
  end_group();
  close_open_group();
  return count;
}

int TextModel::count_matches(std::string_view needle, FindOptions options) const {
  if (needle.empty()) return 0;
  std::string haystack = text();
  std::string pattern(needle);
  if (!options.match_case) {
    haystack = lowered(haystack);
    pattern = lowered(pattern);
  }
  int count = 0;
  for (std::size_t at = haystack.find(pattern); at != std::string::npos;
       at = haystack.find(pattern, at + pattern.size())) {
    ++count;
  }
  return count;
}

}  // namespace tl::editor
