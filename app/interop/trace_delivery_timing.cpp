#include "trace_delivery_timing.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/stats.hpp"
#include "gl_trace_sink.hpp"
#include "render/trace_buffer.hpp"

namespace tl::interop {

Result<double> time_trace_delivery(compute::Device& device, BackendKind path,
                                   compute::Lesson& lesson, int repeats) {
  const DataShape shape = lesson.data_shape();
  const std::uint64_t elements = shape.rows * shape.cols;
  if (elements == 0) return invalid_argument("the lesson traces no elements");
  render::TraceBuffer buffer;
  TL_RETURN_IF_ERROR(buffer.reserve(elements));
  auto sink = make_gl_trace_sink(path, buffer);
  lesson.set_keep_traced_inputs(true);
  struct Release {
    compute::Lesson& lesson;
    ~Release() { lesson.set_keep_traced_inputs(false); }
  } release{lesson};

  auto frame = [&]() -> Status {
    auto traced = lesson.run_traced(device, *sink);
    TL_RETURN_IF_ERROR(traced.status());
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
