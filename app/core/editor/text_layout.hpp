#pragma once
// Where text lands on screen in a monospace font: byte columns of UTF-8 lines to on-screen cells
// (one per code point, tabs to the next tab stop) and back, and pixels to text positions. The
// widget draws and picks with these, so a click lands where the tests say it does.

#include <string_view>

#include "core/editor/text_model.hpp"

namespace tl::editor {

// The byte offset of the code point after (before) `column`; the line's end (0) at the ends.
[[nodiscard]] int next_code_point(std::string_view line, int column);
[[nodiscard]] int previous_code_point(std::string_view line, int column);
// `column` moved back onto the start of the code point it points into.
[[nodiscard]] int code_point_start(std::string_view line, int column);

// On-screen cell of byte `column` (tabs expand to the next multiple of `tab_size`).
[[nodiscard]] int visual_column(std::string_view line, int column, int tab_size);
// The byte column whose cell is nearest `cell` (rounding to the nearer edge of a character), the
// line's end when `cell` lies past it.
[[nodiscard]] int column_at_visual(std::string_view line, float cell, int tab_size);

// A monospace grid: every cell `cell_width` wide, every line `line_height` tall, the text's top
// left at (0, 0) in the same pixels as the point asked about.
struct TextGrid {
  float cell_width = 1.0f;
  float line_height = 1.0f;
};

// The position under pixel (x, y), measured from the text's top left (scrolling already taken
// off): clamped to the text, so a click below the last line lands on it.
[[nodiscard]] TextPosition position_at_pixel(const TextModel& model, const TextGrid& grid, float x,
                                             float y);

// Width of the gutter in cells for the line numbers of `line_count` lines (at least 3 digits,
// so it does not jump while a short file grows).
[[nodiscard]] int line_number_digits(int line_count);

}  // namespace tl::editor
