#pragma once
// A device that hands every call to another (by default the CPU emulator): tests derive from it and
// override only what they change (the info of a laptop GPU with a display watchdog, pinned memory
// that is refused), so the rest behaves exactly as the device it wraps.

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "compute/device.hpp"

namespace tl::testing {

class ForwardingDevice : public compute::Device {
 public:
  explicit ForwardingDevice(
      std::unique_ptr<compute::Device> inner = compute::make_emulator_device())
      : inner_(std::move(inner)) {}

  [[nodiscard]] bool is_gpu() const override { return inner_->is_gpu(); }
  [[nodiscard]] const DeviceInfo& info() const override { return inner_->info(); }
  [[nodiscard]] const kernels::KernelRegistry& kernels() const override {
    return inner_->kernels();
  }
  Result<void*> allocate(std::size_t bytes) override { return inner_->allocate(bytes); }
  void release(void* pointer) override { inner_->release(pointer); }
  Status copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    return inner_->copy_to_device(dst, src, bytes);
  }
  Status copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    return inner_->copy_to_host(dst, src, bytes);
  }
  Status fill_zero(void* dst, std::size_t bytes) override { return inner_->fill_zero(dst, bytes); }
  Status copy_on_device(void* dst, const void* src, std::size_t bytes) override {
    return inner_->copy_on_device(dst, src, bytes);
  }
  Status synchronize() override { return inner_->synchronize(); }
  Status reset() override { return inner_->reset(); }
  Result<std::vector<double>> time_repeated(const std::function<Status()>& work, int warmup,
                                            int repeats) override {
    return inner_->time_repeated(work, warmup, repeats);
  }
  Result<compute::MemoryInfo> memory_info() override { return inner_->memory_info(); }

 protected:
  [[nodiscard]] compute::Device& inner() { return *inner_; }
  [[nodiscard]] const compute::Device& inner() const { return *inner_; }

 private:
  std::unique_ptr<compute::Device> inner_;
};

}  // namespace tl::testing
