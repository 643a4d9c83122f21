#include "core/format.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

TEST(Format, Bytes) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(3.0 * 1024 * 1024 * 1024), "3.00 GiB");
}

TEST(Format, Milliseconds) {
  EXPECT_EQ(format_milliseconds(0.412), "412.0 µs");
  EXPECT_EQ(format_milliseconds(3.21), "3.21 ms");
  EXPECT_EQ(format_milliseconds(1200), "1.2 s");
}

TEST(Format, Counts) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(16777216), "16,777,216");
  EXPECT_EQ(format_power_of_two(16777216), "2^24");
  EXPECT_EQ(format_power_of_two(1000), "1,000");
  EXPECT_EQ(format_power_of_two(2), "2");
}

TEST(Format, DisplayWidthCountsCharactersNotBytes) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("96³ → 128×128"), 13u);
  EXPECT_EQ(display_width(""), 0u);
}

TEST(Format, CsvFieldsAreQuotedOnlyWhenTheyMustBe) {
  EXPECT_EQ(csv_field("GPU kernel"), "GPU kernel");
  EXPECT_EQ(csv_field("dense, batch 1"), "\"dense, batch 1\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
}

// A reason may echo what a person typed or a file held: printed, it stays one line of printable
// text, and UTF-8 stays as it is.
TEST(Format, OneLineEscapesLineBreaksAndControlBytes) {
  EXPECT_EQ(one_line("no such exercise 'vector-add'"), "no such exercise 'vector-add'");
  EXPECT_EQ(one_line("vector\nadd\r\t"), "vector\\nadd\\r\\t");
  EXPECT_EQ(one_line("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(one_line(std::string_view("a\0b\x7f", 4)), "a\\x00b\\x7f");
  EXPECT_EQ(one_line("caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");
}

}  // namespace
}  // namespace tl
