#pragma once
// Where a traced launch writes its records. The renderer does not care how records reach its OpenGL
// buffer: through CUDA-GL interop, a device-to-host copy and an upload, or from the emulator. Each
// path is a TraceSink; the traced kernels only ever see a pointer.

#include <cstddef>
#include <span>
#include <vector>

#include "compute/device.hpp"
#include "core/trace_record.hpp"

namespace tl::compute {

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // A zero-filled array of `count` records that `device`'s traced kernels may write.
  virtual Result<TraceRecord*> acquire(Device& device, std::size_t count) = 0;
  // Called once the traced kernel finished (or failed): publishes the records to their destination.
  virtual Status publish(Device& device) = 0;
};

// Keeps the records in host memory, for the CLI's --trace and for tests. On a GPU they are written
// to device memory and copied back in publish().
class HostTraceSink final : public TraceSink {
 public:
  Result<TraceRecord*> acquire(Device& device, std::size_t count) override;
  Status publish(Device& device) override;
  [[nodiscard]] std::span<const TraceRecord> records() const { return records_; }

 private:
  std::vector<TraceRecord> records_;
  DeviceArray<TraceRecord> device_records_;
};

}  // namespace tl::compute
