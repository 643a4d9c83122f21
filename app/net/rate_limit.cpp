#include "net/rate_limit.hpp"

#include <algorithm>

namespace tl::net {

bool RateLimiter::allow(const std::string& key, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto found = buckets_.find(key);
  if (found == buckets_.end()) {
    if (buckets_.size() >= max_keys_) {
      // A full bucket is the same as no bucket, so dropping those loses nothing; if every bucket
      // is in use (a flood of keys), starting over is still bounded memory.
      std::erase_if(buckets_, [&](const auto& entry) {
        const Bucket& b = entry.second;
        double refilled =
            b.tokens + std::chrono::duration<double>(now - b.last).count() * per_second_;
        return refilled >= burst_;
      });
      if (buckets_.size() >= max_keys_) buckets_.clear();
    }
    found = buckets_.emplace(key, Bucket{burst_, now}).first;
  }
  Bucket& bucket = found->second;
  double elapsed = std::chrono::duration<double>(now - bucket.last).count();
  bucket.tokens = std::min(burst_, bucket.tokens + std::max(0.0, elapsed) * per_second_);
  bucket.last = std::max(bucket.last, now);
  if (bucket.tokens < 1.0) return false;
  bucket.tokens -= 1.0;
  return true;
}

}  // namespace tl::net
