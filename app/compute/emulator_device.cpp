// The emulator "device": host memory and the CPU kernel table. Its timings are CPU timings and
// every view labels them so.

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include "core/work_watch.hpp"
#include "device.hpp"
#include "kernels/emulator/grid_executor.hpp"

namespace tl::compute {
namespace {

// A field of /proc/meminfo in bytes, 0 when it cannot be read.
std::uint64_t meminfo_bytes(const std::string& field) {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value_kib = 0;
  std::string unit;
  while (meminfo >> key >> value_kib >> unit) {
    if (key == field) return value_kib * 1024;
  }
  return 0;
}

std::uint64_t host_memory_available() {
  return meminfo_bytes("MemAvailable:");
}
std::uint64_t host_memory_total() {
  return meminfo_bytes("MemTotal:");
}

class EmulatorDevice final : public Device {
 public:
  EmulatorDevice() {
    info_.name = "CPU emulator (" + std::to_string(emu::worker_count()) + " worker threads)";
    info_.multiprocessors = static_cast<int>(emu::worker_count());
    info_.limits = standard_cuda_limits();
    info_.max_threads_per_multiprocessor = info_.limits.max_threads_per_block;
    info_.global_memory_total = host_memory_total();
    info_.global_memory_free = host_memory_available();
  }

  [[nodiscard]] bool is_gpu() const override { return false; }
  [[nodiscard]] const DeviceInfo& info() const override { return info_; }
  [[nodiscard]] const kernels::KernelRegistry& kernels() const override {
    return kernels::emulator_kernels();
  }

  Result<void*> allocate(std::size_t bytes) override {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) {
      return Error{ErrorKind::kOutOfMemory,
                   "out of host memory allocating " + std::to_string(bytes) + " bytes"};
    }
    return p;
  }
  void release(void* pointer) override { std::free(pointer); }
  Status copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return Status::ok();
  }
  Status copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return Status::ok();
  }
  Status copy_on_device(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return Status::ok();
  }
  Status fill_zero(void* dst, std::size_t bytes) override {
    std::memset(dst, 0, bytes);
    return Status::ok();
  }
  Status synchronize() override { return Status::ok(); }
  Status reset() override { return Status::ok(); }

  Result<std::vector<double>> time_repeated(const std::function<Status()>& work, int warmup,
                                            int repeats) override {
    // Work that is not a grid (a copy of 2^25 floats is a memcpy here) answers the window's
    // Cancel between two runs, as a grid does between two blocks (core/work_watch.hpp).
    const WorkWatch* const watch = current_work_watch();
    auto cancelled = [watch] { return watch != nullptr && watch->cancelled(); };
    // The warm-up lasts at least kLeastWarmup as well: the first runs after start wake a cold
    // thread pool and caches (the first table showed 4 ms for a 13 µs kernel, issue 36 item 9).
    // A kernel that takes longer than that is warmed by its one run, as before; a caller that
    // asks for no warm-up gets none.
    constexpr auto kLeastWarmup = std::chrono::milliseconds(10);
    constexpr int kMostExtraWarmups = 50;
    const auto warmup_start = std::chrono::steady_clock::now();
    const int most_warmups = warmup > 0 ? warmup + kMostExtraWarmups : 0;
    for (int i = 0; i < most_warmups; ++i) {
      if (i >= warmup && std::chrono::steady_clock::now() - warmup_start >= kLeastWarmup) break;
      if (cancelled()) return Error{ErrorKind::kCancelled, "cancelled"};
      TL_RETURN_IF_ERROR(work());
    }
    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(repeats));
    for (int i = 0; i < repeats; ++i) {
      if (cancelled()) return Error{ErrorKind::kCancelled, "cancelled"};
      const auto start = std::chrono::steady_clock::now();
      TL_RETURN_IF_ERROR(work());
      const auto end = std::chrono::steady_clock::now();
      times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
    return times;
  }

  Result<MemoryInfo> memory_info() override {
    return MemoryInfo{host_memory_available(), host_memory_total()};
  }

 private:
  DeviceInfo info_;
};

std::mutex& next_device_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::unique_ptr<Device>& next_device() {
  static std::unique_ptr<Device> device;
  return device;
}

}  // namespace

std::unique_ptr<Device> make_emulator_device() {
  {
    std::lock_guard lock(next_device_mutex());
    if (next_device()) return std::move(next_device());
  }
  return std::make_unique<EmulatorDevice>();
}

void set_next_emulator_device_for_tests(std::unique_ptr<Device> device) {
  std::lock_guard lock(next_device_mutex());
  next_device() = std::move(device);
}

}  // namespace tl::compute
