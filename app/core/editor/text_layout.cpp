#include "core/editor/text_layout.hpp"

#include <algorithm>
#include <cmath>

namespace tl::editor {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0u) == 0x80u;
}

}  // namespace

int next_code_point(std::string_view line, int column) {
  const int size = static_cast<int>(line.size());
  if (column >= size) return size;
  ++column;
  while (column < size && is_continuation_byte(line[column])) ++column;
  return column;
}

int previous_code_point(std::string_view line, int column) {
  if (column <= 0) return 0;
  column = std::min(column, static_cast<int>(line.size()));
  --column;
  while (column > 0 && is_continuation_byte(line[column])) --column;
  return column;
}

int code_point_start(std::string_view line, int column) {
  column = std::clamp(column, 0, static_cast<int>(line.size()));
  while (column > 0 && column < static_cast<int>(line.size()) && is_continuation_byte(line[column]))
    --column;
  return column;
}

int visual_column(std::string_view line, int column, int tab_size) {
  int cell = 0;
  const int end = std::min(column, static_cast<int>(line.size()));
  for (int at = 0; at < end; at = next_code_point(line, at)) {
    cell = line[at] == '\t' ? (cell / tab_size + 1) * tab_size : cell + 1;
  }
  return cell;
}

int column_at_visual(std::string_view line, float cell, int tab_size) {
  int left = 0;  // the cell where the character at `at` begins
  const int size = static_cast<int>(line.size());
  for (int at = 0; at < size; at = next_code_point(line, at)) {
    const int right = line[at] == '\t' ? (left / tab_size + 1) * tab_size : left + 1;
    if (cell < (static_cast<float>(left) + static_cast<float>(right)) * 0.5f) return at;
    left = right;
  }
  return size;
}

TextPosition position_at_pixel(const TextModel& model, const TextGrid& grid, float x, float y) {
  const int line =
      std::clamp(static_cast<int>(std::floor(y / grid.line_height)), 0, model.line_count() - 1);
  const float cell = x / grid.cell_width;
  return {line, column_at_visual(model.line(line), cell, model.tab_size())};
}

int line_number_digits(int line_count) {
  int digits = 1;
  for (int n = line_count; n >= 10; n /= 10) ++digits;
  return std::max(digits, 3);
}

}  // namespace tl::editor
