#include "thread_hierarchy.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "core/parallel_chunks.hpp"

namespace tl::lessons {

Result<std::uint64_t> count_grid_threads(const LaunchConfig& config) {
  const std::uint32_t factors[] = {config.grid.x,  config.grid.y,  config.grid.z,
                                   config.block.x, config.block.y, config.block.z};
  std::uint64_t threads = 1;
  for (std::uint32_t factor : factors) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(threads, std::uint64_t{factor}, &product) ||
        product > kThreadHierarchyMaxThreads) {
      return invalid_argument(
          config.to_string() +
          " launches more threads than the kernel's 64-bit index can count safely (at most 2^62): "
          "every dimension may be legal on its own while their product is not. Use fewer blocks "
          "and a grid-stride loop.");
    }
    threads = product;
  }
  return threads;
}

Status validate_thread_hierarchy(const ThreadHierarchyParams& params, std::uint64_t max_bytes) {
  const std::uint64_t n = params.n;
  if (n == 0) return invalid_argument("N must be at least 1: there is nothing to compute.");
  if (n > kThreadHierarchyMaxN) {
    return invalid_argument("N = " + std::to_string(n) +
                            " is more than the kernel's 64-bit index handles safely (2^62).");
  }
  auto threads = count_grid_threads(params.config);
  if (!threads) return threads.error();
  const double bytes = thread_hierarchy_bytes(n);
  if (max_bytes > 0 && bytes > static_cast<double>(max_bytes)) {
    return Error{
        ErrorKind::kOutOfMemory,
        "N = " + std::to_string(n) + " needs " + format_bytes(bytes) +
            " for `in` and `out`, but only " + format_bytes(static_cast<double>(max_bytes)) +
            " is available; the largest N that fits is " + std::to_string(max_bytes / 8) + "."};
  }
  return Status::ok();
}

std::uint64_t global_thread_index(const LaunchConfig& config, const ThreadPosition& position) {
  const std::uint64_t block =
      config.grid.linear(position.block.x, position.block.y, position.block.z);
  const std::uint64_t thread =
      config.block.linear(position.thread.x, position.thread.y, position.thread.z);
  return block * config.block.volume() + thread;
}

ThreadPosition locate_thread(const LaunchConfig& config, std::uint64_t global_index) {
  const std::uint64_t per_block = config.block.volume();
  return {config.grid.unlinear(global_index / per_block),
          config.block.unlinear(global_index % per_block)};
}

std::optional<ElementOwner> owner_of_element(const ThreadHierarchyParams& params,
                                             std::uint64_t threads, std::uint64_t element) {
  if (element >= params.n || threads == 0) return std::nullopt;
  ElementOwner owner;
  if (params.grid_stride) {
    owner.global_thread = element % threads;
    owner.pass = static_cast<std::uint32_t>(element / threads);
  } else {
    if (element >= threads) return std::nullopt;  // the grid ran out of threads
    owner.global_thread = element;
  }
  owner.position = locate_thread(params.config, owner.global_thread);
  return owner;
}

std::uint64_t grid_stride_passes(std::uint64_t n, std::uint64_t threads) {
  if (threads == 0) return 0;
  return n / threads + (n % threads != 0 ? 1 : 0);
}

void thread_hierarchy_reference(std::span<const float> in, std::span<float> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = 2.0f * in[i] + 1.0f;
}

unsigned thread_hierarchy_reference_parallel(std::span<const float> in, std::span<float> out,
                                             unsigned threads) {
  return for_each_chunk(out.size(), threads, std::size_t{1} << 16,
                        [&](std::size_t begin, std::size_t end) {
                          for (std::size_t i = begin; i < end; ++i) out[i] = 2.0f * in[i] + 1.0f;
                        });
}

ElementCheck check_thread_hierarchy(std::span<const float> in, std::span<const float> out) {
  std::vector<float> expected(in.size());
  thread_hierarchy_reference(in, expected);
  return compare_elements(expected, out, kThreadHierarchyRule);
}

std::string_view to_string(BranchRule rule) {
  switch (rule) {
    case BranchRule::kByThread:
      return "by-thread";
    case BranchRule::kByWarp:
      return "by-warp";
    case BranchRule::kNone:
      break;
  }
  return "none";
}

