#include "backend_selection.hpp"

#include "core/backend_name.hpp"

#if defined(THREADLAB_HAVE_CUDA)
#include "cuda_interop_trace_sink.hpp"
#endif

namespace tl::interop {

Result<BackendPreference> parse_backend_preference(const std::string& text) {
  auto name = parse_backend_name(text);
  if (!name) return name.error();
  switch (*name) {
    case BackendName::kAuto:
      return BackendPreference::kAuto;
    case BackendName::kGpu:
      return BackendPreference::kCuda;
    case BackendName::kGpuCopy:
      return BackendPreference::kCudaCopy;
    case BackendName::kEmulator:
      return BackendPreference::kEmulator;
  }
  return BackendPreference::kAuto;
}

Result<BackendChoice> choose_backend(BackendPreference preference, bool gl_context_current) {
  BackendChoice choice;
  if (preference == BackendPreference::kEmulator) {
    choice.device = compute::make_emulator_device();
    choice.reason = "requested with --backend emulator";
    return choice;
  }
  auto cuda = compute::make_cuda_device(0);
  if (!cuda) {
    if (preference != BackendPreference::kAuto) return cuda.error();
    choice.device = compute::make_emulator_device();
    choice.reason = cuda.message() + "; kernels run on the CPU emulator";
    return choice;
  }
  choice.device = std::move(*cuda);
  choice.kind = BackendKind::kCudaCopy;
  if (preference == BackendPreference::kCudaCopy) {
    choice.reason = "the copy path was requested: traces go device → host → OpenGL";
    return choice;
  }
  if (!gl_context_current) {
    choice.reason = "no OpenGL context (command line): traces are copied to the host";
    return choice;
  }
#if defined(THREADLAB_HAVE_CUDA)
  const std::string problem = probe_interop(0);
  if (problem.empty()) {
    choice.kind = BackendKind::kCudaInterop;
    choice.reason = "OpenGL runs on " + choice.device->info().name +
                    ": kernels write their traces straight into OpenGL buffers";
  } else {
    choice.reason = problem;
  }
#endif
  return choice;
}

}  // namespace tl::interop
