#include "lesson_action.hpp"

#include "core/launch_config.hpp"
#include "core/parse.hpp"

namespace tl::lessons {

namespace {
constexpr std::string_view kPrefix = "threadlab:set";
}

bool is_lesson_action(const std::string& link) {
  return link.rfind(kPrefix, 0) == 0;
}

Result<LessonAction> parse_lesson_action(const std::string& link) {
  if (!is_lesson_action(link)) return invalid_argument("'" + link + "' is not a ThreadLab action");
  LessonAction action;
  std::string query = link.substr(kPrefix.size());
  if (!query.empty() && query[0] == '?') query.erase(0, 1);
  std::size_t start = 0;
  while (start < query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string item = query.substr(start, end - start);
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const std::string value = eq == std::string::npos ? std::string() : item.substr(eq + 1);
    if (key == "launch") {
      action.launch = true;
    } else if (key == "sweep") {
      action.sweep = true;
    } else if (key == "n") {
      auto n = parse_count(value);
      if (!n) return invalid_argument("in '" + link + "': " + n.message());
      action.n = *n;
    } else if (key == "grid" || key == "block") {
      auto d = parse_dim3(value);
      if (!d) return invalid_argument("in '" + link + "': " + d.message());
      (key == "grid" ? action.grid : action.block) = *d;
    } else if (key == "color") {
      action.color_by = value;
    } else if (!key.empty()) {
      return invalid_argument("in '" + link + "': unknown setting '" + key + "'");
    }
    start = end + 1;
  }
  return action;
}

}  // namespace tl::lessons
