#include "thread_hierarchy.hpp"

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

}  // namespace tl::lessons
