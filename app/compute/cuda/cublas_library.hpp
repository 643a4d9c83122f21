#pragma once
// cuBLAS, loaded at run time with dlopen rather than linked: ThreadLab starts, and everything but
// the cuBLAS rows works, on a machine that has the NVIDIA driver but not the CUDA toolkit's
// libraries. The rows that need cuBLAS then say why they are missing.

#include <cublas_v2.h>

#include <string>

#include "core/result.hpp"

namespace tl::compute {

struct CublasApi {
  cublasStatus_t (*create)(cublasHandle_t* handle);
  cublasStatus_t (*destroy)(cublasHandle_t handle);
  cublasStatus_t (*set_math_mode)(cublasHandle_t handle, cublasMath_t mode);
  cublasStatus_t (*sgemm)(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                          int m, int n, int k, const float* alpha, const float* a, int lda,
                          const float* b, int ldb, const float* beta, float* c, int ldc);
  // Mixed precision (lesson 4's tensor-core rungs): inputs of one type, C of another.
  cublasStatus_t (*gemm_ex)(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void* alpha,
                            const void* a, cudaDataType a_type, int lda, const void* b,
                            cudaDataType b_type, int ldb, const void* beta, void* c,
                            cudaDataType c_type, int ldc, cublasComputeType_t compute_type,
                            cublasGemmAlgo_t algo);
  const char* (*status_name)(cublasStatus_t status);
  const char* (*status_string)(cublasStatus_t status);
};

// The loaded library, or why it could not be loaded. Loaded once; later calls return the same.
Result<const CublasApi*> cublas_api();

// "what: <cuBLAS's description> (<CUBLAS_STATUS_NAME>)", as ErrorKind::kCudaError (kOutOfMemory
// when cuBLAS could not allocate its workspace); OK for CUBLAS_STATUS_SUCCESS.
Status cublas_status(const CublasApi& api, cublasStatus_t status, const std::string& what);

// Creates `handle` if it is null, in plain FP32 math, never TF32: cuBLAS is the reference the
// lessons' float kernels are checked and timed against, so it must do the same arithmetic. The
// first call loads cuBLAS's kernels, so a caller that times products makes it before timing.
Status create_fp32_handle(cublasHandle_t& handle);
// Destroys a handle create_fp32_handle() made; null is nothing to destroy.
void destroy_handle(cublasHandle_t handle);

}  // namespace tl::compute
