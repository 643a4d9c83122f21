#include "launch_request.hpp"

#include "core/lessons/catalog.hpp"
#include "core/lessons/vector_add.hpp"
#include "core/parse.hpp"

namespace tl::cli {

Status check_lesson(const std::string& id) {
  const auto lesson = lessons::find_lesson(id);
  if (!lesson) return invalid_argument("unknown lesson '" + id + "' (see `threadlab lessons`)");
  if (!lesson->available)
    return invalid_argument("lesson '" + id + "' is not available in this version yet");
  return Status::ok();
}

Result<LaunchRequest> resolve_launch(const LaunchOptions& options) {
  TL_RETURN_IF_ERROR(check_lesson(options.lesson));
  auto n = parse_count(options.n);
  if (!n) return invalid_argument("--n: " + n.message());
  TL_RETURN_IF_ERROR(lessons::validate_vector_add_size(*n, 0));
  LaunchRequest request;
  request.n = *n;
  if (options.single_block) {
    if (!options.grid.empty())
      return invalid_argument("--single-block and --grid cannot be combined");
    if (options.block_given) {
      return invalid_argument(
          "--single-block and --block cannot be combined: the block is N threads");
    }
    request.config = lessons::single_block_config(*n);
    return request;
  }
  auto block = parse_dim3(options.block);
  if (!block) return invalid_argument("--block: " + block.message());
  // Zero is no size at all; a block too big for the device is a real configuration that CUDA
  // refuses at launch, which the lesson wants users to see.
  if (block->volume() == 0) return invalid_argument("--block: every dimension must be at least 1");
  request.config.block = *block;
  if (options.grid.empty()) {
    request.config.grid = {blocks_to_cover(*n, static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                                   block->volume(), 0xFFFFFFFFu))),
                           1, 1};
  } else {
    auto grid = parse_dim3(options.grid);
    if (!grid) return invalid_argument("--grid: " + grid.message());
    if (grid->volume() == 0) return invalid_argument("--grid: every dimension must be at least 1");
    request.config.grid = *grid;
  }
  return request;
}

}  // namespace tl::cli
