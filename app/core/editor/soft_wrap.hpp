#pragma once
// Soft wrap: long lines drawn on several screen rows instead of scrolling sideways (a CUDA kernel's
// signature is wider than a laptop's editor column). Only the drawing wraps: the text, its lines
// and the compiler's line numbers stay as they are. With no width every line is one row, so the
// editor lays out wrapped and unwrapped text the same way.

#include <string>
#include <vector>

#include "core/editor/text_model.hpp"

namespace tl::editor {

// The byte columns where the rows of `line` start (the first is 0) for rows at most `width` cells
// wide (tabs to their stops, as visual_column counts them): a row ends after the last blank that
// fits, else at the width (never inside a UTF-8 character). `width` < 1: one row.
[[nodiscard]] std::vector<int> wrap_row_starts(std::string_view line, int width, int tab_size);

// Where a row is on screen.
struct RowPlace {
  int row = 0;   // counted over the whole text
  int cell = 0;  // from the row's left edge
};

class WrapMap {
 public:
  WrapMap() = default;
  // The rows of every line of `lines` at `width` cells (< 1: one row per line).
  WrapMap(const std::vector<std::string>& lines, int width, int tab_size);

  [[nodiscard]] int rows() const { return first_row_.empty() ? 0 : first_row_.back(); }
  [[nodiscard]] int first_row(int line) const { return first_row_[line]; }
  [[nodiscard]] int row_count(int line) const { return first_row_[line + 1] - first_row_[line]; }
  // The line a row shows, and the byte column its text starts at and ends before.
  [[nodiscard]] int line_of_row(int row) const;
  [[nodiscard]] int row_begin(int row) const;
  [[nodiscard]] int row_end(int row, const std::string& line) const;
  // The row and cell of a position: a column where a row starts belongs to that row (the line's
  // end stays on its last row).
  [[nodiscard]] RowPlace place(const std::string& line, int line_index, int column) const;
  // The position nearest cell `cell` of row `row` (clamped to the text).
  [[nodiscard]] TextPosition position_at(const std::vector<std::string>& lines, int row,
                                         float cell) const;

 private:
  int tab_size_ = 4;
  std::vector<std::vector<int>> starts_;  // per line, its rows' first byte columns
  std::vector<int> first_row_;            // per line, its first row; the last entry: all rows
};

}  // namespace tl::editor
