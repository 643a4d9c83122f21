#include "compute/ceilings.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

#include "compute/optional_cublas.hpp"
#include "core/lessons/random_inputs.hpp"

namespace tl::compute {
namespace {

// Big enough to stream through every level of cache many times over, small enough to fit beside a
// lesson's own buffers: 512 MiB per buffer on a GPU, 64 MiB on the emulator (host memcpy).
constexpr std::uint64_t kGpuCopyBytes = 512ull << 20;
constexpr std::uint64_t kEmulatorCopyBytes = 64ull << 20;
constexpr int kCopyRepeats = 10;
// 4096³, the size the lesson and docs/PERFORMANCE.md compare at; 2048³ where memory is short.
constexpr std::uint32_t kSgemmSize = 4096;
constexpr int kSgemmRepeats = 5;

bool cancelled(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load();
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

Result<double> fastest(Device& device, const std::function<Status()>& work, int repeats) {
  auto times = device.time_repeated(work, 2, repeats);
  if (!times) return times.error();
  const double best = *std::min_element(times->begin(), times->end());
  if (!(best > 0)) return Error{ErrorKind::kCudaError, "the device reported a zero time"};
  return best;
}

Status measure_copy(Device& device, std::uint64_t free_bytes, DeviceCeilings& c) {
  std::uint64_t bytes = device.is_gpu() ? kGpuCopyBytes : kEmulatorCopyBytes;
  while (bytes > (1u << 20) && 2 * bytes > free_bytes / 2) bytes /= 2;
  auto source = allocate_array<float>(device, bytes / sizeof(float));
  if (!source) return source.error();
  auto destination = allocate_array<float>(device, bytes / sizeof(float));
  if (!destination) return destination.error();
  TL_RETURN_IF_ERROR(device.fill_zero(source->data(), source->bytes()));
  auto best_ms = fastest(
      device,
      [&] { return device.copy_on_device(destination->data(), source->data(), source->bytes()); },
      kCopyRepeats);
  if (!best_ms) return best_ms.error();
  // Every byte is read once and written once.
  c.copy_bytes_per_second = 2.0 * static_cast<double>(source->bytes()) / (*best_ms * 1e-3);
  c.copy_buffer_bytes = source->bytes();
  return Status::ok();
}

Status measure_sgemm(Device& device, std::uint64_t free_bytes, DeviceCeilings& c) {
  OptionalCublas cublas(device);
  if (!cublas.available()) {
    c.sgemm_absent = OptionalCublas::unavailable_reason();
    return Status::ok();
  }
  std::uint32_t n = kSgemmSize;
  while (n > 512 && 12.0 * n * n > 0.5 * static_cast<double>(free_bytes)) n /= 2;
  const std::size_t count = std::size_t{n} * n;
  std::vector<float> host(count);
  lessons::fill_random(host, 7);
  auto a = allocate_array<float>(device, count);
  if (!a) return a.error();
  auto b = allocate_array<float>(device, count);
  if (!b) return b.error();
  auto product = allocate_array<float>(device, count);
  if (!product) return product.error();
  TL_RETURN_IF_ERROR(device.copy_to_device(a->data(), host.data(), a->bytes()));
  TL_RETURN_IF_ERROR(device.copy_to_device(b->data(), host.data(), b->bytes()));
  if (const Status started = cublas.initialize(); !started) {
    c.sgemm_absent = "cuBLAS could not start: " + started.message();
    return Status::ok();
  }
  auto best_ms = fastest(
      device, [&] { return cublas.multiply(a->data(), b->data(), product->data(), n, n, n); },
      kSgemmRepeats);
  if (!best_ms) return best_ms.error();
  // One multiply and one add per term of each of the n² dot products of length n.
  const double flops =
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  c.sgemm_flops_per_second = flops / (*best_ms * 1e-3);
  c.sgemm_size = n;
  return Status::ok();
}

}  // namespace

Result<DeviceCeilings> measure_ceilings(Device& device, const std::atomic<bool>* cancel) {
  DeviceCeilings c;
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(measure_copy(device, memory->free_bytes, c));
  if (cancelled(cancel)) return Error{ErrorKind::kCancelled, "cancelled"};
  TL_RETURN_IF_ERROR(measure_sgemm(device, memory->free_bytes, c));
  c.measured_at = utc_now();
  return c;
}

Result<DeviceCeilings> cached_ceilings(Device& device,
                                       const std::optional<std::filesystem::path>& cache_path,
                                       std::string& warning, const std::atomic<bool>* cancel) {
  warning.clear();
  const std::string key = ceilings_key(device.info());
  CeilingsCache cache;
  if (cache_path) {
    auto loaded = CeilingsCache::load(*cache_path);
    if (loaded) {
      cache = std::move(*loaded);
      if (auto known = cache.find(key)) return *known;
    } else {
      warning = "ignoring the ceilings cache: " + loaded.message();
    }
  }
  auto measured = measure_ceilings(device, cancel);
  if (!measured) return measured.error();
  if (cache_path) {
    cache.store(key, *measured);
    if (const Status saved = cache.save(*cache_path); !saved && warning.empty()) {
      warning = "could not cache the ceilings: " + saved.message();
    }
  }
  return measured;
}

}  // namespace tl::compute
