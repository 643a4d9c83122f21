#include "core/editor/text_layout.hpp"

#include <gtest/gtest.h>

namespace tl::editor {
namespace {

TEST(TextLayout, CodePointSteps) {
  const std::string_view line = "aσb";  // σ is two bytes
  EXPECT_EQ(next_code_point(line, 0), 1);
  EXPECT_EQ(next_code_point(line, 1), 3);
  EXPECT_EQ(next_code_point(line, 4), 4);
  EXPECT_EQ(previous_code_point(line, 3), 1);
  EXPECT_EQ(previous_code_point(line, 0), 0);
  EXPECT_EQ(code_point_start(line, 2), 1);
}

TEST(TextLayout, VisualColumnsExpandTabsAndCountCodePoints) {
  EXPECT_EQ(visual_column("aσb", 3, 4), 2);
  EXPECT_EQ(visual_column("\tx", 1, 4), 4);
  EXPECT_EQ(visual_column("ab\tx", 3, 4), 4);
  EXPECT_EQ(visual_column("ab\tx", 4, 4), 5);
}

TEST(TextLayout, ColumnAtVisualRoundsToTheNearerEdge) {
  EXPECT_EQ(column_at_visual("abc", 0.4f, 4), 0);
  EXPECT_EQ(column_at_visual("abc", 0.6f, 4), 1);
  EXPECT_EQ(column_at_visual("abc", 9.0f, 4), 3);
  EXPECT_EQ(column_at_visual("\tx", 1.0f, 4), 0);  // the first half of the tab
  EXPECT_EQ(column_at_visual("\tx", 3.0f, 4), 1);
  EXPECT_EQ(column_at_visual("aσb", 1.7f, 4), 3);
}

TEST(TextLayout, PixelToPositionClampsIntoTheText) {
  const TextModel model("int a;\nb");
  const TextGrid grid{.cell_width = 8.0f, .line_height = 16.0f};
  EXPECT_EQ(position_at_pixel(model, grid, 3 * 8.0f + 1.0f, 2.0f), (TextPosition{0, 3}));
  EXPECT_EQ(position_at_pixel(model, grid, 100.0f, 20.0f), (TextPosition{1, 1}));
  EXPECT_EQ(position_at_pixel(model, grid, -5.0f, 500.0f), (TextPosition{1, 0}));
  EXPECT_EQ(position_at_pixel(model, grid, 10.0f, -50.0f), (TextPosition{0, 1}));
}

TEST(TextLayout, GutterDigits) {
  EXPECT_EQ(line_number_digits(1), 3);
  EXPECT_EQ(line_number_digits(999), 3);
  EXPECT_EQ(line_number_digits(1000), 4);
}

}  // namespace
}  // namespace tl::editor
