#include "core/parse.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

TEST(ParseCount, AcceptsTheFormsPeopleType) {
  EXPECT_EQ(*parse_count("1000"), 1000u);
  EXPECT_EQ(*parse_count(" 42 "), 42u);
  EXPECT_EQ(*parse_count("2^24"), 16777216u);
  EXPECT_EQ(*parse_count("1<<20"), 1048576u);
  EXPECT_EQ(*parse_count("16M"), 16000000u);
  EXPECT_EQ(*parse_count("4Ki"), 4096u);
  EXPECT_EQ(*parse_count("1Gi"), 1073741824u);
  EXPECT_EQ(*parse_count("1e6"), 1000000u);
  EXPECT_EQ(*parse_count("0"), 0u);
}

TEST(ParseCount, RejectsWhatIsNotACount) {
  for (const char* bad : {"", "abc", "-5", "1.5", "2^", "2^99", "1e-3", "12abc",
                          "99999999999999999999", "20000000000G"}) {
    EXPECT_FALSE(parse_count(bad).is_ok()) << bad;
  }
}

TEST(ParseCountList, ListsAndPowerOfTwoRanges) {
  EXPECT_EQ(*parse_count_list("1000,10,100"), (std::vector<std::uint64_t>{10, 100, 1000}));
  EXPECT_EQ(*parse_count_list("2^10..2^13"), (std::vector<std::uint64_t>{1024, 2048, 4096, 8192}));
  EXPECT_EQ(*parse_count_list("2^2..2^3,5,4"), (std::vector<std::uint64_t>{4, 5, 8}));
}

TEST(ParseCountList, RejectsBrokenLists) {
  for (const char* bad : {"", "1,,2", "1,", "2^4..2^2", "3..8", "a..b"}) {
    EXPECT_FALSE(parse_count_list(bad).is_ok()) << bad;
  }
}

}  // namespace
}  // namespace tl
