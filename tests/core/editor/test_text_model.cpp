#include "core/editor/text_model.hpp"

#include <gtest/gtest.h>

namespace tl::editor {
namespace {

void type(TextModel& model, std::string_view text) {
  for (char c : text) model.type_text(std::string_view(&c, 1));
}

TEST(TextModel, LoadsLinesAndJoinsThemBack) {
  TextModel model("int a;\r\nint b;\n");
  ASSERT_EQ(model.line_count(), 3);
  EXPECT_EQ(model.line(0), "int a;");
  EXPECT_EQ(model.line(2), "");
  EXPECT_EQ(model.text(), "int a;\nint b;\n");
  EXPECT_FALSE(model.changed());
  EXPECT_FALSE(model.can_undo());
}

TEST(TextModel, TypingInsertsAtTheCursorAndReplacesTheSelection) {
  TextModel model("ab");
  model.set_cursor({0, 1});
  type(model, "XY");
  EXPECT_EQ(model.text(), "aXYb");
  EXPECT_EQ(model.cursor(), (TextPosition{0, 3}));
  model.select({{0, 0}, {0, 3}});
  EXPECT_EQ(model.selected_text(), "aXY");
  type(model, "z");
  EXPECT_EQ(model.text(), "zb");
  EXPECT_FALSE(model.has_selection());
}

TEST(TextModel, TypedRunIsOneUndoStepAndAWordBoundaryStartsAnother) {
  TextModel model;
  type(model, "int x");
  EXPECT_EQ(model.text(), "int x");
  ASSERT_TRUE(model.undo());
  EXPECT_EQ(model.text(), "int");
  ASSERT_TRUE(model.undo());
  EXPECT_EQ(model.text(), "");
  EXPECT_FALSE(model.undo());
  ASSERT_TRUE(model.redo());
  ASSERT_TRUE(model.redo());
  EXPECT_EQ(model.text(), "int x");
  EXPECT_EQ(model.cursor(), (TextPosition{0, 5}));
  EXPECT_FALSE(model.redo());
}

TEST(TextModel, MovingTheCursorEndsATypedRun) {
  TextModel model;
  type(model, "ab");
  model.move_left();
  model.move_right();
  type(model, "cd");
  ASSERT_TRUE(model.undo());
  EXPECT_EQ(model.text(), "ab");
}

TEST(TextModel, NewEditClearsRedo) {
  TextModel model;
  type(model, "a");
  model.undo();
  type(model, "b");
  EXPECT_FALSE(model.can_redo());
  EXPECT_EQ(model.text(), "b");
}

TEST(TextModel, UndoRestoresTheSelectionThatWasReplaced) {
  TextModel model("hello world");
  model.select({{0, 6}, {0, 11}});
  model.insert_text("there\nfriend");
  EXPECT_EQ(model.text(), "hello there\nfriend");
  EXPECT_EQ(model.cursor(), (TextPosition{1, 6}));
  model.undo();
  EXPECT_EQ(model.text(), "hello world");
  EXPECT_EQ(model.selection(), (TextRange{{0, 6}, {0, 11}}));
}

TEST(TextModel, NewLineKeepsTheIndentAndOpensBlocks) {
  TextModel model("  if (i < n) {}");
  model.set_cursor({0, 14});  // between the braces
  model.new_line();
  EXPECT_EQ(model.text(), "  if (i < n) {\n      \n  }");
  EXPECT_EQ(model.cursor(), (TextPosition{1, 6}));
  type(model, "c[i] = 0;");
  model.new_line();
  EXPECT_EQ(model.line(2), "      ");
  EXPECT_EQ(model.cursor(), (TextPosition{2, 6}));
  model.undo();
  EXPECT_EQ(model.text(), "  if (i < n) {\n      c[i] = 0;\n  }");
}

TEST(TextModel, ClosingBraceOnABlankLineGoesOneLevelOut) {
  TextModel model("{\n    ");
  model.set_cursor({1, 4});
  type(model, "}");
  EXPECT_EQ(model.text(), "{\n}");
}

TEST(TextModel, TabInsertsSpacesToTheNextStopAndIndentsSelectedLines) {
  TextModel model("ab\ncd\nef");
  model.set_cursor({0, 1});
  model.indent();
  EXPECT_EQ(model.line(0), "a   b");
  model.undo();
  model.select({{0, 1}, {2, 0}});  // the third line is not taken: the selection ends at its start
  model.indent();
  EXPECT_EQ(model.text(), "    ab\n    cd\nef");
  EXPECT_EQ(model.selection(), (TextRange{{0, 5}, {2, 0}}));
  model.unindent();
  EXPECT_EQ(model.text(), "ab\ncd\nef");
}

TEST(TextModel, BackspaceRemovesCodePointsLineBreaksAndIndentLevels) {
  TextModel model("σx\n        y");
  model.set_cursor({0, 2});  // after σ (two bytes)
  model.backspace();
  EXPECT_EQ(model.line(0), "x");
  model.set_cursor({1, 8});
  model.backspace();
  EXPECT_EQ(model.line(1), "    y");
  model.set_cursor({1, 0});
  model.backspace();
  EXPECT_EQ(model.text(), "x    y");
  EXPECT_EQ(model.cursor(), (TextPosition{0, 1}));
}

TEST(TextModel, DeleteForwardJoinsLines) {
  TextModel model("a\nb");
  model.set_cursor({0, 1});
  model.delete_forward();
  EXPECT_EQ(model.text(), "ab");
  model.move_to_end();
  model.delete_forward();  // nothing after the end
  EXPECT_EQ(model.text(), "ab");
}

TEST(TextModel, CutRemovesAndReturnsTheSelection) {
  TextModel model("one two");
  model.select({{0, 0}, {0, 4}});
  EXPECT_EQ(model.cut(), "one ");
  EXPECT_EQ(model.text(), "two");
}

TEST(TextModel, ChangedFollowsUndoBackToTheSavedText) {
  TextModel model("x");
  model.move_to_end();
  const auto loaded = model.version();
  type(model, "y");
  EXPECT_TRUE(model.changed());
  EXPECT_GT(model.version(), loaded);
  model.mark_saved();
  EXPECT_FALSE(model.changed());
  type(model, "z");
  EXPECT_TRUE(model.changed());
  model.undo();  // back to "xy", the saved text
  EXPECT_FALSE(model.changed());
  model.undo();  // "x"
  EXPECT_TRUE(model.changed());
  model.redo();
  EXPECT_FALSE(model.changed());
}

TEST(TextModel, ReadOnlyRefusesEditsButSelectsAndCopies) {
  TextModel model("solution");
  model.set_read_only(true);
  type(model, "x");
  model.backspace();
  model.new_line();
  model.select_all();
  EXPECT_EQ(model.cut(), "solution");
  model.insert_text("y");
  EXPECT_EQ(model.text(), "solution");
  EXPECT_FALSE(model.can_undo());
  EXPECT_EQ(model.selected_text(), "solution");
}

TEST(TextModel, VerticalMovesKeepTheColumn) {
  TextModel model("abcdef\nab\nabcdef");
  model.set_cursor({0, 5});
  model.move_down();
  EXPECT_EQ(model.cursor(), (TextPosition{1, 2}));
  model.move_down();
  EXPECT_EQ(model.cursor(), (TextPosition{2, 5}));
  model.move_down();  // past the last line: its end
  EXPECT_EQ(model.cursor(), (TextPosition{2, 6}));
  model.move_up(10, /*extend_selection=*/true);
  EXPECT_EQ(model.cursor(), (TextPosition{0, 6}));
  EXPECT_EQ(model.anchor(), (TextPosition{2, 6}));
}

TEST(TextModel, HomeTogglesBetweenIndentAndColumnZero) {
  TextModel model("    x = 1;");
  model.move_end();
  model.move_home();
  EXPECT_EQ(model.cursor().column, 4);
  model.move_home();
  EXPECT_EQ(model.cursor().column, 0);
  model.move_home();
  EXPECT_EQ(model.cursor().column, 4);
}

TEST(TextModel, WordMovesAndDoubleClickSelection) {
  TextModel model("c[i] = a[i];");
  model.move_word_right();
  EXPECT_EQ(model.cursor().column, 1);
  model.move_word_right();
  EXPECT_EQ(model.cursor().column, 2);
  model.move_to_end();
  model.move_word_left();
  EXPECT_EQ(model.cursor().column, 10);
  model.select_word_at({0, 8});
  EXPECT_EQ(model.selected_text(), "a");
  model.select_word_at({0, 1});  // just after "c"
  EXPECT_EQ(model.selected_text(), "c");
}

TEST(TextModel, ArrowsCollapseASelectionToItsEdge) {
  TextModel model("abcdef");
  model.select({{0, 4}, {0, 1}});
  model.move_right();
  EXPECT_EQ(model.cursor(), (TextPosition{0, 4}));
  EXPECT_FALSE(model.has_selection());
}

TEST(TextModel, FindWrapsAndHonoursMatchCase) {
  TextModel model("Sum sum\nSUM");
  auto match = model.find_next("sum");
  ASSERT_TRUE(match);
  EXPECT_EQ(*match, (TextRange{{0, 0}, {0, 3}}));
  match = model.find_next("sum");
  EXPECT_EQ(*match, (TextRange{{0, 4}, {0, 7}}));
  match = model.find_next("sum");
  EXPECT_EQ(*match, (TextRange{{1, 0}, {1, 3}}));
  match = model.find_next("sum");  // wraps to the top
  EXPECT_EQ(*match, (TextRange{{0, 0}, {0, 3}}));
  match = model.find_previous("sum");  // wraps to the bottom
  EXPECT_EQ(*match, (TextRange{{1, 0}, {1, 3}}));
  EXPECT_EQ(model.selected_text(), "SUM");

  const FindOptions exact{.match_case = true};
  match = model.find_next("sum", exact);
  EXPECT_EQ(*match, (TextRange{{0, 4}, {0, 7}}));
  EXPECT_EQ(model.find_next("sum", exact), match);  // the only one
  EXPECT_EQ(model.count_matches("sum"), 3);
  EXPECT_EQ(model.count_matches("sum", exact), 1);
  EXPECT_FALSE(model.find_next("product"));
  EXPECT_FALSE(model.find_next(""));
}

TEST(TextModel, FindInLineMarksEveryMatch) {
  EXPECT_EQ(find_in_line("aAaa", "aa"), (std::vector<int>{0, 2}));
  EXPECT_EQ(find_in_line("aAaa", "aa", {.match_case = true}), (std::vector<int>{2}));
  EXPECT_TRUE(find_in_line("abc", "").empty());
}

TEST(TextModel, ClampKeepsPositionsOnCodePointStarts) {
  TextModel model("σ");
  EXPECT_EQ(model.clamp({5, 1}), (TextPosition{0, 0}));
  model.set_cursor({0, 99});
  EXPECT_EQ(model.cursor(), (TextPosition{0, 2}));
  model.move_left();
  EXPECT_EQ(model.cursor(), (TextPosition{0, 0}));
}

TEST(TextModel, UndoAfterSetTextIsEmpty) {
  TextModel model;
  type(model, "abc");
  model.set_text("fresh");
  EXPECT_FALSE(model.can_undo());
  EXPECT_FALSE(model.changed());
  EXPECT_EQ(model.text(), "fresh");
}

}  // namespace
}  // namespace tl::editor

