#include "core/editor/soft_wrap.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tl::editor {
namespace {

// A kernel's signature at 30 cells: rows break after a blank, words stay whole, nothing is lost.
TEST(SoftWrap, RowsBreakAfterABlankAndKeepEveryCharacter) {
  const std::string line =
      "__global__ void vector_add(Array<const float> a, Array<const float> b, Array<float> c)";
  const std::vector<int> starts = wrap_row_starts(line, 30, 2);
  ASSERT_GE(starts.size(), 3u);
  EXPECT_EQ(starts.front(), 0);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const int end = i + 1 < starts.size() ? starts[i + 1] : static_cast<int>(line.size());
    EXPECT_LE(end - starts[i], 30) << "row " << i;
    if (i > 0) EXPECT_EQ(line[starts[i] - 1], ' ') << "row " << i << " starts after a blank";
  }
  // No blank to break at: at the width.
  EXPECT_EQ(wrap_row_starts(std::string(25, 'x'), 10, 2), (std::vector<int>{0, 10, 20}));
  EXPECT_EQ(wrap_row_starts("short", 10, 2), (std::vector<int>{0}));
  EXPECT_EQ(wrap_row_starts(std::string(50, 'x'), 0, 2), (std::vector<int>{0})) << "no width";
}

TEST(SoftWrap, PositionsAndRowsAgreeBothWays) {
  const std::vector<std::string> lines = {"int a;", "aaaa bbbb cccc dddd", "", "end"};
  const WrapMap map(lines, 10, 2);
  ASSERT_EQ(map.rows(), 1 + 2 + 1 + 1);
  EXPECT_EQ(map.row_count(1), 2);
  EXPECT_EQ(map.first_row(3), 4);
  EXPECT_EQ(map.line_of_row(2), 1);
  EXPECT_EQ(map.row_begin(2), 10) << "after \"aaaa bbbb \"";
  // "cccc" starts row 2 at its first cell; the line's end stays on its last row.
  EXPECT_EQ(map.place(lines[1], 1, 10).row, 2);
  EXPECT_EQ(map.place(lines[1], 1, 10).cell, 0);
  EXPECT_EQ(map.place(lines[1], 1, 19).row, 2);
  EXPECT_EQ(map.place(lines[1], 1, 19).cell, 9);
  EXPECT_EQ(map.position_at(lines, 2, 2.0f), (TextPosition{1, 12}));
  EXPECT_EQ(map.position_at(lines, 3, 0.0f), (TextPosition{2, 0}));
  EXPECT_EQ(map.position_at(lines, 99, 0.0f), (TextPosition{3, 0})) << "clamped to the text";
  // A click past the end of a wrapped row stays on that row.
  const TextPosition past = map.position_at(lines, 1, 40.0f);
  EXPECT_EQ(past.line, 1);
  EXPECT_EQ(map.place(lines[1], 1, past.column).row, 1);
  // Unwrapped: one row per line.
  const WrapMap flat(lines, 0, 2);
  EXPECT_EQ(flat.rows(), 4);
  EXPECT_EQ(flat.place(lines[1], 1, 15).cell, 15);
}

}  // namespace
}  // namespace tl::editor
