#include "core/editor/diagnostics.hpp"

#include <algorithm>
#include <charconv>

namespace tl::editor {
namespace {

std::optional<int> parse_positive(std::string_view text) {
  if (text.empty()) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

// "error: msg", "warning #177-D: msg", "fatal error: msg", "catastrophic error: msg", "note: msg",
// "remark: msg": the severity and the message, or nothing.
std::optional<std::pair<Severity, std::string>> parse_severity(std::string_view rest) {
  rest = trim(rest);
  struct Prefix {
    std::string_view word;
    Severity severity;
  };
  constexpr Prefix kPrefixes[] = {
      {"fatal error", Severity::kError}, {"catastrophic error", Severity::kError},
      {"error", Severity::kError},       {"warning", Severity::kWarning},
      {"note", Severity::kNote},         {"remark", Severity::kNote},
  };
  for (const Prefix& prefix : kPrefixes) {
    if (!rest.starts_with(prefix.word)) continue;
    std::string_view after = rest.substr(prefix.word.size());
    // EDG numbers its messages: "warning #177-D:"; skip the number up to the colon.
    if (after.starts_with(" #")) {
      const std::size_t colon = after.find(':');
      if (colon == std::string_view::npos) continue;
      after = after.substr(colon);
    }
    if (!after.starts_with(":")) continue;
    return std::pair{prefix.severity, std::string(trim(after.substr(1)))};
  }
  return std::nullopt;
}

// NVRTC: `name(3): error: msg`.
std::optional<Diagnostic> parse_nvrtc(std::string_view line) {
  const std::size_t open = line.find("(");
  if (open == std::string_view::npos || open == 0) return std::nullopt;
  const std::size_t close = line.find("): ", open);
  if (close == std::string_view::npos) return std::nullopt;
  const auto number = parse_positive(line.substr(open + 1, close - open - 1));
  if (!number) return std::nullopt;
  const auto severity = parse_severity(line.substr(close + 2));
  if (!severity) return std::nullopt;
  Diagnostic diagnostic;
  diagnostic.file = std::string(line.substr(0, open));
  diagnostic.line = *number;
  diagnostic.severity = severity->first;
  diagnostic.message = severity->second;
  return diagnostic;
}

// g++: `name:3:5: error: msg` or `name:3: error: msg`.
std::optional<Diagnostic> parse_gcc(std::string_view line) {
  // The file name may hold ':' in odd paths; the line number is the first ":<digits>:".
  for (std::size_t colon = line.find(':'); colon != std::string_view::npos && colon > 0;
       colon = line.find(':', colon + 1)) {
    const std::size_t next = line.find(':', colon + 1);
    if (next == std::string_view::npos) return std::nullopt;
    const std::string_view digits = line.substr(colon + 1, next - colon - 1);
    if (digits.empty() || digits.front() < '0' || digits.front() > '9') continue;
    // The first ":<digits>:" is the line number; a zero or garbage there is no diagnostic.
    const auto number = parse_positive(digits);
    if (!number) return std::nullopt;
    Diagnostic diagnostic;
    diagnostic.file = std::string(line.substr(0, colon));
    diagnostic.line = *number;
    std::string_view rest = line.substr(next + 1);
    const std::size_t column_end = rest.find(':');
    if (column_end != std::string_view::npos) {
      if (const auto column = parse_positive(rest.substr(0, column_end))) {
        diagnostic.column = column;
        rest = rest.substr(column_end + 1);
      }
    }
    const auto severity = parse_severity(rest);
    if (!severity) return std::nullopt;
    diagnostic.severity = severity->first;
    diagnostic.message = severity->second;
    return diagnostic;
  }
  return std::nullopt;
}

bool is_caret_line(std::string_view line) {
  line = trim(line);
  return !line.empty() && line.find_first_not_of("^~") == std::string_view::npos;
}

}  // namespace

std::vector<Diagnostic> parse_diagnostics(std::string_view output) {
  std::vector<Diagnostic> found;
  // NVRTC follows a message with the source line, a caret, and sometimes indented detail lines;
  // the source line is the first indented line after the message, so it is skipped.
  bool after_nvrtc = false;
  bool source_echo_seen = false;
  while (!output.empty()) {
    const std::size_t newline = output.find('\n');
    std::string_view line = output.substr(0, newline);
    output = newline == std::string_view::npos ? std::string_view() : output.substr(newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    if (auto nvrtc = parse_nvrtc(line)) {
      found.push_back(std::move(*nvrtc));
      after_nvrtc = true;
      source_echo_seen = false;
      continue;
    }
    if (auto gcc = parse_gcc(line)) {
      found.push_back(std::move(*gcc));
      after_nvrtc = false;
      continue;
    }
    const bool indented = !line.empty() && (line.front() == ' ' || line.front() == '\t');
    if (after_nvrtc && indented && !is_caret_line(line)) {
      // EDG echoes the offending source line first, then any detail ("argument types are: ...").
      if (!source_echo_seen) {
        source_echo_seen = true;
      } else {
        std::string& detail = found.back().detail;
        if (!detail.empty()) detail.push_back('\n');
        detail += trim(line);
      }
      continue;
    }
    if (!indented) after_nvrtc = false;  // a summary line or a blank ends the message
  }
  return found;
}

std::vector<Diagnostic> diagnostics_for_file(const std::vector<Diagnostic>& all,
                                             std::string_view file) {
  const auto base_name = [](std::string_view path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
  };
  std::vector<Diagnostic> out;
  for (const Diagnostic& diagnostic : all) {
    if (base_name(diagnostic.file) == base_name(file)) out.push_back(diagnostic);
  }
  return out;
}

std::vector<Diagnostic> follow_edits(const std::vector<Diagnostic>& diagnostics,
                                     const std::vector<std::string>& checked_lines,
                                     const std::vector<std::string>& lines) {
  const std::size_t old_size = checked_lines.size();
  const std::size_t new_size = lines.size();
  std::size_t prefix = 0;
  while (prefix < old_size && prefix < new_size && checked_lines[prefix] == lines[prefix]) {
    ++prefix;
  }
  std::size_t suffix = 0;
  while (suffix < old_size - prefix && suffix < new_size - prefix &&
         checked_lines[old_size - 1 - suffix] == lines[new_size - 1 - suffix]) {
    ++suffix;
  }
  std::vector<Diagnostic> out;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.line < 1 || static_cast<std::size_t>(diagnostic.line) > old_size) continue;
    const std::size_t at = static_cast<std::size_t>(diagnostic.line) - 1;
    std::optional<std::size_t> now;
    if (at < prefix) {
      now = at;
    } else if (at >= old_size - suffix) {
      now = at - old_size + new_size;
    } else {
      // Between the edits: the same text, nearest the old place, else the line was edited.
      for (std::size_t i = prefix; i < new_size - suffix; ++i) {
        if (lines[i] != checked_lines[at]) continue;
        const auto distance = [at](std::size_t i) { return i > at ? i - at : at - i; };
        if (!now || distance(i) < distance(*now)) now = i;
      }
    }
    if (!now) continue;
    Diagnostic moved = diagnostic;
    moved.line = static_cast<int>(*now) + 1;
    out.push_back(std::move(moved));
  }
  return out;
}

std::pair<int, int> underline_columns(std::string_view line, std::optional<int> column) {
  const int size = static_cast<int>(line.size());
  const auto is_word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  if (column) {
    int begin = std::min(*column - 1, size);
    if (begin >= size) return {std::max(0, size - 1), size};  // past the end: the last character
    int end = begin + 1;
    if (is_word(line[begin])) {
      while (end < size && is_word(line[end])) ++end;
    }
    return {begin, end};
  }
  int begin = 0;
  while (begin < size && (line[begin] == ' ' || line[begin] == '\t')) ++begin;
  int end = size;
  while (end > begin && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
  if (begin == end) return {0, 0};
  return {begin, end};
}

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

}  // namespace tl::editor
