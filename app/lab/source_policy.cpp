#include "lab/source_policy.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <vector>

namespace tl::lab {
namespace {

// Why `path` (between <> or "") may not be included, or nothing when it may.
std::optional<std::string> path_problem(const std::string& path) {
  if (path.empty()) return "an empty header name";
  if (path.front() == '/') return "an absolute path";
  if (path.find('\\') != std::string::npos) return "a backslash in the name";
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::string part =
        path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == "..") return "a '..' in the path";
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return std::nullopt;
}

// Logical lines (backslash-newline joined, as the preprocessor joins them), each with the number
// of the physical line it starts on.
std::vector<std::pair<int, std::string>> logical_lines(std::string_view source) {
  std::vector<std::pair<int, std::string>> lines;
  std::string current;
  int number = 1;
  int start = 1;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\' && i + 1 < source.size() && source[i + 1] == '\n') {
      ++i;
      ++number;
      continue;
    }
    if (c == '\n') {
      lines.emplace_back(start, std::move(current));
      current.clear();
      start = ++number;
      continue;
    }
    current += c;
  }
  if (!current.empty()) lines.emplace_back(start, std::move(current));
  return lines;
}

std::string lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

std::optional<std::string> source_policy_violation(std::string_view source, std::string_view name) {
  static const std::regex include(R"re(^\s*#\s*(include_next|include|import)\b\s*(.*)$)re");
  static const std::regex header(R"re(^\s*(<([^>]*)>|"([^"]*)"))re");
  static const std::regex dependency_pragma(
      R"(^\s*#\s*pragma\s+GCC\s+(dependency|system_header)\b)");
  static const std::regex has_include(R"re(__has_include(_next)?\s*\(\s*(<([^>]*)>|"([^"]*)"))re");
  const std::string file(name);
  for (const auto& [number, line] : logical_lines(source)) {
    const std::string where = file + " line " + std::to_string(number) + ": ";
    std::smatch match;
    if (std::regex_search(line, match, include)) {
      const std::string directive = match[1];
      if (directive != "include") {
        return where + "#" + directive +
               " is not allowed in a Lab kernel (use #include with the header's name)";
      }
      const std::string rest = match[2];
      std::smatch named;
      if (!std::regex_search(rest, named, header)) {
        return where +
               "an #include must name its header directly, as <name> or \"name\" (a computed "
               "include is not allowed in a Lab kernel)";
      }
      const std::string path = named[2].matched ? named[2].str() : named[3].str();
      if (std::optional<std::string> problem = path_problem(path)) {
        return where + "#include " + named[1].str() + " is not allowed: " + *problem +
               " (a Lab kernel may include only the Lab's prelude and system headers)";
      }
    }
    if (std::regex_search(line, match, dependency_pragma)) {
      return where + "#pragma GCC " + match[1].str() + " is not allowed in a Lab kernel";
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), has_include);
         it != std::sregex_iterator(); ++it) {
      const std::string path = (*it)[3].matched ? (*it)[3].str() : (*it)[4].str();
      if (std::optional<std::string> problem = path_problem(path)) {
        return where + "__has_include" + (*it)[2].str() + " is not allowed: " + *problem;
      }
    }
  }
  // _Pragma("GCC dependency ...") and the assembler's file-reading directives, however the text
  // is split into adjacent string literals ("inc" "bin").
  std::string joined;
  joined.reserve(source.size());
  static const std::regex adjacent_literals(R"re("\s*")re");
  joined = std::regex_replace(std::string(source), adjacent_literals, "");
  const std::string folded = lowered(joined);
  for (const char* directive : {".incbin", ".include"}) {
    const std::size_t at = folded.find(directive);
    if (at != std::string::npos) {
      const int number =
          1 + static_cast<int>(std::count(folded.begin(), folded.begin() + at, '\n'));
      return file + " line " + std::to_string(number) + ": the assembler directive " + directive +
             " reads a file and is not allowed in a Lab kernel";
    }
  }
  static const std::regex pragma_operator(
      R"re(_Pragma\s*\(\s*"\s*GCC\s+(dependency|system_header))re");
  if (std::smatch match; std::regex_search(joined, match, pragma_operator)) {
    const int number =
        1 + static_cast<int>(std::count(joined.begin(), joined.begin() + match.position(0), '\n'));
    return file + " line " + std::to_string(number) + ": _Pragma(\"GCC " + match[1].str() +
           "\") is not allowed in a Lab kernel";
  }
  return std::nullopt;
}

}  // namespace tl::lab
