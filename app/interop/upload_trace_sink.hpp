#pragma once
// The copy and emulator paths: records land in host memory (straight from the emulator, or copied
// back from the GPU) and are uploaded into the GL buffer.

#include <vector>

#include "compute/trace_sink.hpp"
#include "render/trace_buffer.hpp"

namespace tl::interop {

class UploadTraceSink final : public compute::TraceSink {
 public:
  explicit UploadTraceSink(render::TraceBuffer& buffer) : buffer_(buffer) {}
  Result<TraceRecord*> acquire(compute::Device& device, std::size_t count) override;
  Status publish(compute::Device& device) override;

 private:
  render::TraceBuffer& buffer_;
  compute::HostTraceSink host_;
};

}  // namespace tl::interop