std::optional<BranchRule> parse_branch_rule(std::string_view text) {
  for (BranchRule rule : {BranchRule::kNone, BranchRule::kByThread, BranchRule::kByWarp}) {
    if (text == to_string(rule)) return rule;
  }
  return std::nullopt;
}

unsigned branch_side(BranchRule rule, std::uint32_t thread_in_block) {
  switch (rule) {
    case BranchRule::kByThread:
      return thread_in_block % 2;
    case BranchRule::kByWarp:
      return thread_in_block / 32 % 2;
    case BranchRule::kNone:
      break;
  }
  return 0;
}

WarpAtBranch warp_at_branch(BranchRule rule, std::uint32_t block_threads, std::uint32_t warp,
                            std::uint32_t warp_size) {
  WarpAtBranch at;
  at.warp = warp;
  const std::uint64_t first = std::uint64_t{warp} * warp_size;
  if (first >= block_threads) return at;
  const auto last = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(first + warp_size, block_threads));  // one past
  at.lanes_with_threads = last - static_cast<std::uint32_t>(first);
  for (auto thread = static_cast<std::uint32_t>(first); thread < last; ++thread) {
    ++at.lanes_on_side[branch_side(rule, thread)];
  }
  return at;
}

BlockAtBranch block_at_branch(BranchRule rule, std::uint32_t block_threads,
                              std::uint32_t warp_size) {
  BlockAtBranch block;
  block.warp_size = warp_size;
  if (warp_size == 0) return block;
  block.warps = block_threads / warp_size + (block_threads % warp_size != 0 ? 1 : 0);
  for (std::uint32_t warp = 0; warp < block.warps; ++warp) {
    const WarpAtBranch at = warp_at_branch(rule, block_threads, warp, warp_size);
    block.warp_passes += at.passes();
    for (std::uint32_t side = 0; side < 2; ++side) {
      if (at.lanes_on_side[side] > 0) block.idle_lane_slots += warp_size - at.lanes_on_side[side];
    }
  }
  return block;
}

// The same steps as lessons/02_thread_hierarchy/kernels/thread_hierarchy.cuh's even_side and
// odd_side; the emulator tests run those kernels against this, so the two cannot drift apart
// unnoticed.
float branch_even_side(float x) {
  for (int step = 0; step < kBranchSteps; ++step) x = std::fma(x, 0.5f, 0.25f) * 0.75f;
  return x;
}

float branch_odd_side(float x) {
  for (int step = 0; step < kBranchSteps; ++step) x = std::fma(x * x, -0.25f, 0.5f);
  return x;
}

namespace {

void branch_range(BranchRule rule, std::uint32_t block_threads, std::span<const float> in,
                  std::span<float> out, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    const auto thread = static_cast<std::uint32_t>(i % block_threads);
    out[i] = branch_side(rule, thread) == 0 ? branch_even_side(in[i]) : branch_odd_side(in[i]);
  }
}

}  // namespace

void branch_reference(BranchRule rule, std::uint32_t block_threads, std::span<const float> in,
                      std::span<float> out) {
  if (block_threads == 0) return;
  branch_range(rule, block_threads, in, out, 0, out.size());
}

unsigned branch_reference_parallel(BranchRule rule, std::uint32_t block_threads,
                                   std::span<const float> in, std::span<float> out,
                                   unsigned threads) {
  if (block_threads == 0) return 0;
  return for_each_chunk(out.size(), threads, std::size_t{1} << 12,
                        [&](std::size_t begin, std::size_t end) {
                          branch_range(rule, block_threads, in, out, begin, end);
                        });
}

ElementCheck check_thread_hierarchy(const ThreadHierarchyParams& params, std::span<const float> in,
                                    std::span<const float> out) {
  if (params.branch == BranchRule::kNone) return check_thread_hierarchy(in, out);
  std::vector<float> expected(in.size());
  branch_reference_parallel(params.branch, static_cast<std::uint32_t>(params.config.block.volume()),
                            in, expected);
  return compare_elements(expected, out, kThreadHierarchyBranchRule);
}

}  // namespace tl::lessons
