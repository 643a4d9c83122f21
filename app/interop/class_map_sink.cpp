#include "class_map_sink.hpp"

#include <vector>

#if defined(THREADLAB_HAVE_CUDA)
// glad's header must come first: cuda_gl_interop.h would otherwise pull in the system GL/gl.h.
#include <glad/gl.h>
// clang-format off
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>
// clang-format on

#include "compute/cuda/cuda_status.hpp"
#endif

namespace tl::interop {
namespace {

// The copy and emulator paths: the kernels write device memory (a GPU) or host memory (the
// emulator, whose device memory is host memory), uploaded in publish().
class UploadClassMapSink final : public compute::FloatSink {
 public:
  explicit UploadClassMapSink(render::ClassMap& map) : map_(map) {}

  Result<float*> acquire(compute::Device& device, std::size_t count) override {
    host_.assign(count, 0.0f);
    if (!device.is_gpu()) return host_.data();
    if (device_values_.size() != count) {
      device_values_.reset();
      auto array = compute::allocate_array<float>(device, count);
      if (!array) return array.error();
      device_values_ = std::move(*array);
    }
    return device_values_.data();
  }

  Status publish(compute::Device& device) override {
    if (device.is_gpu()) {
      TL_RETURN_IF_ERROR(
          device.copy_to_host(host_.data(), device_values_.data(), device_values_.bytes()));
    }
    return map_.upload(host_);
  }

  void abandon(compute::Device& /*device*/) override {}

 private:
  render::ClassMap& map_;
  std::vector<float> host_;
  compute::DeviceArray<float> device_values_;
};

#if defined(THREADLAB_HAVE_CUDA)
// An interop call that fails without losing the CUDA context is the interop path's own failure,
// reported as a graphics error so that the caller moves to the copy path; a sticky error stays
// what it is.
Status interop_status(cudaError_t error, const char* what) {
  Status status = compute::cuda_status(error, what);
  if (!status && status.error().kind == ErrorKind::kCudaError) {
    return Error{ErrorKind::kGraphicsError, status.message()};
  }
  return status;
}

class CudaInteropClassMapSink final : public compute::FloatSink {
 public:
  explicit CudaInteropClassMapSink(render::ClassMap& map) : map_(map) {}
  ~CudaInteropClassMapSink() override {
    if (mapped_) cudaGraphicsUnmapResources(1, &resource_);
    unregister();
  }
  CudaInteropClassMapSink(const CudaInteropClassMapSink&) = delete;
  CudaInteropClassMapSink& operator=(const CudaInteropClassMapSink&) = delete;

  Result<float*> acquire(compute::Device& device, std::size_t count) override {
    if (mapped_) abandon(device);
    // Never re-specify a registered buffer's storage: CUDA would keep writing the old one.
    if (map_.reserve_reallocates(count)) unregister();
    TL_RETURN_IF_ERROR(map_.reserve(count));
    if (resource_ == nullptr || registered_generation_ != map_.generation()) {
      unregister();
      // The network overwrites every value, so CUDA never needs the old contents.
      TL_RETURN_IF_ERROR(
          interop_status(cudaGraphicsGLRegisterBuffer(&resource_, map_.gl_buffer(),
                                                      cudaGraphicsRegisterFlagsWriteDiscard),
                         "registering the class map with CUDA (cudaGraphicsGLRegisterBuffer)"));
      registered_generation_ = map_.generation();
    }
    TL_RETURN_IF_ERROR(
        interop_status(cudaGraphicsMapResources(1, &resource_), "mapping the class map"));
    mapped_ = true;
    void* pointer = nullptr;
    std::size_t size = 0;
    Status status = interop_status(cudaGraphicsResourceGetMappedPointer(&pointer, &size, resource_),
                                   "getting the mapped class map's address");
    if (status && size < count * sizeof(float)) {
      status = Error{ErrorKind::kGraphicsError, "the mapped class map is smaller than requested"};
    }
    if (!status) {
      abandon(device);
      return status.error();
    }
    return static_cast<float*>(pointer);
  }

  Status publish(compute::Device& /*device*/) override {
    if (!mapped_) return Status::ok();
    mapped_ = false;
    // Unmapping orders the CUDA writes before any later GL use of the buffer.
    return interop_status(cudaGraphicsUnmapResources(1, &resource_), "unmapping the class map");
  }

  void abandon(compute::Device& device) override { (void)publish(device); }

 private:
  void unregister() {
    // Before the GL buffer is deleted or reallocated, or the driver keeps a stale mapping.
    if (resource_ != nullptr) cudaGraphicsUnregisterResource(resource_);
    resource_ = nullptr;
  }

  render::ClassMap& map_;
  cudaGraphicsResource* resource_ = nullptr;
  std::uint64_t registered_generation_ = 0;
  bool mapped_ = false;
};
#endif

}  // namespace

std::unique_ptr<compute::FloatSink> make_class_map_sink(BackendKind kind, render::ClassMap& map) {
#if defined(THREADLAB_HAVE_CUDA)
  if (kind == BackendKind::kCudaInterop) return std::make_unique<CudaInteropClassMapSink>(map);
#else
  (void)kind;
#endif
  return std::make_unique<UploadClassMapSink>(map);
}

}  // namespace tl::interop
