#include "lesson.hpp"

#include "core/sweep/block_sweep.hpp"

namespace tl::compute {

const TimingRow* LessonReport::find(const TimingKey& key) const {
  for (const TimingRow& row : rows) {
    if (row.key == key) return &row;
  }
  return nullptr;
}

Status Lesson::check_watchdog(const Device& device) const {
  if (!device.is_gpu()) return Status::ok();
  const auto work = longest_kernel();
  if (!work) return Status::ok();
  const DeviceInfo& info = device.info();
  return tl::check_watchdog(
      info, pessimistic_kernel_seconds(info, work->flops, work->bytes, work->efficiency),
      work->kernel);
}

std::vector<BlockStep> block_steps_1d(const lessons::ParamValues& base, bool keep_grid) {
  std::vector<BlockStep> steps;
  for (const Dim3& block : block_sweep_1d(standard_cuda_limits().max_threads_per_block)) {
    lessons::ParamValues values = base;
    values["block"] = std::to_string(block.x);
    if (!keep_grid) values["grid"] = "auto";
    steps.push_back({block, std::move(values)});
  }
  return steps;
}

std::vector<BlockStep> block_steps_2d(const lessons::ParamValues& base, std::uint32_t max_x,
                                      std::uint32_t max_y) {
  std::vector<BlockStep> steps;
  for (const Dim3& block :
       block_sweep_2d(standard_cuda_limits().max_threads_per_block, max_x, max_y)) {
    lessons::ParamValues values = base;
    values["block"] = std::to_string(block.x) + "," + std::to_string(block.y);
    values["grid"] = "auto";
    steps.push_back({block, std::move(values)});
  }
  return steps;
}

}  // namespace tl::compute
