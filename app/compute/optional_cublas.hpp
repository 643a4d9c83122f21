#pragma once
// cuBLAS SGEMM where the device can run it: a GPU in a build with CUDA. Elsewhere every call
// explains why there is none, so callers (a lesson, the device ceilings) need no #if.

#include <cstdint>
#include <memory>
#include <string>

#include "compute/device.hpp"
#include "core/numeric/low_precision.hpp"  // numeric::FloatFormat
#include "core/result.hpp"

namespace tl::compute {

class CublasSgemm;

class OptionalCublas {
 public:
  explicit OptionalCublas(const Device& device);
  ~OptionalCublas();
  OptionalCublas(const OptionalCublas&) = delete;
  OptionalCublas& operator=(const OptionalCublas&) = delete;

  [[nodiscard]] bool available() const;
  [[nodiscard]] static std::string unavailable_reason();

  // Loads cuBLAS and creates its handle, outside any timed run.
  Status initialize();
  // C = A · B, row-major, in device memory (A is m × k, B is k × n); asynchronous like a kernel.
  Status multiply(const float* a, const float* b, float* c, std::uint32_t m, std::uint32_t n,
                  std::uint32_t k);
  // The same at a tensor-core precision (cublasGemmEx, FP32 accumulation, float C): a and b are
  // 16-bit words for FP16 and BF16, floats for TF32 and FP32.
  Status multiply(numeric::FloatFormat input, const void* a, const void* b, float* c,
                  std::uint32_t m, std::uint32_t n, std::uint32_t k);

 private:
  bool on_gpu_;
  std::unique_ptr<CublasSgemm> sgemm_;  // only in a build with CUDA
};

}  // namespace tl::compute
