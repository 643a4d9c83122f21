#include "host_bandwidth.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "core/parallel_chunks.hpp"

namespace tl::cli {
namespace {

// Each thread gets at least this many floats (1 MiB): below it, starting a thread costs more.
constexpr std::size_t kMinPerThread = std::size_t{1} << 18;

// Arrays left uninitialised by the allocation, so that the first touch happens in parallel below
// and each page lands near the thread that uses it.
std::unique_ptr<float[]> raw_floats(std::uint64_t n) {
  return std::unique_ptr<float[]>(new (std::nothrow) float[n]);
}

template <typename F>
double median_seconds(F&& work, int repeats) {
  std::vector<double> samples;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    samples.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

Result<HostBandwidth> measure_host_bandwidth(std::uint64_t n, int repeats) {
  auto a = raw_floats(n), b = raw_floats(n), c = raw_floats(n);
  if (!a || !b || !c) {
    return Error{ErrorKind::kOutOfMemory,
                 "host bandwidth: could not allocate 3 arrays of " + std::to_string(n) + " floats"};
  }
  const std::size_t count = n;
  HostBandwidth result;
  // First touch, in parallel: fills the inputs and faults every page in.
  result.threads = for_each_chunk(count, 0, kMinPerThread, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      a[i] = static_cast<float>(i & 1023);
      b[i] = 1.0f;
      c[i] = 0.0f;
    }
  });

  auto copy = [&] {
    for_each_chunk(count, 0, kMinPerThread, [&](std::size_t begin, std::size_t end) {
      std::memcpy(c.get() + begin, a.get() + begin, (end - begin) * sizeof(float));
    });
  };
  // The multi-threaded CPU vector add the first lesson times (its CPU reference splits the work
  // the same way: chunks of at least 2^16 elements, one per thread).
  auto add = [&] {
    for_each_chunk(count, 0, std::size_t{1} << 16, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
    });
  };
  copy();
  add();
  const double bytes = static_cast<double>(n) * sizeof(float);
  result.memcpy_bytes_per_second = 2 * bytes / median_seconds(copy, repeats);
  result.vector_add_bytes_per_second = 3 * bytes / median_seconds(add, repeats);
  return result;
}

}  // namespace tl::cli
