#include "lessons/01_vector_add/vector_add.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace tl::lessons {
namespace {

TEST(VectorAddModel, SizeValidation) {
  EXPECT_FALSE(validate_vector_add_size(0, 0).is_ok());
  EXPECT_TRUE(validate_vector_add_size(1, 0).is_ok());
  EXPECT_TRUE(validate_vector_add_size(kVectorAddMaxN, 0).is_ok());
  EXPECT_FALSE(validate_vector_add_size(kVectorAddMaxN + 1, 0).is_ok());
  // 1000 floats need 12,000 bytes.
  EXPECT_TRUE(validate_vector_add_size(1000, 12000).is_ok());
  const Status too_big = validate_vector_add_size(1001, 12000);
  ASSERT_FALSE(too_big.is_ok());
  EXPECT_EQ(too_big.error().kind, ErrorKind::kOutOfMemory);
  EXPECT_NE(too_big.message().find("largest N that fits is 1000"), std::string::npos);
}

TEST(VectorAddModel, TheArticlesConfigurations) {
  EXPECT_EQ(single_block_config(1000), (LaunchConfig{{1, 1, 1}, {1000, 1, 1}}));
  EXPECT_EQ(covering_config(500000, 256), (LaunchConfig{{1954, 1, 1}, {256, 1, 1}}));
  EXPECT_GE(covering_config(500000, 256).total_threads(), 500000u);
}

TEST(VectorAddModel, RandomInputsAreDeterministicAndInRange) {
  std::vector<float> a(1000), b(1000), c(1000);
  fill_random(a, 7);
  fill_random(b, 7);
  fill_random(c, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (float v : a) {
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
  }
}

TEST(VectorAddModel, ParallelReferenceEqualsThePlainLoop) {
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{(1 << 18) + 3}}) {
    std::vector<float> a(n), b(n), single(n), multi(n);
    fill_random(a, 1);
    fill_random(b, 2);
    vector_add_reference(a, b, single);
    vector_add_reference_parallel(a, b, multi, 4);
    EXPECT_EQ(single, multi) << n;
  }
}

TEST(VectorAddModel, CheckFindsTheFirstWrongElementAndCountsAll) {
  std::vector<float> a(100), b(100), c(100);
  fill_random(a, 3);
  fill_random(b, 4);
  vector_add_reference(a, b, c);
  EXPECT_TRUE(check_vector_add(a, b, c).passed);
  c[40] += 1.0f;
  c[90] = std::numeric_limits<float>::quiet_NaN();  // an element nobody wrote
  const CheckResult r = check_vector_add(a, b, c);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.first_wrong, 40u);
  EXPECT_EQ(r.wrong_count, 2u);
  EXPECT_FLOAT_EQ(r.expected, a[40] + b[40]);
  EXPECT_NE(r.describe().find("index 40"), std::string::npos);
}

}  // namespace
}  // namespace tl::lessons
