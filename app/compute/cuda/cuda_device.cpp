// The CUDA device: cudaMalloc'd memory, the nvcc-compiled kernel table, CUDA events for timing.

#include <cuda_runtime_api.h>

#include <string>

#include "compute/device.hpp"
#include "cuda_status.hpp"
#include "kernels/kernel_inspector.hpp"

namespace tl::compute {
namespace {

#define TL_CUDA(call, what) TL_RETURN_IF_ERROR(cuda_status((call), (what)))

class CudaDevice final : public Device {
 public:
  explicit CudaDevice(int ordinal) : ordinal_(ordinal) {}

  Status initialize() {
    TL_CUDA(cudaSetDevice(ordinal_), "selecting CUDA device " + std::to_string(ordinal_));
    // Creates the context now, so a broken driver is reported at start-up rather than mid-lesson.
    TL_CUDA(cudaFree(nullptr), "creating the CUDA context");
    return query_info();
  }

  [[nodiscard]] bool is_gpu() const override { return true; }
  [[nodiscard]] const DeviceInfo& info() const override { return info_; }
  [[nodiscard]] const kernels::KernelRegistry& kernels() const override {
    return kernels::gpu_kernels();
  }

  Result<void*> allocate(std::size_t bytes) override {
    void* p = nullptr;
    const cudaError_t error = cudaMalloc(&p, bytes == 0 ? 1 : bytes);
    if (error != cudaSuccess) {
      cudaGetLastError();  // an allocation failure is not sticky; do not let it linger
      return cuda_status(error, "cudaMalloc of " + std::to_string(bytes) + " bytes").error();
    }
    return p;
  }
  void release(void* pointer) override { cudaFree(pointer); }
  Result<void*> allocate_pinned_host(std::size_t bytes) override {
    void* p = nullptr;
    const cudaError_t error = cudaMallocHost(&p, bytes == 0 ? 1 : bytes);
    if (error != cudaSuccess) {
      cudaGetLastError();  // not sticky: the pageable copies still work
      return cuda_status(error, "cudaMallocHost of " + std::to_string(bytes) + " bytes").error();
    }
    return p;
  }
  void release_pinned_host(void* pointer) override { cudaFreeHost(pointer); }
  Status copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    return cuda_status(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice),
                       "cudaMemcpy host to device");
  }
  Status copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    return cuda_status(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost),
                       "cudaMemcpy device to host");
  }
  Status copy_on_device(void* dst, const void* src, std::size_t bytes) override {
    return cuda_status(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice),
                       "cudaMemcpy device to device");
  }
  Status fill_zero(void* dst, std::size_t bytes) override {
    return cuda_status(cudaMemset(dst, 0, bytes), "cudaMemset");
  }

  Status synchronize() override {
    return cuda_status(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the kernel");
  }

  Status reset() override {
    TL_CUDA(cudaDeviceReset(), "cudaDeviceReset");
    return initialize();
  }

  Result<std::vector<double>> time_repeated(const std::function<Status()>& work, int warmup,
                                            int repeats) override {
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    TL_CUDA(cudaEventCreate(&start), "cudaEventCreate");
    const cudaError_t created = cudaEventCreate(&stop);
    if (created != cudaSuccess) {
      cudaEventDestroy(start);
      return cuda_status(created, "cudaEventCreate").error();
    }
    auto result = time_with_events(work, warmup, repeats, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return result;
  }

  Result<KernelResources> kernel_resources(std::string_view kernel) override {
    return kernels::gpu_kernel_resources(kernel);
  }
  std::string kernel_listing_name(std::string_view kernel) override {
    return kernels::gpu_kernel_listing_name(kernel);
  }
  Result<std::uint32_t> active_blocks_per_sm(std::string_view kernel, std::uint32_t block_threads,
                                             std::uint64_t dynamic_shared_bytes) override {
    return kernels::gpu_active_blocks_per_sm(kernel, block_threads, dynamic_shared_bytes);
  }

  Result<MemoryInfo> memory_info() override {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    TL_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    info_.global_memory_free = free_bytes;
    return MemoryInfo{free_bytes, total_bytes};
  }

 private:
  Result<std::vector<double>> time_with_events(const std::function<Status()>& work, int warmup,
                                               int repeats, cudaEvent_t start, cudaEvent_t stop) {
    for (int i = 0; i < warmup; ++i) TL_RETURN_IF_ERROR(work());
    TL_RETURN_IF_ERROR(synchronize());
    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(repeats));
    for (int i = 0; i < repeats; ++i) {
      TL_CUDA(cudaEventRecord(start), "cudaEventRecord");
      TL_RETURN_IF_ERROR(work());
      TL_CUDA(cudaEventRecord(stop), "cudaEventRecord");
      TL_CUDA(cudaEventSynchronize(stop), "waiting for the timed work");
      float ms = 0;
      TL_CUDA(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      times.push_back(ms);
    }
    return times;
  }

  Status query_info() {
    cudaDeviceProp prop{};
    TL_CUDA(cudaGetDeviceProperties(&prop, ordinal_), "cudaGetDeviceProperties");
    info_.name = prop.name;
    info_.compute_major = prop.major;
    info_.compute_minor = prop.minor;
    info_.multiprocessors = prop.multiProcessorCount;
    info_.limits.max_threads_per_block = static_cast<std::uint32_t>(prop.maxThreadsPerBlock);
    info_.limits.max_block_dim = {static_cast<std::uint32_t>(prop.maxThreadsDim[0]),
                                  static_cast<std::uint32_t>(prop.maxThreadsDim[1]),
                                  static_cast<std::uint32_t>(prop.maxThreadsDim[2])};
    info_.limits.max_grid_dim = {static_cast<std::uint32_t>(prop.maxGridSize[0]),
                                 static_cast<std::uint32_t>(prop.maxGridSize[1]),
                                 static_cast<std::uint32_t>(prop.maxGridSize[2])};
    info_.limits.warp_size = static_cast<std::uint32_t>(prop.warpSize);
    info_.shared_memory_per_block = prop.sharedMemPerBlock;
    info_.shared_memory_per_multiprocessor = prop.sharedMemPerMultiprocessor;
    info_.registers_per_block = static_cast<std::uint32_t>(prop.regsPerBlock);
    info_.registers_per_multiprocessor = static_cast<std::uint32_t>(prop.regsPerMultiprocessor);
    info_.max_blocks_per_multiprocessor =
        static_cast<std::uint32_t>(prop.maxBlocksPerMultiProcessor);
    info_.reserved_shared_memory_per_block = prop.reservedSharedMemPerBlock;
    info_.max_threads_per_multiprocessor =
        static_cast<std::uint32_t>(prop.maxThreadsPerMultiProcessor);
    info_.l2_cache_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
    info_.global_memory_total = prop.totalGlobalMem;
    // Clock rates left cudaDeviceProp in CUDA 13; the attributes remain.
    cudaDeviceGetAttribute(&info_.clock_khz, cudaDevAttrClockRate, ordinal_);
    cudaDeviceGetAttribute(&info_.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal_);
    cudaDeviceGetAttribute(&info_.memory_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal_);
    int timeout = 0;
    cudaDeviceGetAttribute(&timeout, cudaDevAttrKernelExecTimeout, ordinal_);
    info_.kernel_timeout = timeout != 0;
    cudaDriverGetVersion(&info_.driver_version);
    cudaRuntimeGetVersion(&info_.runtime_version);
    auto memory = memory_info();
    if (!memory) return memory.error();
    return Status::ok();
  }

  int ordinal_;
  DeviceInfo info_;
};

}  // namespace

