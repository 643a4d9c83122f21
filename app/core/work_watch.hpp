#pragma once
// Long work far below its caller (an emulated grid inside a lesson's traced launch) answers Cancel
// and says how far it got without every layer in between passing a flag: the caller installs a
// WorkWatch on its thread, and the emulator's grid executor, which runs on that thread, reads it.

#include <atomic>
#include <cstdint>

namespace tl {

struct WorkWatch {
  const std::atomic<bool>* cancel = nullptr;  // set: stop at the next block
  std::atomic<std::uint64_t> done{0};         // blocks finished, over every grid launched so far
  std::atomic<std::uint64_t> total{0};        // blocks of every grid launched so far
  [[nodiscard]] bool cancelled() const {
    return cancel != nullptr && cancel->load(std::memory_order_relaxed);
  }
  // 0 to 1 over the grids launched so far (a later grid of the same launch adds its blocks).
  [[nodiscard]] float fraction() const {
    const std::uint64_t all = total.load(std::memory_order_relaxed);
    if (all == 0) return 0.0f;
    return static_cast<float>(done.load(std::memory_order_relaxed)) / static_cast<float>(all);
  }
};

// The watch installed on the calling thread, or null.
[[nodiscard]] WorkWatch* current_work_watch();

// Installs `watch` on the calling thread for its lifetime (the previous one comes back after).
class ScopedWorkWatch {
 public:
  explicit ScopedWorkWatch(WorkWatch& watch);
  ~ScopedWorkWatch();
  ScopedWorkWatch(const ScopedWorkWatch&) = delete;
  ScopedWorkWatch& operator=(const ScopedWorkWatch&) = delete;

 private:
  WorkWatch* previous_;
};

}  // namespace tl
