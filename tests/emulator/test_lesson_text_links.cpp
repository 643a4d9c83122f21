// Every "threadlab:set?..." link in every lesson text sets only parameters its lesson registers,
// to values that lesson accepts: a misspelt key ("inptus=") or a value the lesson refuses
// ("kernel=tiled-2d") would otherwise be found only when a student clicks it (the window refuses
// it then, with a message, and changes nothing). The texts are read as files, every occurrence of
// the link form (in prose, lists, tables and code spans alike), not only what the markdown parser
// makes a link of; no window, no device.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/lessons/device_placeholders.hpp"
#include "core/lessons/lesson_action.hpp"

namespace tl::compute {
namespace {

bool has_param(const Lesson& lesson, const std::string& name) {
  const auto specs = lesson.params();
  return std::any_of(specs.begin(), specs.end(), [&](const lessons::ParamSpec& spec) {
    return spec.name == name ||
           std::find(spec.aliases.begin(), spec.aliases.end(), name) != spec.aliases.end();
  });
}

// Every occurrence of the link form in `text`: up to a space, a quote or backtick, a table's '|', a
// ']' or a ')' that closes the markdown link (a placeholder's own parentheses,
// "{{device.sm_count*(...)}}", stay in).
std::vector<std::string> links_in(const std::string& text) {
  constexpr std::string_view kForm = "threadlab:set?";
  std::vector<std::string> found;
  for (std::size_t at = text.find(kForm); at != std::string::npos; at = text.find(kForm, at + 1)) {
    std::size_t end = at;
    int depth = 0;
    for (; end < text.size(); ++end) {
      const char c = text[end];
      if (c == '(') ++depth;
      if (c == ')' && depth-- == 0) break;
      if (c == ' ' || c == '\n' || c == '\t' || c == '\'' || c == '"' || c == '`' || c == ']' ||
          c == '|') {
        break;
      }
    }
    found.push_back(text.substr(at, end - at));
  }
  return found;
}

// Links that show a refusal on purpose, and what the refusal says: "A block too wide" is refused
// before anything is launched, with the reason.
struct RefusedOnPurpose {
  std::string_view link;
  std::string_view says;
};
constexpr RefusedOnPurpose kRefusedOnPurpose[] = {
    {"threadlab:set?lesson=dense-layer&batch=4&inputs=100&neurons=70&path=fused&block=64,4&launch",
     "is too large for the dense-layer kernels"},
};

const RefusedOnPurpose* refused_on_purpose(std::string_view link) {
  for (const RefusedOnPurpose& refused : kRefusedOnPurpose) {
    if (refused.link == link) return &refused;
  }
  return nullptr;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(LessonTextLinks, EveryLinkSetsOnlyItsLessonsParametersToValuesItAccepts) {
  int links = 0;
  int refusals = 0;
  for (const LessonModule* module : registered_lessons()) {
    const std::filesystem::path path = std::filesystem::path(THREADLAB_SOURCE_DIR) / "lessons" /
                                       std::string(module->info.folder) / "lesson.md";
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    const std::string text = read_file(path);
    for (const std::string& found : links_in(text)) {
      if (found.ends_with("...")) continue;  // the form, not a link
      const std::string where = std::string(module->info.folder) + "/lesson.md: " + found;
      auto action = lessons::parse_lesson_action(found);
      ASSERT_TRUE(action.is_ok()) << where << ": " << action.message();
      ++links;
      if (action->values.empty()) continue;
      const std::string id = action->lesson.value_or(std::string(module->info.id));
      auto lesson = make_lesson(id);
      ASSERT_TRUE(lesson.is_ok()) << where << ": " << lesson.message();
      for (const auto& [name, value] : action->values) {
        EXPECT_TRUE(has_param(**lesson, name))
            << where << ": lesson " << id << " has no parameter '" << name << "'";
      }
      // The values as a GPU fills their device figures ({{device.sm_count}}): the lesson, fresh at
      // its defaults (where a click from its own text finds it at the latest), accepts them.
      auto filled = lessons::fill_action_placeholders(*action, lessons::example_gpu_device_info());
      ASSERT_TRUE(filled.is_ok()) << where << ": " << filled.message();
      const Status configured = (*lesson)->configure(filled->values);
      if (const RefusedOnPurpose* refused = refused_on_purpose(found)) {
        ++refusals;
        ASSERT_FALSE(configured.is_ok()) << where << ": shown as refused, but accepted";
        EXPECT_NE(configured.message().find(refused->says), std::string::npos)
            << where << ": " << configured.message();
        continue;
      }
      EXPECT_TRUE(configured.is_ok()) << where << ": " << configured.message();
    }
  }
  EXPECT_GE(links, 100) << "the lesson texts' links were not found";
  EXPECT_EQ(refusals, static_cast<int>(std::size(kRefusedOnPurpose)))
      << "a link kRefusedOnPurpose names is no longer in its lesson's text";
}

// What a click on a link with a key its lesson does not have meets: a refusal that names the key
// and what the lesson takes, and the lesson's values unchanged (ActionRouter posts the message).
TEST(LessonTextLinks, AnUnknownKeyIsRefusedByNameAndChangesNothing) {
  auto lesson = make_lesson("vector-add");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  const lessons::ParamValues before = (*lesson)->values();
  auto action = lessons::parse_lesson_action("threadlab:set?lesson=vector-add&n=4096&size=2^20");
  ASSERT_TRUE(action.is_ok());
  const Status configured = (*lesson)->configure(action->values);
  ASSERT_FALSE(configured.is_ok());
  EXPECT_NE(configured.message().find("'size' is not a parameter of vector-add"), std::string::npos)
      << configured.message();
  EXPECT_EQ((*lesson)->values(), before) << "n=4096 is not applied without the rest of the link";
}

}  // namespace
}  // namespace tl::compute