namespace {

std::string describe_missing_device(cudaError_t error) {
  // Without any NVIDIA driver the runtime answers "driver version is insufficient", which reads as
  // "update the driver" to someone who has no NVIDIA GPU at all: the driver version tells apart.
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  const auto version = [](int v) {
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  };
  const std::string code = std::string(" (") + cudaGetErrorName(error) + ")";
  if (driver == 0) return "No NVIDIA GPU or driver found" + code;
  if (error == cudaErrorInsufficientDriver) {
    return "The NVIDIA driver supports CUDA " + version(driver) + ", older than the CUDA " +
           version(runtime) + " runtime ThreadLab was built with: update the driver" + code;
  }
  if (error == cudaErrorNoDevice) return "No NVIDIA GPU found (the driver is installed)" + code;
  return std::string("no usable CUDA device: ") + cudaGetErrorString(error) + code;
}

}  // namespace

Result<std::unique_ptr<Device>> make_cuda_device(int ordinal) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    return Error{ErrorKind::kNoDevice, describe_missing_device(error)};
  }
  if (ordinal < 0 || ordinal >= count) {
    return Error{ErrorKind::kNoDevice, "CUDA device " + std::to_string(ordinal) +
                                           " does not exist (" + std::to_string(count) + " found)"};
  }
  auto device = std::make_unique<CudaDevice>(ordinal);
  TL_RETURN_IF_ERROR(device->initialize());
  return std::unique_ptr<Device>(std::move(device));
}

}  // namespace tl::compute
