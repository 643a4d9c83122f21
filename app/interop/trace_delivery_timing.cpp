#include "trace_delivery_timing.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/stats.hpp"
#include "gl_trace_sink.hpp"
#include "render/trace_buffer.hpp"

namespace tl::interop {

Result<double> time_trace_delivery(compute::Device& device, BackendKind path, std::uint64_t n,
                                   int repeats) {
  if (n == 0 || n > (std::uint64_t{1} << 30)) return invalid_argument("n out of range");
  auto a = compute::allocate_array<float>(device, n);
  if (!a) return a.error();
  auto b = compute::allocate_array<float>(device, n);
  if (!b) return b.error();
  auto c = compute::allocate_array<float>(device, n);
  if (!c) return c.error();
  TL_RETURN_IF_ERROR(device.fill_zero(a->data(), a->bytes()));
  TL_RETURN_IF_ERROR(device.fill_zero(b->data(), b->bytes()));
  render::TraceBuffer buffer;
  TL_RETURN_IF_ERROR(buffer.reserve(n));
  auto sink = make_gl_trace_sink(path, buffer);
  // One thread per element, 256 to a block.
  const LaunchConfig config{{static_cast<std::uint32_t>((n + 255) / 256), 1, 1}, {256, 1, 1}};

  auto frame = [&]() -> Status {
    auto records = sink->acquire(device, n);
    if (!records) return records.status();
    Status launched = device.kernels().vector_add.add_traced(
        config, a->data(), b->data(), c->data(), static_cast<int>(n), *records);
    if (launched) launched = device.synchronize();
    const Status published = sink->publish(device);
    TL_RETURN_IF_ERROR(launched);
    TL_RETURN_IF_ERROR(published);
    glFinish();  // the records are in GL's buffer, ready to draw
    return Status::ok();
  };

  TL_RETURN_IF_ERROR(frame());  // warm-up: registration, first allocation
  std::vector<double> times;
  for (int i = 0; i < std::max(repeats, 1); ++i) {
    const auto start = std::chrono::steady_clock::now();
    TL_RETURN_IF_ERROR(frame());
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  return summarize_timings(times).median_ms;
}

}  // namespace tl::interop
