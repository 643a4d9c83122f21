#include "core/editor/soft_wrap.hpp"

#include <algorithm>
#include <cmath>

#include "core/editor/text_layout.hpp"

namespace tl::editor {

std::vector<int> wrap_row_starts(std::string_view line, int width, int tab_size) {
  std::vector<int> starts = {0};
  if (width < 1) return starts;
  const int size = static_cast<int>(line.size());
  int start = 0;
  while (true) {
    // Walk the row's characters while they fit, remembering the last blank.
    int cells = 0;
    int at = start;
    int after_blank = -1;
    while (at < size) {
      const int next_cells = line[at] == '\t' ? (cells / tab_size + 1) * tab_size : cells + 1;
      if (next_cells > width && at > start) break;
      cells = next_cells;
      const bool blank = line[at] == ' ' || line[at] == '\t';
      at = next_code_point(line, at);
      if (blank) after_blank = at;
    }
    if (at >= size) break;
    // The next row starts after the last blank that fit, unless that leaves this row empty.
    start = after_blank > start ? after_blank : at;
    starts.push_back(start);
  }
  return starts;
}

WrapMap::WrapMap(const std::vector<std::string>& lines, int width, int tab_size)
    : tab_size_(tab_size) {
  starts_.reserve(lines.size());
  first_row_.reserve(lines.size() + 1);
  int row = 0;
  for (const std::string& line : lines) {
    first_row_.push_back(row);
    starts_.push_back(wrap_row_starts(line, width, tab_size));
    row += static_cast<int>(starts_.back().size());
  }
  first_row_.push_back(row);
}

int WrapMap::line_of_row(int row) const {
  const auto after = std::upper_bound(first_row_.begin(), first_row_.end() - 1, row);
  return std::max(0, static_cast<int>(after - first_row_.begin()) - 1);
}

int WrapMap::row_begin(int row) const {
  const int line = line_of_row(row);
  return starts_[line][static_cast<std::size_t>(row - first_row_[line])];
}

int WrapMap::row_end(int row, const std::string& line_text) const {
  const int line = line_of_row(row);
  const std::size_t index = static_cast<std::size_t>(row - first_row_[line]) + 1;
  return index < starts_[line].size() ? starts_[line][index] : static_cast<int>(line_text.size());
}

RowPlace WrapMap::place(const std::string& line, int line_index, int column) const {
  const std::vector<int>& starts = starts_[line_index];
  std::size_t index = 0;
  while (index + 1 < starts.size() && starts[index + 1] <= column) ++index;
  const int begin = starts[index];
  return {first_row_[line_index] + static_cast<int>(index),
          visual_column(line, column, tab_size_) - visual_column(line, begin, tab_size_)};
}

TextPosition WrapMap::position_at(const std::vector<std::string>& lines, int row,
                                  float cell) const {
  row = std::clamp(row, 0, std::max(rows() - 1, 0));
  const int line = line_of_row(row);
  const std::string& text = lines[line];
  const int begin = row_begin(row);
  const int end = row_end(row, text);
  // Cells counted from the row's start, through the line's own cells (tabs keep their stops).
  const float line_cell = cell + static_cast<float>(visual_column(text, begin, tab_size_));
  int column = column_at_visual(text, line_cell, tab_size_);
  // A click past a wrapped row's end lands at that end, before the next row's first character.
  const bool last_row = end >= static_cast<int>(text.size());
  if (!last_row && column >= end) column = previous_code_point(text, end);
  return {line, std::clamp(column, begin, end)};
}

}  // namespace tl::editor
