#pragma once
// What one traced frame costs on each path of the fallback chain: the sink's buffer acquired, the
// lesson's traced launch run, the records published to OpenGL, and GL finished with them. Interop
// writes the records where GL reads them; the copy path takes them device → host → GL. Needs the
// GL context current on the calling thread.

#include "compute/device.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/device_info.hpp"
#include "core/result.hpp"

namespace tl::interop {

// Median milliseconds per frame of `lesson`'s traced launch at its current values, over `repeats`
// frames after one warm-up frame. The lesson keeps its inputs on the device between frames, as
// the window does, and releases them before returning.
Result<double> time_trace_delivery(compute::Device& device, BackendKind path,
                                   compute::Lesson& lesson, int repeats);

}  // namespace tl::interop
