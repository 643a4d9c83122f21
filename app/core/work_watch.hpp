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
  std::atomic<std::uint64_t> grids{0};        // grids launched so far
  std::atomic<std::uint64_t> grid_blocks{0};  // blocks of the grid launched last
  [[nodiscard]] bool cancelled() const {
    return cancel != nullptr && cancel->load(std::memory_order_relaxed);
  }
  // 0 to 1 over the grids launched so far (a later grid of the same launch adds its blocks).
  [[nodiscard]] float fraction() const {
    const std::uint64_t all = total.load(std::memory_order_relaxed);
    if (all == 0) return 0.0f;
    return static_cast<float>(done.load(std::memory_order_relaxed)) / static_cast<float>(all);
  }
  // 0 to 1 of the grid launched last (grids run one after another: the earlier ones are done). A
  // timed run launches its kernels many times, so only this one is known to have an end.
  [[nodiscard]] float grid_fraction() const {
    const std::uint64_t blocks = grid_blocks.load(std::memory_order_relaxed);
    if (blocks == 0) return 0.0f;
    const std::uint64_t all = total.load(std::memory_order_relaxed);
    const std::uint64_t finished = done.load(std::memory_order_relaxed);
    const std::uint64_t before = all >= blocks ? all - blocks : 0;
    const std::uint64_t in_grid = finished > before ? finished - before : 0;
    return in_grid >= blocks ? 1.0f : static_cast<float>(in_grid) / static_cast<float>(blocks);
  }
  // Back to nothing launched, for the next piece of work on the same watch.
  void reset() {
    done.store(0, std::memory_order_relaxed);
    total.store(0, std::memory_order_relaxed);
    grids.store(0, std::memory_order_relaxed);
    grid_blocks.store(0, std::memory_order_relaxed);
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
