#include "core/editor/line_diff.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace tl::editor {
namespace {

std::string_view without_trailing_blanks(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  return line;
}

}  // namespace

std::vector<DiffLine> line_diff(const std::vector<std::string>& mine,
                                const std::vector<std::string>& solution) {
  const std::size_t m = mine.size();
  const std::size_t n = solution.size();
  const auto same = [&](std::size_t i, std::size_t j) {
    return without_trailing_blanks(mine[i]) == without_trailing_blanks(solution[j]);
  };
  // lengths[i][j]: the longest common subsequence of mine[i..] and solution[j..].
  std::vector<std::uint32_t> lengths((m + 1) * (n + 1), 0);
  const auto at = [n, &lengths](std::size_t i, std::size_t j) -> std::uint32_t& {
    return lengths[i * (n + 1) + j];
  };
  for (std::size_t i = m; i-- > 0;) {
    for (std::size_t j = n; j-- > 0;) {
      at(i, j) = same(i, j) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::vector<DiffLine> out;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && same(i, j)) {
      out.push_back({DiffKind::kSame, mine[i], static_cast<int>(i + 1), static_cast<int>(j + 1)});
      ++i;
      ++j;
    } else if (i < m && (j == n || at(i + 1, j) >= at(i, j + 1))) {
      // The learner's line first, then the solution's, as a unified diff prints - before +.
      out.push_back({DiffKind::kOnlyMine, mine[i], static_cast<int>(i + 1), 0});
      ++i;
    } else {
      out.push_back({DiffKind::kOnlySolution, solution[j], 0, static_cast<int>(j + 1)});
      ++j;
    }
  }
  return out;
}

}  // namespace tl::editor
