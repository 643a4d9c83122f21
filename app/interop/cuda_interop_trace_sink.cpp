#include "cuda_interop_trace_sink.hpp"

// glad's header must come first: cuda_gl_interop.h would otherwise pull in the system GL/gl.h.
#include <glad/gl.h>
// clang-format off
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>
// clang-format on

#include <string>

#include "compute/cuda/cuda_status.hpp"

namespace tl::interop {
namespace {

// An interop call that fails without losing the CUDA context is the interop path's own failure,
// reported as a graphics error so that the app moves to the copy path (core/backend_fallback); a
// sticky error or a full GPU stays what it is, since the copy path would meet it too.
Status interop_status(cudaError_t error, const char* what) {
  Status status = compute::cuda_status(error, what);
  if (!status && status.error().kind == ErrorKind::kCudaError) {
    return Error{ErrorKind::kGraphicsError, status.message()};
  }
  return status;
}

}  // namespace

CudaInteropTraceSink::~CudaInteropTraceSink() {
  if (mapped_) cudaGraphicsUnmapResources(1, &resource_);
  unregister_buffer();
}

Status CudaInteropTraceSink::register_buffer() {
  unregister_buffer();
  // The kernel overwrites every record after a memset, so CUDA never needs the old contents.
  TL_RETURN_IF_ERROR(
      interop_status(cudaGraphicsGLRegisterBuffer(&resource_, buffer_.gl_buffer(),
                                                  cudaGraphicsRegisterFlagsWriteDiscard),
                     "registering the trace buffer with CUDA (cudaGraphicsGLRegisterBuffer)"));
  registered_generation_ = buffer_.generation();
  return Status::ok();
}

void CudaInteropTraceSink::unregister_buffer() {
  // Must happen before the GL buffer is deleted or reallocated, or the driver keeps a stale
  // mapping.
  if (resource_ != nullptr) cudaGraphicsUnregisterResource(resource_);
  resource_ = nullptr;
}

Result<TraceRecord*> CudaInteropTraceSink::acquire(compute::Device& device, std::size_t count) {
  if (mapped_) TL_RETURN_IF_ERROR(publish(device));
  // New storage for the buffer (growing, or shrinking after a large trace) must not happen under
  // a registration: CUDA would go on writing the old store while OpenGL draws the new one.
  if (buffer_.reserve_reallocates(count)) unregister_buffer();
  TL_RETURN_IF_ERROR(buffer_.reserve(count));
  buffer_.set_count(count);
  if (resource_ == nullptr || registered_generation_ != buffer_.generation()) {
    TL_RETURN_IF_ERROR(register_buffer());
  }
  TL_RETURN_IF_ERROR(
      interop_status(cudaGraphicsMapResources(1, &resource_), "mapping the trace buffer"));
  mapped_ = true;
  void* pointer = nullptr;
  std::size_t size = 0;
  Status status = interop_status(cudaGraphicsResourceGetMappedPointer(&pointer, &size, resource_),
                                 "getting the mapped trace buffer's address");
  if (status && size < count * sizeof(TraceRecord)) {
    status = Error{ErrorKind::kGraphicsError, "the mapped trace buffer is smaller than requested"};
  }
  if (status) status = device.fill_zero(pointer, count * sizeof(TraceRecord));
  if (!status) {
    publish(device);
    return status.error();
  }
  return static_cast<TraceRecord*>(pointer);
}

Status CudaInteropTraceSink::publish(compute::Device& /*device*/) {
  if (!mapped_) return Status::ok();
  mapped_ = false;
  // Unmapping orders the CUDA work before any later GL use of the buffer.
  return interop_status(cudaGraphicsUnmapResources(1, &resource_), "unmapping the trace buffer");
}

std::string probe_interop(int cuda_ordinal) {
  unsigned int count = 0;
  int devices[8] = {};
  cudaError_t error = cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll);
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string gl_name = renderer != nullptr ? renderer : "an unknown renderer";
  if (error != cudaSuccess || count == 0) {
    cudaGetLastError();
    return "OpenGL runs on " + gl_name + ", not on the CUDA GPU (" +
           (error != cudaSuccess ? std::string(cudaGetErrorString(error))
                                 : std::string("no CUDA device")) +
           "); traces are copied through the host";
  }
  bool same_device = false;
  for (unsigned int i = 0; i < count; ++i) same_device = same_device || devices[i] == cuda_ordinal;
  if (!same_device) {
    return "OpenGL runs on another GPU than CUDA device " + std::to_string(cuda_ordinal) +
           "; traces are copied through the host";
  }
  // Registering and mapping a real buffer is the only proof that the driver allows interop here.
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 4096, nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  cudaGraphicsResource* resource = nullptr;
  std::string reason;
  error = cudaGraphicsGLRegisterBuffer(&resource, buffer, cudaGraphicsRegisterFlagsNone);
  if (error == cudaSuccess) {
    error = cudaGraphicsMapResources(1, &resource);
    if (error == cudaSuccess) error = cudaGraphicsUnmapResources(1, &resource);
    cudaGraphicsUnregisterResource(resource);
  }
  if (error != cudaSuccess) {
    cudaGetLastError();
    reason = std::string("CUDA cannot register OpenGL buffers here (") + cudaGetErrorString(error) +
             "); traces are copied through the host";
  }
  glDeleteBuffers(1, &buffer);
  return reason;
}

}  // namespace tl::interop
