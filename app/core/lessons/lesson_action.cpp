#include "lesson_action.hpp"

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
  if (!query.empty() && query[0] != '?')
    return invalid_argument("'" + link + "': expected '?' after threadlab:set");
  if (!query.empty()) query.erase(0, 1);
  std::size_t start = 0;
  while (start < query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string item = query.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? item.substr(eq + 1) : std::string();
    if (key.empty()) return invalid_argument("in '" + link + "': a setting without a name");
    if (key == "launch" && !has_value) {
      action.launch = true;
    } else if (key == "check" && !has_value) {
      action.check = true;
    } else if (key == "run" && !has_value) {
      action.run = true;
    } else if (key == "sweep" && (!has_value || value == "size" || value == "block")) {
      action.sweep = true;
      action.sweep_blocks = value == "block";
    } else if (key == "sweep") {
      return invalid_argument("in '" + link + "': sweep=" + value + ": expected size or block");
    } else if (!has_value) {
      return invalid_argument("in '" + link + "': '" + key + "' needs a value (" + key + "=...)");
    } else if (key == "lesson") {
      action.lesson = value;
    } else if (key == "color") {
      action.color_by = value;
    } else if (key == "view") {
      action.view = value;
    } else if (key == "pick") {
      action.pick = value;
    } else if (key == "plot") {
      action.plot = value;
    } else if (key == "exercise") {
      action.exercise = value;
    } else if (key == "submission") {
      action.submission = value;
    } else if (key == "lab_grid") {
      action.lab_grid = value;
    } else {
      action.values[key] = value;
    }
  }
  return action;
}

}  // namespace tl::lessons
