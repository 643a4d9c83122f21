#include "parameterized_lesson.hpp"

#include <utility>

#include "core/device_info.hpp"
#include "core/sweep/block_sweep.hpp"

namespace tl::compute {

ParameterizedLesson::ParameterizedLesson(DeclaredParameters declared)
    : declared_(std::move(declared)), values_(lessons::default_values(declared_.specs)) {}

void ParameterizedLesson::apply_defaults() {
  (void)configure({});
}

Status ParameterizedLesson::configure(const lessons::ParamValues& given) {
  auto merged = lessons::merge_values(declared_.specs, values_, given, declared_.info.id);
  if (!merged) return merged.error();
  const lessons::ParamReader reader(declared_.specs, *merged);
  TL_RETURN_IF_ERROR(apply(reader, *merged));
  values_ = std::move(*merged);
  return Status::ok();
}

lessons::ParamValues ParameterizedLesson::sweep_resets() const {
  return declared_.sweep_resets;
}

lessons::ParamValues ParameterizedLesson::step_values(const lessons::ParamValues& changes) const {
  lessons::ParamValues values = values_;
  for (const auto& [name, value] : sweep_resets()) values[name] = value;
  for (const auto& [name, value] : changes) values[name] = value;
  return values;
}

lessons::ParamValues ParameterizedLesson::values_for_size(std::uint64_t size) const {
  lessons::ParamValues sized;
  for (const std::string& name : declared_.size_params) sized[name] = std::to_string(size);
  return step_values(sized);
}

std::vector<BlockStep> ParameterizedLesson::block_sweep() const {
  const std::uint32_t max_threads = standard_cuda_limits().max_threads_per_block;
  std::vector<BlockStep> steps;
  switch (declared_.blocks) {
    case BlockSweepShape::kOneDimension:
      for (const Dim3& block : block_sweep_1d(max_threads)) {
        steps.push_back({block, step_values({{"block", std::to_string(block.x)}})});
      }
      break;
    case BlockSweepShape::kWarpMultiplesOfTwo:
      for (std::uint32_t threads = 32; threads <= max_threads; threads *= 2) {
        steps.push_back({Dim3{threads, 1, 1}, step_values({{"block", std::to_string(threads)}})});
      }
      break;
    case BlockSweepShape::kTwoDimensions:
      for (const Dim3& block :
           block_sweep_2d(max_threads, declared_.largest_block.x, declared_.largest_block.y)) {
        steps.push_back({block, step_values({{"block", std::to_string(block.x) + "," +
                                                           std::to_string(block.y)}})});
      }
      break;
    case BlockSweepShape::kFixed:
      steps.push_back({declared_.fixed_block, step_values({})});
      break;
  }
  return steps;
}

}  // namespace tl::compute
