// Every lesson link the documentation and the lesson texts show names its lesson (lesson=, or
// exercise=, which opens the exercise's lesson): copied into `threadlab gui --action` or a browser,
// a link without one would run in whichever lesson was open last. Placeholders
// (`threadlab:set?...`) are not links.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/lessons/lesson_action.hpp"

namespace tl {
namespace {

std::vector<std::filesystem::path> documents() {
  const std::filesystem::path root = THREADLAB_SOURCE_DIR;
  std::vector<std::filesystem::path> files = {root / "README.md"};
  for (const auto& entry : std::filesystem::directory_iterator(root / "docs")) {
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  }
  // The lessons' own texts too: their links are also copied out of the window, and a teacher's
  // slide or demo script replays them wherever the class happens to be.
  for (const auto& entry : std::filesystem::directory_iterator(root / "lessons")) {
    if (std::filesystem::exists(entry.path() / "lesson.md"))
      files.push_back(entry.path() / "lesson.md");
  }
  return files;
}

TEST(DocumentedLinks, EveryLinkNamesItsLesson) {
  const std::regex link(R"(threadlab:set\?[^\s'`)\]|]+)");
  int checked = 0;
  for (const auto& path : documents()) {
    std::ifstream file(path);
    ASSERT_TRUE(file) << path;
    std::stringstream text;
    text << file.rdbuf();
    const std::string content = text.str();
    for (auto it = std::sregex_iterator(content.begin(), content.end(), link);
         it != std::sregex_iterator(); ++it) {
      const std::string found = it->str();
      if (found.ends_with("...")) continue;  // the form, not a link
      const std::string where =
          path.parent_path().filename().string() + "/" + path.filename().string() + ": " + found;
      auto action = lessons::parse_lesson_action(found);
      ASSERT_TRUE(action.is_ok()) << where << ": " << action.message();
      EXPECT_TRUE(action->lesson || action->exercise)
          << where << ": add lesson=ID, so the link runs in its lesson";
      ++checked;
    }
  }
  // Over a hundred: the README's and the ten lessons' texts.
  EXPECT_GE(checked, 100) << "the documentation's links were not found";
}

}  // namespace
}  // namespace tl
