#pragma once
// The device that runs ThreadLab's kernels: a CUDA GPU or the CPU emulator, behind one interface,
// so every lesson is written once. Memory handed out by a device is only ever passed to that
// device's kernel table and copy functions.

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <string_view>

#include "core/device_info.hpp"
#include "core/occupancy.hpp"
#include "core/result.hpp"
#include "kernels/kernel_registry.hpp"

namespace tl::compute {

struct MemoryInfo {
  std::uint64_t free_bytes = 0;
  std::uint64_t total_bytes = 0;
};

class Device {
 public:
  virtual ~Device() = default;

  [[nodiscard]] virtual bool is_gpu() const = 0;
  [[nodiscard]] virtual const DeviceInfo& info() const = 0;
  [[nodiscard]] virtual const kernels::KernelRegistry& kernels() const = 0;

  virtual Result<void*> allocate(std::size_t bytes) = 0;
  virtual void release(void* pointer) = 0;
  virtual Status copy_to_device(void* device_dst, const void* host_src, std::size_t bytes) = 0;
  virtual Status copy_to_host(void* host_dst, const void* device_src, std::size_t bytes) = 0;
  virtual Status fill_zero(void* device_dst, std::size_t bytes) = 0;
  // Device memory to device memory: the copy-bandwidth ceiling the kernels are compared with.
  virtual Status copy_on_device(void* device_dst, const void* device_src, std::size_t bytes) = 0;

  // Waits for all submitted work. Errors raised inside kernels surface here; a sticky error (the
  // context is unusable until reset) comes back as ErrorKind::kCudaStickyError.
  virtual Status synchronize() = 0;
  // Re-creates the device's context after a sticky error. Every allocation made before is gone.
  virtual Status reset() = 0;

  // Runs `work` `warmup` times untimed, then `repeats` times, each timed on the device's own clock
  // (CUDA events on a GPU, a steady clock on the emulator). Returns milliseconds per run. The
  // emulator keeps warming up for at least 10 ms (at most 50 more runs) where `warmup` > 0.
  virtual Result<std::vector<double>> time_repeated(const std::function<Status()>& work, int warmup,
                                                    int repeats) = 0;

  virtual Result<MemoryInfo> memory_info() = 0;

  // Page-locked ("pinned") host memory (cudaMallocHost on a GPU): the copy engines read and write
  // it directly, where a copy from ordinary pageable memory goes through a pinned staging buffer of
  // the driver's first. A device with no link to cross (the emulator) hands out ordinary memory.
  virtual Result<void*> allocate_pinned_host(std::size_t bytes) {
    void* pointer = std::malloc(bytes == 0 ? 1 : bytes);
    if (pointer == nullptr) {
      return Error{ErrorKind::kOutOfMemory,
                   "no host memory for " + std::to_string(bytes) + " bytes of copy buffers"};
    }
    return pointer;
  }
  virtual void release_pinned_host(void* pointer) { std::free(pointer); }

  // What the compiler gave a kernel (named as in kernels/kernel_inspector.hpp), and how many of
  // its blocks CUDA says fit on one SM. The emulator has neither registers nor SMs to fill.
  virtual Result<KernelResources> kernel_resources(std::string_view kernel) {
    return no_occupancy(kernel);
  }
  // The name the Compiled tab's listing gives that kernel (kernels::KernelSymbol::listing_name):
  // the name itself where the device knows no other.
  virtual std::string kernel_listing_name(std::string_view kernel) { return std::string(kernel); }
  virtual Result<std::uint32_t> active_blocks_per_sm(std::string_view kernel,
                                                     std::uint32_t block_threads,
                                                     std::uint64_t dynamic_shared_bytes) {
    (void)block_threads;
    (void)dynamic_shared_bytes;
    return no_occupancy(kernel);
  }

 private:
  static Error no_occupancy(std::string_view kernel) {
    return Error{ErrorKind::kNoDevice,
                 std::string(kernel) +
                     ": occupancy needs an NVIDIA GPU: the registers and shared memory a kernel "
                     "uses are assigned by nvcc for the GPU, and the emulator has no SMs to fill"};
  }
};

// Memory a Device handed out, owned for its lifetime and given back through `Release`; moves,
// never copies.
template <typename T, void (Device::*Release)(void*)>
class DeviceOwnedArray {
 public:
  DeviceOwnedArray() = default;
  DeviceOwnedArray(Device* device, T* data, std::size_t count)
      : device_(device), data_(data), count_(count) {}
  DeviceOwnedArray(DeviceOwnedArray&& other) noexcept { *this = std::move(other); }
  DeviceOwnedArray& operator=(DeviceOwnedArray&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = std::exchange(other.device_, nullptr);
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  DeviceOwnedArray(const DeviceOwnedArray&) = delete;
  DeviceOwnedArray& operator=(const DeviceOwnedArray&) = delete;
  ~DeviceOwnedArray() { reset(); }

  void reset() {
    if (device_ != nullptr && data_ != nullptr) (device_->*Release)(data_);
    data_ = nullptr;
    count_ = 0;
  }
  [[nodiscard]] T* data() const { return data_; }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(T); }
  [[nodiscard]] std::span<T> span() const { return {data_, count_}; }

 private:
  Device* device_ = nullptr;
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// Device memory (Device::allocate).
template <typename T>
using DeviceArray = DeviceOwnedArray<T, &Device::release>;

template <typename T>
Result<DeviceArray<T>> allocate_array(Device& device, std::size_t count) {
  auto pointer = device.allocate(count * sizeof(T));
  if (!pointer) return pointer.error();
  return DeviceArray<T>(&device, static_cast<T*>(*pointer), count);
}

// Pinned host memory (Device::allocate_pinned_host).
template <typename T>
using PinnedHostArray = DeviceOwnedArray<T, &Device::release_pinned_host>;

template <typename T>
Result<PinnedHostArray<T>> allocate_pinned_array(Device& device, std::size_t count) {
  auto pointer = device.allocate_pinned_host(count * sizeof(T));
  if (!pointer) return pointer.error();
  return PinnedHostArray<T>(&device, static_cast<T*>(*pointer), count);
}

std::unique_ptr<Device> make_emulator_device();
// A test seam: the next make_emulator_device() call (only that one) returns `device` instead of a
// new emulator, so a test can hand the app, through its emulator backend, a device that fails on
// cue. Null withdraws a device not yet taken.
void set_next_emulator_device_for_tests(std::unique_ptr<Device> device);

// The CUDA device `ordinal`, or why there is none (not built with CUDA, no driver, no GPU).
Result<std::unique_ptr<Device>> make_cuda_device(int ordinal = 0);

}  // namespace tl::compute
