#include "launch_request.hpp"

#include <algorithm>

#include "compute/lessons/lesson_registry.hpp"

namespace tl::cli {

Result<std::unique_ptr<compute::Lesson>> configure_lesson(const LaunchOptions& options) {
  auto lesson = compute::make_lesson(options.lesson);
  if (!lesson) return lesson.error();
  lessons::ParamValues values(options.params.begin(), options.params.end());
  if (options.single_block) {
    if (values.count("grid") != 0 || values.count("block") != 0) {
      return invalid_argument(
          "--single-block sets the grid and the block itself: drop --grid and --block");
    }
  }
  const Status configured = (*lesson)->configure(values);
  if (!configured) return configured.error();
  if (options.single_block) {
    const DataShape shape = (*lesson)->data_shape();
    if (shape.rows > 1) return invalid_argument("--single-block is for 1D data");
    const Status single =
        (*lesson)->configure({{"grid", "1"}, {"block", std::to_string(shape.cols)}});
    if (!single) return invalid_argument("--single-block: " + single.message());
  }
  return lesson;
}

std::vector<lessons::ParamSpec> all_lesson_params() {
  std::vector<lessons::ParamSpec> all;
  for (const auto& info : lessons::catalog()) {
    auto lesson = compute::make_lesson(info.id);
    if (!lesson) continue;
    for (const auto& spec : (*lesson)->params()) {
      // Each lesson means its own thing by a shared name (--n is a vector's length in one lesson,
      // the elements to cover in another), with its own default: the help says whose is whose.
      const std::string described =
          std::string(info.id) + ": " + spec.help + " (default " + spec.default_value + ")";
      auto known =
          std::find_if(all.begin(), all.end(), [&](const auto& s) { return s.name == spec.name; });
      if (known == all.end()) {
        all.push_back(spec);
        all.back().help = described;
      } else {
        known->help += "; " + described;
      }
    }
  }
  return all;
}

}  // namespace tl::cli
