#include "launch_field_limits.hpp"

#include <bit>
#include <cstdint>

#include "core/format.hpp"
#include "core/launch_config.hpp"

namespace tl {
namespace {

// 2147483647 as "2^31-1": the grid's x limit in full digits would push the other two off the line.
std::string compact(std::uint32_t n) {
  const std::uint64_t next = std::uint64_t{n} + 1;
  if (n >= (1u << 20) && std::has_single_bit(next)) {
    return "2^" + std::to_string(std::countr_zero(next)) + "-1";
  }
  return format_count(n);
}

}  // namespace

std::optional<LaunchField> launch_field_of(const lessons::ParamSpec& spec) {
  if (spec.kind != lessons::ParamKind::kDim3) return std::nullopt;
  if (spec.name == "grid") return LaunchField::kGrid;
  if (spec.name == "block") return LaunchField::kBlock;
  return std::nullopt;
}

std::optional<FieldLimit> describe_field_limit(const lessons::ParamSpec& spec,
                                               const DeviceLimits& limits) {
  const auto field = launch_field_of(spec);
  if (!field) return std::nullopt;
  if (*field == LaunchField::kGrid) {
    const Dim3& g = limits.max_grid_dim;
    return FieldLimit{"max " + compact(g.x) + " × " + compact(g.y) + " × " + compact(g.z),
                      "Device limit: at most " + format_count(g.x) + " blocks in x, " +
                          format_count(g.y) + " in y and " + format_count(g.z) + " in z"};
  }
  const Dim3& b = limits.max_block_dim;
  const std::string total = format_count(limits.max_threads_per_block);
  return FieldLimit{"max " + compact(b.x) + " × " + compact(b.y) + " × " + compact(b.z) + ", " +
                        total + " in all",
                    "Device limit: at most " + format_count(b.x) + " threads in x, " +
                        format_count(b.y) + " in y and " + format_count(b.z) + " in z, and " +
                        total + " threads per block in all (x · y · z)"};
}

std::optional<Dim3> block_not_used(const std::string& asked, const Dim3& launched) {
  const Result<Dim3> typed = parse_dim3(asked);
  if (!typed || *typed == launched) return std::nullopt;
  return launched;
}

}  // namespace tl
