#include "compute/optional_cublas.hpp"

#if defined(THREADLAB_HAVE_CUDA)
#include "compute/cuda/cublas_sgemm.hpp"
#endif

namespace tl::compute {

#if defined(THREADLAB_HAVE_CUDA)
OptionalCublas::OptionalCublas(const Device& device)
    : on_gpu_(device.is_gpu()), sgemm_(std::make_unique<CublasSgemm>()) {}
#else
// Never defined without CUDA: the unique_ptr stays empty and is never deleted through.
class CublasSgemm {};
OptionalCublas::OptionalCublas(const Device& device) : on_gpu_(device.is_gpu()) {}
#endif

OptionalCublas::~OptionalCublas() = default;

bool OptionalCublas::available() const {
  return on_gpu_ && sgemm_ != nullptr;
}

std::string OptionalCublas::unavailable_reason() {
  return "cuBLAS runs only on an NVIDIA GPU: the emulator has no cuBLAS";
}

Status OptionalCublas::initialize() {
#if defined(THREADLAB_HAVE_CUDA)
  if (available()) return sgemm_->initialize();
#endif
  return Error{ErrorKind::kNoDevice, unavailable_reason()};
}

Status OptionalCublas::multiply(const float* a, const float* b, float* c, std::uint32_t m,
                                std::uint32_t n, std::uint32_t k) {
#if defined(THREADLAB_HAVE_CUDA)
  if (available()) {
    return sgemm_->multiply(a, b, c, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k));
  }
#else
  (void)a, (void)b, (void)c, (void)m, (void)n, (void)k;
#endif
  return Error{ErrorKind::kNoDevice, unavailable_reason()};
}

Status OptionalCublas::multiply(numeric::FloatFormat input, const void* a, const void* b, float* c,
                                std::uint32_t m, std::uint32_t n, std::uint32_t k) {
#if defined(THREADLAB_HAVE_CUDA)
  if (available()) {
    return sgemm_->multiply(input, a, b, c, static_cast<int>(m), static_cast<int>(n),
                            static_cast<int>(k));
  }
#else
  (void)input, (void)a, (void)b, (void)c, (void)m, (void)n, (void)k;
#endif
  return Error{ErrorKind::kNoDevice, unavailable_reason()};
}

}  // namespace tl::compute
