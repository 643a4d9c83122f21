#include "core/text_wrap.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tl {
namespace {

// Every character one unit wide, as a monospace font measures.
float characters(std::string_view text) {
  return static_cast<float>(text.size());
}

// A verdict as the Lab words it: at every width a line break may fall only where a space was.
TEST(TextWrap, NumbersAreNeverSplitAtAnyWidth) {
  const std::string verdict =
      "n = 1048583 <<<4097, 256>>>: C(0, 1) is -0.479008496, expected 1.25e-05; 1,048,576 of "
      "1,048,583 elements of c are wrong";
  for (int width = 1; width <= static_cast<int>(verdict.size()) + 2; ++width) {
    const auto lines = wrap_at_spaces(verdict, static_cast<float>(width), characters);
    std::string joined;
    for (const std::string_view line : lines) {
      ASSERT_FALSE(line.empty()) << "width " << width;
      EXPECT_NE(line.front(), ' ') << "width " << width;
      EXPECT_NE(line.back(), ' ') << "width " << width;
      // A line wider than the width holds one word: nothing could be broken off it.
      if (static_cast<int>(line.size()) > width) {
        EXPECT_EQ(line.find(' '), std::string_view::npos) << "width " << width << ": " << line;
      }
      joined += (joined.empty() ? "" : " ") + std::string(line);
    }
    EXPECT_EQ(joined, verdict) << "width " << width << ": the words are kept, in order";
    for (const char* number : {"-0.479008496,", "1,048,576", "1,048,583", "1.25e-05;"}) {
      bool whole = false;
      for (const std::string_view line : lines) whole = whole || line.find(number) != line.npos;
      EXPECT_TRUE(whole) << "width " << width << ": " << number << " was split";
    }
  }
}

TEST(TextWrap, FillsEachLineAndKeepsNewlines) {
  const auto lines = wrap_at_spaces("aa bb cc dd\nee", 5.0f, characters);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "aa bb");
  EXPECT_EQ(lines[1], "cc dd");
  EXPECT_EQ(lines[2], "ee");
  const auto blank = wrap_at_spaces("a\n\nb", 10.0f, characters);
  ASSERT_EQ(blank.size(), 3u);
  EXPECT_EQ(blank[1], "") << "an empty line stays a line";
}

}  // namespace
}  // namespace tl
