#pragma once
// Trace sinks that deliver a traced launch's records into the renderer's OpenGL buffer, one per
// backend of the fallback chain:
//   interop  — the CUDA kernel writes straight into the GL buffer (registered once, mapped per
//   launch); copy     — the kernel writes to device memory, then device → host copy and a GL
//   upload; emulator — the CPU kernels write host memory, then a GL upload.
// All need the GL context current on the calling thread.

#include <memory>

#include "compute/trace_sink.hpp"
#include "core/device_info.hpp"
#include "render/trace_buffer.hpp"

namespace tl::interop {

// The sink for `kind`, writing into `buffer`, which must outlive it.
std::unique_ptr<compute::TraceSink> make_gl_trace_sink(BackendKind kind,
                                                       render::TraceBuffer& buffer);

}  // namespace tl::interop
