#include "upload_trace_sink.hpp"

namespace tl::interop {

Result<TraceRecord*> UploadTraceSink::acquire(compute::Device& device, std::size_t count) {
  return host_.acquire(device, count);
}

Status UploadTraceSink::publish(compute::Device& device) {
  TL_RETURN_IF_ERROR(host_.publish(device));
  return buffer_.upload(host_.records());
}

}  // namespace tl::interop
