#include "launch_config.hpp"

#include <charconv>
#include <limits>

namespace tl {
namespace {

std::string dim3_text(const Dim3& d) {
  if (d.z == 1 && d.y == 1) return std::to_string(d.x);
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) +
         (d.z == 1 ? "" : ", " + std::to_string(d.z)) + ")";
}

void check_axis(std::vector<LaunchProblem>& problems, const char* what, char axis,
                std::uint32_t value, std::uint32_t limit, LaunchProblemKind kind) {
  if (value <= limit) return;
  problems.push_back({kind, std::string(what) + "." + axis + " = " + std::to_string(value) +
                                " exceeds this device's limit of " + std::to_string(limit) + "."});
}

}  // namespace

std::string LaunchConfig::to_string() const {
  return "<<<" + dim3_text(grid) + ", " + dim3_text(block) + ">>>";
}

std::vector<LaunchProblem> validate(const LaunchConfig& config, const DeviceLimits& limits) {
  std::vector<LaunchProblem> problems;
  if (config.grid.volume() == 0 || config.block.volume() == 0) {
    problems.push_back({LaunchProblemKind::kZeroDimension,
                        "Every grid and block dimension must be at least 1: a launch with zero "
                        "threads is rejected by CUDA."});
  }
  if (config.block.volume() > limits.max_threads_per_block) {
    problems.push_back(
        {LaunchProblemKind::kTooManyThreadsPerBlock,
         "A block of " + std::to_string(config.block.volume()) + " threads exceeds the limit of " +
             std::to_string(limits.max_threads_per_block) +
             " threads per block: all threads of a block run on one streaming multiprocessor and "
             "share its registers and shared memory, so use more blocks instead."});
  }
  check_axis(problems, "blockDim", 'x', config.block.x, limits.max_block_dim.x,
             LaunchProblemKind::kBlockDimTooLarge);
  check_axis(problems, "blockDim", 'y', config.block.y, limits.max_block_dim.y,
             LaunchProblemKind::kBlockDimTooLarge);
  check_axis(problems, "blockDim", 'z', config.block.z, limits.max_block_dim.z,
             LaunchProblemKind::kBlockDimTooLarge);
  check_axis(problems, "gridDim", 'x', config.grid.x, limits.max_grid_dim.x,
             LaunchProblemKind::kGridDimTooLarge);
  check_axis(problems, "gridDim", 'y', config.grid.y, limits.max_grid_dim.y,
             LaunchProblemKind::kGridDimTooLarge);
  check_axis(problems, "gridDim", 'z', config.grid.z, limits.max_grid_dim.z,
             LaunchProblemKind::kGridDimTooLarge);
  return problems;
}

Status check_launch(const LaunchConfig& config, const DeviceLimits& limits) {
  auto problems = validate(config, limits);
  if (problems.empty()) return Status::ok();
  return invalid_argument(config.to_string() +
                          " is not a valid launch: " + problems.front().message);
}

std::uint32_t blocks_to_cover(std::uint64_t n, std::uint32_t threads_per_block) {
  if (threads_per_block == 0) return 0;
  const std::uint64_t blocks = (n + threads_per_block - 1) / threads_per_block;
  return blocks > std::numeric_limits<std::uint32_t>::max()
             ? std::numeric_limits<std::uint32_t>::max()
             : static_cast<std::uint32_t>(blocks);
}

Result<Dim3> parse_dim3(const std::string& text) {
  std::uint32_t values[3] = {1, 1, 1};
  int count = 0;
  std::size_t pos = 0;
  const std::string bad =
      "'" + text + "' is not a dimension: expected 1 to 3 positive integers like 256 or 16,16";
  while (true) {
    while (pos < text.size() && text[pos] == ' ') ++pos;
    if (count == 3) return invalid_argument(bad);
    const char* begin = text.data() + pos;
    const char* end = text.data() + text.size();
    std::uint64_t value = 0;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc::result_out_of_range || (ec == std::errc{} && value > 0xFFFFFFFFull)) {
      return invalid_argument("'" + text + "': each dimension must fit in 32 bits");
    }
    if (ec != std::errc{}) return invalid_argument(bad);
    values[count++] = static_cast<std::uint32_t>(value);
    pos = static_cast<std::size_t>(ptr - text.data());
    while (pos < text.size() && text[pos] == ' ') ++pos;
    if (pos == text.size()) break;
    if (text[pos] == ',' || text[pos] == 'x' || text[pos] == 'X') {
      ++pos;
    } else if (text.compare(pos, 2, "×") == 0) {
      pos += 2;
    } else {
      return invalid_argument(bad);
    }
  }
  return Dim3{values[0], values[1], values[2]};
}

}  // namespace tl
