#include "core/editor/diagnostics.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tl::editor {
namespace {

TEST(Diagnostics, NvrtcErrorsAndWarnings) {
  const auto found = parse_diagnostics(
      "kernel.cu(3): error: identifier \"x\" is undefined\n"
      "      x = 1;\n"
      "      ^\n"
      "\n"
      "kernel.cu(7): warning #177-D: variable \"y\" was declared but never referenced\n"
      "      int y;\n"
      "          ^\n"
      "\n"
      "1 error detected in the compilation of \"kernel.cu\".\n");
  ASSERT_EQ(found.size(), 2u);
  Diagnostic expected;
  expected.file = "kernel.cu";
  expected.line = 3;
  expected.message = "identifier \"x\" is undefined";
  EXPECT_EQ(found[0], expected);
  EXPECT_EQ(found[1].line, 7);
  EXPECT_EQ(found[1].severity, Severity::kWarning);
  EXPECT_EQ(found[1].message, "variable \"y\" was declared but never referenced");
  EXPECT_FALSE(found[1].column);
  EXPECT_TRUE(found[1].detail.empty());
}

TEST(Diagnostics, NvrtcDetailLinesJoinTheirMessage) {
  const auto found = parse_diagnostics(
      "kernel.cu(5): error: no instance of overloaded function \"f\" matches the argument list\n"
      "            argument types are: (int *)\n"
      "    f(p);\n"
      "    ^\n");
  ASSERT_EQ(found.size(), 1u);
  // The first indented line is taken as the source echo; what follows is the detail.
  EXPECT_EQ(found[0].detail, "f(p);");
}

TEST(Diagnostics, GccWithAndWithoutColumns) {
  const auto found = parse_diagnostics(
      "/tmp/threadlab-1234/kernel.cu: In function 'void add(float*)':\n"
      "/tmp/threadlab-1234/kernel.cu:3:5: error: 'x' was not declared in this scope\n"
      "    3 |     x = 1;\n"
      "      |     ^\n"
      "kernel.cu:9: warning: unused variable 'k' [-Wunused-variable]\n"
      "kernel.cu:4:2: note: suggested alternative: 'n'\n"
      "kernel.cu:1:10: fatal error: missing.h: No such file or directory\n"
      "compilation terminated.\n");
  ASSERT_EQ(found.size(), 4u);
  EXPECT_EQ(found[0].file, "/tmp/threadlab-1234/kernel.cu");
  EXPECT_EQ(found[0].line, 3);
  EXPECT_EQ(found[0].column, 5);
  EXPECT_EQ(found[0].message, "'x' was not declared in this scope");
  EXPECT_EQ(found[1].line, 9);
  EXPECT_FALSE(found[1].column);
  EXPECT_EQ(found[1].severity, Severity::kWarning);
  EXPECT_EQ(found[2].severity, Severity::kNote);
  EXPECT_EQ(found[3].severity, Severity::kError);
  EXPECT_EQ(found[3].message, "missing.h: No such file or directory");
}

TEST(Diagnostics, OtherTextIsNotADiagnostic) {
  EXPECT_TRUE(parse_diagnostics("").empty());
  EXPECT_TRUE(parse_diagnostics("compilation terminated.\nfoo(3): nothing\nx:y:z\n"
                                "kernel.cu:0:1: error: line zero is not a line\n")
                  .empty());
}

TEST(Diagnostics, FilterByFileIgnoresFolders) {
  const auto all = parse_diagnostics(
      "/tmp/a/kernel.cu:3:5: error: mine\n"
      "/usr/include/threadlab/cuda_emulation.hpp:10:3: error: the shim's\n"
      "kernel.cu(4): error: mine too\n");
  const auto mine = diagnostics_for_file(all, "kernel.cu");
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(mine[0].message, "mine");
  EXPECT_EQ(mine[1].message, "mine too");
  EXPECT_EQ(severity_name(Severity::kWarning), "warning");
}

TEST(Diagnostics, UnderlineTheWordAtTheColumnOrTheWholeLine) {
  EXPECT_EQ(underline_columns("    xval = 1;", 5), (std::pair{4, 8}));
  EXPECT_EQ(underline_columns("    xval = 1;", 10), (std::pair{9, 10}));  // '='
  EXPECT_EQ(underline_columns("  int y;  ", std::nullopt), (std::pair{2, 8}));
  EXPECT_EQ(underline_columns("   ", std::nullopt), (std::pair{0, 0}));
  EXPECT_EQ(underline_columns("ab", 9), (std::pair{1, 2}));
  EXPECT_EQ(underline_columns("", 1), (std::pair{0, 0}));
}

TEST(Diagnostics, WindowsLineEnds) {
  const auto found = parse_diagnostics("kernel.cu(2): error: expected a \";\"\r\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message, "expected a \";\"");
}

// A compile error's mark follows its line while the learner edits (issue 36 item 10: the marks
// stayed on a line after its text changed).
TEST(Diagnostics, MarksFollowTheirLinesAndGoWhenTheLineIsEdited) {
  const std::vector<std::string> checked = {"__global__ void k(int n) {", "  int i = idx;",
                                            "  c[i] = 1;", "}"};
  Diagnostic undefined;
  undefined.file = "kernel.cu";
  undefined.line = 2;
  undefined.message = "identifier \"idx\" is undefined";
  Diagnostic later = undefined;
  later.line = 3;
  later.message = "identifier \"c\" is undefined";
  const std::vector<Diagnostic> both = {undefined, later};

  // Unchanged: both stay.
  EXPECT_EQ(follow_edits(both, checked, checked), both);
  // A comment added above: both move down one line.
  std::vector<std::string> commented = checked;
  commented.insert(commented.begin(), "// mine");
  const auto moved = follow_edits(both, checked, commented);
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved[0].line, 3);
  EXPECT_EQ(moved[1].line, 4);
  // Line 2 fixed: its mark goes, line 3's stays.
  std::vector<std::string> fixed = checked;
  fixed[1] = "  int i = threadIdx.x;";
  const auto after_fix = follow_edits(both, checked, fixed);
  ASSERT_EQ(after_fix.size(), 1u);
  EXPECT_EQ(after_fix[0].line, 3);
  EXPECT_EQ(after_fix[0].message, later.message);
  // Line 2 fixed and a line added after line 3: line 3's mark keeps its place.
  fixed.insert(fixed.begin() + 3, "  // done");
  const auto edited_twice = follow_edits(both, checked, fixed);
  ASSERT_EQ(edited_twice.size(), 1u);
  EXPECT_EQ(edited_twice[0].line, 3);
  // Line 3 deleted: its mark goes with it.
  std::vector<std::string> deleted = checked;
  deleted.erase(deleted.begin() + 2);
  const auto after_delete = follow_edits(both, checked, deleted);
  ASSERT_EQ(after_delete.size(), 1u);
  EXPECT_EQ(after_delete[0].line, 2);
}

}  // namespace
}  // namespace tl::editor
