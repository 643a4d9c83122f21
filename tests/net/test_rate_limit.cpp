// The token buckets behind the server's 429s: a burst, then the steady rate, per key, with the
// clock stepped by the test.

#include <gtest/gtest.h>

#include "net/rate_limit.hpp"

namespace tl::net {
namespace {

using namespace std::chrono_literals;

TEST(RateLimit, ABurstThenTheSteadyRatePerKey) {
  RateLimiter limiter(2.0, 5.0);
  auto t = RateLimiter::Clock::time_point{} + 100s;
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(limiter.allow("a", t)) << i;
  EXPECT_FALSE(limiter.allow("a", t));
  EXPECT_TRUE(limiter.allow("b", t));  // another key has its own bucket
  EXPECT_FALSE(limiter.allow("a", t + 400ms));
  EXPECT_TRUE(limiter.allow("a", t + 500ms));  // 2 per second: one token after half a second
  EXPECT_FALSE(limiter.allow("a", t + 500ms));
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(limiter.allow("a", t + 60s)) << i;  // full again, no more
  EXPECT_FALSE(limiter.allow("a", t + 60s));
}

TEST(RateLimit, TheTableStaysBoundedAndAFloodOfKeysKeepsWorking) {
  RateLimiter limiter(1.0, 1.0, 8);
  auto t = RateLimiter::Clock::time_point{} + 100s;
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(limiter.allow("key" + std::to_string(i), t)) << i;
  // The drained key 99 is still in the (bounded) table: its bucket is empty.
  EXPECT_FALSE(limiter.allow("key99", t));
}

}  // namespace
}  // namespace tl::net
