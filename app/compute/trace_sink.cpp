#include "trace_sink.hpp"

#include <string>

#include "core/format.hpp"

namespace tl::compute {

Result<TraceRecord*> HostTraceSink::acquire(Device& device, std::size_t count) {
  records_.assign(count, TraceRecord{});
  if (!device.is_gpu()) return records_.data();
  if (device_records_.size() != count) {
    device_records_.reset();
    auto array = allocate_array<TraceRecord>(device, count);
    if (!array) return array.error();
    device_records_ = std::move(*array);
  }
  TL_RETURN_IF_ERROR(device.fill_zero(device_records_.data(), device_records_.bytes()));
  return device_records_.data();
}

Status HostTraceSink::publish(Device& device) {
  if (!device.is_gpu()) return Status::ok();
  return device.copy_to_host(records_.data(), device_records_.data(), device_records_.bytes());
}

}  // namespace tl::compute
