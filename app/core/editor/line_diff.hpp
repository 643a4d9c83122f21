#pragma once
// The learner's code beside the reference solution, line by line: which lines the two share, which
// only the learner's has and which only the solution's, in the order a unified diff prints them.
// A longest common subsequence of lines; trailing blanks do not make two lines differ.

#include <string>
#include <vector>

namespace tl::editor {

enum class DiffKind { kSame, kOnlyMine, kOnlySolution };

struct DiffLine {
  DiffKind kind = DiffKind::kSame;
  std::string text;
  int mine_line = 0;      // 1-based line of the learner's code; 0 where it has none
  int solution_line = 0;  // 1-based line of the solution; 0 where it has none
  bool operator==(const DiffLine&) const = default;
};

[[nodiscard]] std::vector<DiffLine> line_diff(const std::vector<std::string>& mine,
                                              const std::vector<std::string>& solution);

}  // namespace tl::editor
