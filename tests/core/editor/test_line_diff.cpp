#include "core/editor/line_diff.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tl::editor {
namespace {

// The learner's kernel against the solution: the shared lines once, the learner's own lines
// before the solution's where they differ, every line of both sides exactly once, in order.
TEST(LineDiff, SharedLinesOnceAndEachSidesOwnLinesInOrder) {
  const std::vector<std::string> mine = {"__global__ void k(int n) {", "  int i = threadIdx.x;",
                                         "  c[i] = a[i];", "}"};
  const std::vector<std::string> solution = {"__global__ void k(int n) {",
                                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
                                             "  if (i < n) c[i] = a[i];", "}  "};
  const std::vector<DiffLine> diff = line_diff(mine, solution);
  ASSERT_EQ(diff.size(), 6u);
  EXPECT_EQ(diff[0], (DiffLine{DiffKind::kSame, mine[0], 1, 1}));
  EXPECT_EQ(diff[1].kind, DiffKind::kOnlyMine);
  EXPECT_EQ(diff[1].mine_line, 2);
  EXPECT_EQ(diff[2].kind, DiffKind::kOnlyMine);
  EXPECT_EQ(diff[2].mine_line, 3);
  EXPECT_EQ(diff[3].kind, DiffKind::kOnlySolution);
  EXPECT_EQ(diff[3].solution_line, 2);
  EXPECT_EQ(diff[4].kind, DiffKind::kOnlySolution);
  EXPECT_EQ(diff[4].solution_line, 3);
  EXPECT_EQ(diff[5], (DiffLine{DiffKind::kSame, "}", 4, 4})) << "trailing blanks do not differ";
}

TEST(LineDiff, IdenticalAndEmptySides) {
  const std::vector<std::string> code = {"a", "b"};
  for (const DiffLine& line : line_diff(code, code)) EXPECT_EQ(line.kind, DiffKind::kSame);
  const std::vector<DiffLine> added = line_diff({}, code);
  ASSERT_EQ(added.size(), 2u);
  EXPECT_EQ(added[1], (DiffLine{DiffKind::kOnlySolution, "b", 0, 2}));
  EXPECT_TRUE(line_diff({}, {}).empty());
}

}  // namespace
}  // namespace tl::editor
