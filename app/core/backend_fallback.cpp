#include "backend_fallback.hpp"

namespace tl {

std::optional<BackendKind> fallback_after_trace_error(BackendKind current, const Error& error) {
  // Only interop can fail where another path still works: its failures (registering, mapping or
  // unmapping a GL buffer with CUDA) come as graphics errors. The copy path shares everything else
  // with interop, so a CUDA error there would fail the copy path as well.
  if (current == BackendKind::kCudaInterop && error.kind == ErrorKind::kGraphicsError) {
    return BackendKind::kCudaCopy;
  }
  return std::nullopt;
}

std::string describe_trace_fallback(BackendKind to, const Error& error) {
  const std::string path = to == BackendKind::kCudaCopy ? "traces are copied through the host"
                                                        : "kernels run on the CPU emulator";
  return "CUDA-OpenGL interop stopped working (" + error.message + "); from now on " + path +
         ", which is slower but shows the same picture.";
}

}  // namespace tl
