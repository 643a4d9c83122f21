#pragma once
// Float sinks (compute/float_sink.hpp) that deliver an array of class probabilities into a
// render::ClassMap's OpenGL buffer, one per backend of the fallback chain:
//   interop  — the CUDA kernels write straight into the GL buffer (registered once, again only when
//              it is reallocated, mapped from acquire to publish);
//   copy     — the kernels write device memory, then a device → host copy and a GL upload;
//   emulator — the CPU kernels write host memory, then a GL upload.
// acquire() and publish() need the map's GL context current on the calling thread.

#include <memory>

#include "compute/float_sink.hpp"
#include "core/device_info.hpp"
#include "render/class_map.hpp"

namespace tl::interop {

// The sink for `kind`, writing into `map`, which must outlive it.
std::unique_ptr<compute::FloatSink> make_class_map_sink(BackendKind kind, render::ClassMap& map);

}  // namespace tl::interop
