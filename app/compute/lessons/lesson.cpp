#include "lesson.hpp"


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

}  // namespace tl::compute
