#pragma once
// What one traced frame costs on each path of the fallback chain: the sink's buffer acquired, the
// traced vector add run over n elements, the records published to OpenGL, and GL finished with
// them. Interop writes the records where GL reads them; the copy path takes them device → host →
// GL. Needs the GL context current on the calling thread.

#include <cstdint>

#include "compute/device.hpp"
#include "core/device_info.hpp"
#include "core/result.hpp"

namespace tl::interop {

// Median milliseconds per frame over `repeats` frames after one warm-up frame.
Result<double> time_trace_delivery(compute::Device& device, BackendKind path, std::uint64_t n,
                                   int repeats);

}  // namespace tl::interop
