#pragma once
// cuBLAS SGEMM, the matrix multiply that frameworks call, as lesson 4's reference on the GPU. Only
// built with CUDA; the header keeps cuBLAS's types out so that callers need no CUDA headers.

#include "core/numeric/low_precision.hpp"  // numeric::FloatFormat
#include "core/result.hpp"

struct cublasContext;  // cuBLAS's handle type is a pointer to this

namespace tl::compute {

class CublasSgemm {
 public:
  CublasSgemm() = default;
  ~CublasSgemm();
  CublasSgemm(const CublasSgemm&) = delete;
  CublasSgemm& operator=(const CublasSgemm&) = delete;

  // Creates the cuBLAS handle if it does not exist yet. multiply() does this itself; calling it
  // first keeps the one-time set-up (loading cuBLAS's kernels) out of a timed run.
  Status initialize();

  // C = A · B for row-major A (m×k), B (k×n) and C (m×n) in device memory, on the default stream
  // like ThreadLab's kernels, so CUDA events time it the same way. Asynchronous, like a kernel.
  Status multiply(const float* a, const float* b, float* c, int m, int n, int k);

  // The same product at a tensor-core rung's precision (cublasGemmEx): FP16 or BF16 inputs (16-bit
  // words), or float inputs rounded to TF32 (CUBLAS_COMPUTE_32F_FAST_TF32); FP32 accumulation and
  // a float C, as the rungs do. kFp32 is multiply().
  Status multiply(numeric::FloatFormat input, const void* a, const void* b, float* c, int m, int n,
                  int k);

 private:
  cublasContext* handle_ = nullptr;  // owned; created lazily
};

}  // namespace tl::compute
