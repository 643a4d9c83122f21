#pragma once
// The interop path: the GL buffer is registered with CUDA once (again only when the renderer
// reallocates it) and mapped for each traced launch, so 16M records never leave the GPU.

#include <cstdint>

#include "compute/trace_sink.hpp"
#include "render/trace_buffer.hpp"

struct cudaGraphicsResource;

namespace tl::interop {

class CudaInteropTraceSink final : public compute::TraceSink {
 public:
  explicit CudaInteropTraceSink(render::TraceBuffer& buffer) : buffer_(buffer) {}
  ~CudaInteropTraceSink() override;
  CudaInteropTraceSink(const CudaInteropTraceSink&) = delete;
  CudaInteropTraceSink& operator=(const CudaInteropTraceSink&) = delete;

  Result<TraceRecord*> acquire(compute::Device& device, std::size_t count) override;
  Status publish(compute::Device& device) override;

 private:
  Status register_buffer();
  void unregister_buffer();

  render::TraceBuffer& buffer_;
  cudaGraphicsResource* resource_ = nullptr;
  std::uint64_t registered_generation_ = 0;
  bool mapped_ = false;
};

// Whether CUDA can write into this GL context's buffers: the context must run on `cuda_ordinal`'s
// GPU (cudaGLGetDevices) and a buffer must register and map. Empty string on success, else the
// reason.
std::string probe_interop(int cuda_ordinal);

}  // namespace tl::interop
