#include "core/text_wrap.hpp"

namespace tl {

std::vector<std::string_view> wrap_at_spaces(
    std::string_view text, float width, const std::function<float(std::string_view)>& measure) {
  std::vector<std::string_view> lines;
  std::size_t paragraph_start = 0;
  while (paragraph_start <= text.size()) {
    std::size_t paragraph_end = text.find('\n', paragraph_start);
    if (paragraph_end == std::string_view::npos) paragraph_end = text.size();
    const std::string_view paragraph =
        text.substr(paragraph_start, paragraph_end - paragraph_start);
    // Greedy: each line takes words while the line, measured whole, still fits.
    std::size_t line_start = 0;
    while (line_start < paragraph.size() && paragraph[line_start] == ' ') ++line_start;
    if (line_start >= paragraph.size()) lines.push_back(paragraph.substr(paragraph.size()));
    while (line_start < paragraph.size()) {
      std::size_t line_end = paragraph.find(' ', line_start);  // the first word always fits
      if (line_end == std::string_view::npos) line_end = paragraph.size();
      while (line_end < paragraph.size()) {
        std::size_t next_word = line_end;
        while (next_word < paragraph.size() && paragraph[next_word] == ' ') ++next_word;
        if (next_word >= paragraph.size()) break;
        std::size_t next_end = paragraph.find(' ', next_word);
        if (next_end == std::string_view::npos) next_end = paragraph.size();
        if (measure(paragraph.substr(line_start, next_end - line_start)) > width) break;
        line_end = next_end;
      }
      lines.push_back(paragraph.substr(line_start, line_end - line_start));
      line_start = line_end;
      while (line_start < paragraph.size() && paragraph[line_start] == ' ') ++line_start;
    }
    if (paragraph_end >= text.size()) break;
    paragraph_start = paragraph_end + 1;
  }
  return lines;
}

}  // namespace tl
