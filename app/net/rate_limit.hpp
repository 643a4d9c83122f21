#pragma once
// Token buckets by key (a student id, a remote address): `burst` requests at once, then
// `per_second` on average. The server answers 429 past it, so one runaway or hostile client cannot
// starve the class. The clock is passed in, so the tests step time instead of sleeping.

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace tl::net {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  RateLimiter(double per_second, double burst, std::size_t max_keys = 4096)
      : per_second_(per_second), burst_(burst), max_keys_(max_keys) {}

  // Takes one token from `key`'s bucket; false when it is empty.
  bool allow(const std::string& key, Clock::time_point now = Clock::now());

 private:
  struct Bucket {
    double tokens = 0;
    Clock::time_point last;
  };
  double per_second_;
  double burst_;
  std::size_t max_keys_;  // the table's bound: full buckets are dropped first, then all
  std::mutex mutex_;
  std::map<std::string, Bucket> buckets_;
};

}  // namespace tl::net
