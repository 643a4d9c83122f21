#include "gl_trace_sink.hpp"

#include "upload_trace_sink.hpp"
#if defined(THREADLAB_HAVE_CUDA)
#include "cuda_interop_trace_sink.hpp"
#endif

namespace tl::interop {

std::unique_ptr<compute::TraceSink> make_gl_trace_sink(BackendKind kind,
                                                       render::TraceBuffer& buffer) {
#if defined(THREADLAB_HAVE_CUDA)
  if (kind == BackendKind::kCudaInterop) return std::make_unique<CudaInteropTraceSink>(buffer);
#else
  (void)kind;
#endif
  return std::make_unique<UploadTraceSink>(buffer);
}

}  // namespace tl::interop
