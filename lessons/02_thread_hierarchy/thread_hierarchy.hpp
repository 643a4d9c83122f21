#pragma once
// Lesson 2, the thread hierarchy: out[i] = 2 * in[i] + 1 over n elements, on a 1D, 2D or 3D grid of
// 1D, 2D or 3D blocks, one element per thread or with a grid-stride loop. The parameters, their
// validation, the kernel's index arithmetic on the host (for checks and the views), the CPU
// reference and the check. No CUDA here: the kernels live in
// lessons/02_thread_hierarchy/kernels/thread_hierarchy.cuh.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/launch_config.hpp"
#include "core/lessons/catalog.hpp"
#include "core/lessons/element_check.hpp"
#include "core/result.hpp"

namespace tl::lessons {

// Who this lesson is, as its module registers it (module.cpp).
inline constexpr LessonInfo kThreadHierarchyInfo{
    2, "thread-hierarchy", "Thread hierarchy",
    "grid, blocks, warps and threads; grid-stride loops; SMs and waves", "02_thread_hierarchy"};
inline constexpr std::string_view kThreadHierarchyId = kThreadHierarchyInfo.id;
inline constexpr std::string_view kThreadHierarchyRule = "out = 2 * in + 1";
inline constexpr std::string_view kThreadHierarchyBranchRule =
    "out = even_side(in) or odd_side(in), as the thread's side of the branch";

// The warp-divergence demo: which threads take which side of the kernels' branch
// (lessons/02_thread_hierarchy/kernels/thread_hierarchy.cuh). kNone runs the plain out = 2 * in
// + 1.
enum class BranchRule : std::uint8_t {
  kNone,
  kByThread,  // if (threadIdx.x % 2 == 0): both sides in every warp
  kByWarp,    // if (threadIdx.x / 32 % 2 == 0): one side per warp
};
// "none", "by-thread", "by-warp": the lesson's `branch` parameter.
[[nodiscard]] std::string_view to_string(BranchRule rule);
[[nodiscard]] std::optional<BranchRule> parse_branch_rule(std::string_view text);

struct ThreadHierarchyParams {
  std::uint64_t n = std::uint64_t{1} << 20;
  LaunchConfig config{{4096, 1, 1}, {256, 1, 1}};
  bool grid_stride = false;  // false: one element per thread, with the i < n guard
  BranchRule branch = BranchRule::kNone;
};

// Steps of each side of the branch (lessons/02_thread_hierarchy/kernels/thread_hierarchy.cuh's
// kBranchSteps), two floating-point operations each.
inline constexpr int kBranchSteps = 256;

// The side (0: even_side, 1: odd_side) the thread numbered `thread_in_block` in its block takes
// under `rule` (0 for kNone).
[[nodiscard]] unsigned branch_side(BranchRule rule, std::uint32_t thread_in_block);

// One warp at the branch: how many of its lanes hold a thread (the block's last warp may be
// partial), how many of those take each side, and how many times the warp runs the branch's body:
// once per side some lane takes. Every pass leaves the lanes of the other side (and the lanes with
// no thread) idle.
struct WarpAtBranch {
  std::uint32_t warp = 0;  // its number in the block
  std::uint32_t lanes_with_threads = 0;
  std::uint32_t lanes_on_side[2] = {0, 0};
  [[nodiscard]] std::uint32_t passes() const {
    return (lanes_on_side[0] > 0 ? 1u : 0u) + (lanes_on_side[1] > 0 ? 1u : 0u);
  }
};
[[nodiscard]] WarpAtBranch warp_at_branch(BranchRule rule, std::uint32_t block_threads,
                                          std::uint32_t warp, std::uint32_t warp_size = 32);

// Over one block: the warps' passes through the branch body, and the lane-slots of those passes
// that sat idle (lanes of the other side and lanes with no thread), out of passes * warp_size.
struct BlockAtBranch {
  std::uint32_t warps = 0;
  std::uint32_t warp_passes = 0;
  std::uint64_t idle_lane_slots = 0;
  std::uint32_t warp_size = 32;
  [[nodiscard]] double idle_fraction() const {
    const double slots = static_cast<double>(warp_passes) * warp_size;
    return slots == 0 ? 0.0 : static_cast<double>(idle_lane_slots) / slots;
  }
};
[[nodiscard]] BlockAtBranch block_at_branch(BranchRule rule, std::uint32_t block_threads,
                                            std::uint32_t warp_size = 32);

// Bytes and floating-point operations of one run over n floats: read in, write out; a multiply
// and an add per element.
[[nodiscard]] inline double thread_hierarchy_bytes(std::uint64_t n) {
  return 8.0 * static_cast<double>(n);
}
[[nodiscard]] inline double thread_hierarchy_flops(std::uint64_t n) {
  return 2.0 * static_cast<double>(n);
}

// The kernel's index is 64-bit and a grid-stride loop adds the grid's size to it: with at most
// 2^62 threads and 2^62 elements that sum can never wrap around.
inline constexpr std::uint64_t kThreadHierarchyMaxThreads = std::uint64_t{1} << 62;
inline constexpr std::uint64_t kThreadHierarchyMaxN = std::uint64_t{1} << 62;

// grid.x·grid.y·grid.z·block.x·block.y·block.z, or an error when the product exceeds
// kThreadHierarchyMaxThreads. Each factor can be legal on its own while the product overflows even
// 64 bits (2^31 · 2^16 · 2^16 · 2^10 = 2^73), so it is multiplied with an overflow check.
Result<std::uint64_t> count_grid_threads(const LaunchConfig& config);

// n must be at least 1 and at most kThreadHierarchyMaxN, the grid's thread count must fit the
// kernel's 64-bit index, and `in` and `out` the memory available (max_bytes; 0 skips that check).
// Launch limits (threads per block, grid extents) are left to CUDA so that its own error shows.
Status validate_thread_hierarchy(const ThreadHierarchyParams& params, std::uint64_t max_bytes);

// Where a thread sits in the hierarchy.
struct ThreadPosition {
  Dim3 block;   // blockIdx
  Dim3 thread;  // threadIdx
  friend bool operator==(const ThreadPosition&, const ThreadPosition&) = default;
};

// The kernel's formula on the host: block * threads_per_block + thread, both counted x fastest.
[[nodiscard]] std::uint64_t global_thread_index(const LaunchConfig& config,
                                                const ThreadPosition& position);
// Its inverse: which blockIdx and threadIdx have this global index (< the grid's thread count).
[[nodiscard]] ThreadPosition locate_thread(const LaunchConfig& config, std::uint64_t global_index);

// Who computes `element`, and on which trip round the grid-stride loop (0 without one).
struct ElementOwner {
  std::uint64_t global_thread = 0;
  ThreadPosition position;
  std::uint32_t pass = 0;
};
// The analytic mapping: element % threads on pass element / threads with a grid-stride loop;
// thread `element` without one, or nobody when the grid is too small. `threads` is the grid's
// thread count (count_grid_threads).
[[nodiscard]] std::optional<ElementOwner> owner_of_element(const ThreadHierarchyParams& params,
                                                           std::uint64_t threads,
                                                           std::uint64_t element);

// Trips round the grid-stride loop the busiest thread makes: ceil(n / threads).
[[nodiscard]] std::uint64_t grid_stride_passes(std::uint64_t n, std::uint64_t threads);

// The plain loop: out[i] = 2 * in[i] + 1.
void thread_hierarchy_reference(std::span<const float> in, std::span<float> out);
// The same on every hardware thread (0) or `threads`; returns how many were used.
unsigned thread_hierarchy_reference_parallel(std::span<const float> in, std::span<float> out,
                                             unsigned threads = 0);

// Compares out against 2 * in + 1, bit for bit (2x is exact, so 2x + 1 rounds once, everywhere).
ElementCheck check_thread_hierarchy(std::span<const float> in, std::span<const float> out);

// The divergence kernels' two sides on the CPU, as
// lessons/02_thread_hierarchy/kernels/thread_hierarchy.cuh computes them.
[[nodiscard]] float branch_even_side(float x);
[[nodiscard]] float branch_odd_side(float x);
// The divergence kernels' output on the CPU: element i is computed by a thread numbered
// i % block_threads in its block (with or without the grid-stride loop, the grid's thread count is
// a multiple of the block's), which picks its side by `rule`.
void branch_reference(BranchRule rule, std::uint32_t block_threads, std::span<const float> in,
                      std::span<float> out);
// The same on every hardware thread (0) or `threads`; returns how many were used.
unsigned branch_reference_parallel(BranchRule rule, std::uint32_t block_threads,
                                   std::span<const float> in, std::span<float> out,
                                   unsigned threads = 0);
// The check of whichever kernel `params` chooses: 2 * in + 1, or the branch's sides, bit for bit
// (fmaf and a separate multiply round the same on the GPU and the CPU).
ElementCheck check_thread_hierarchy(const ThreadHierarchyParams& params, std::span<const float> in,
                                    std::span<const float> out);

}  // namespace tl::lessons
