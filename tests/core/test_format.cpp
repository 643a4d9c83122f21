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

}  // namespace
}  // namespace tl