namespace tl::editor {
namespace {

TEST(IndentWidth, IsTheCommonStepOfTheLeadingSpaces) {
  EXPECT_EQ(indent_width("__global__ void f() {\n  if (x) {\n    y();\n  }\n}\n"), 2);
  EXPECT_EQ(indent_width("void f() {\n    a();\n    b();\n}\n"), 4);
  // A continuation lined up under a parenthesis is one step, the body's are many.
  EXPECT_EQ(indent_width("void f(int a,\n       int b) {\n  a();\n  if (a) {\n    b();\n  "
                         "}\n}\n"),
            2);
  EXPECT_EQ(indent_width("no indent\n"), 2) << "the fallback";
  EXPECT_EQ(indent_width("", 3), 3);
}

TEST(TextModel, TabAndTheClosingBraceFollowATwoSpaceIndent) {
  TextModel model("{\n");
  model.set_tab_size(2);
  model.set_cursor({1, 0});
  model.indent();
  EXPECT_EQ(model.line(1), "  ");
  model.indent();
  EXPECT_EQ(model.line(1), "    ");
  type(model, "}");
  EXPECT_EQ(model.line(1), "  }") << "one level (2 spaces) out";
}

TEST(TextModel, BracketsComeInPairsWhenAsked) {
  TextModel model;
  model.set_auto_close(true);
  type(model, "f(x");
  EXPECT_EQ(model.text(), "f(x)");
  EXPECT_EQ(model.cursor(), (TextPosition{0, 3}));
  type(model, ")");  // steps over the closer it put there
  EXPECT_EQ(model.text(), "f(x)");
  EXPECT_EQ(model.cursor(), (TextPosition{0, 4}));
  type(model, ";");
  EXPECT_EQ(model.text(), "f(x);");
  // One undo step for the whole typed run, the closer included.
  model.undo();
  EXPECT_EQ(model.text(), "");

  // Before a word nothing is added; inside an empty pair Backspace takes both.
  model.set_text("a");
  model.set_cursor({0, 0});
  type(model, "[");
  EXPECT_EQ(model.text(), "[a");
  model.set_text("");
  type(model, "a[");
  EXPECT_EQ(model.text(), "a[]");
  model.backspace();
  EXPECT_EQ(model.text(), "a");

  // '{' then Enter: the closer on its own line, the cursor indented between.
  model.set_text("");
  model.set_tab_size(2);
  type(model, "if (c) {");
  model.new_line();
  EXPECT_EQ(model.text(), "if (c) {\n  \n}");
  EXPECT_EQ(model.cursor(), (TextPosition{1, 2}));
}

TEST(TextModel, BracketsAreNotPairedUnlessAsked) {
  TextModel model;
  type(model, "f(x");
  EXPECT_EQ(model.text(), "f(x");
}

}  // namespace
}  // namespace tl::editor
