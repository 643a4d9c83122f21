#include "cublas_sgemm.hpp"

#include <cublas_v2.h>

#include <string>

namespace tl::compute {
namespace {

// "what: <cuBLAS's description> (<CUBLAS_STATUS_NAME>)", as ErrorKind::kCudaError (kOutOfMemory
// when cuBLAS could not allocate its workspace).
Status cublas_status(cublasStatus_t status, const std::string& what) {
  if (status == CUBLAS_STATUS_SUCCESS) return Status::ok();
  const ErrorKind kind =
      status == CUBLAS_STATUS_ALLOC_FAILED ? ErrorKind::kOutOfMemory : ErrorKind::kCudaError;
  return Error{kind, what + ": " + cublasGetStatusString(status) + " (" +
                         cublasGetStatusName(status) + ")"};
}

}  // namespace

CublasSgemm::~CublasSgemm() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

Status CublasSgemm::initialize() {
  if (handle_ != nullptr) return Status::ok();
  cublasHandle_t handle = nullptr;
  TL_RETURN_IF_ERROR(cublas_status(cublasCreate(&handle), "creating the cuBLAS handle"));
  handle_ = handle;
  // Plain FP32 arithmetic, never TF32: cuBLAS is the reference the students' float kernels are
  // checked and timed against, so it must do the same arithmetic.
  return cublas_status(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH), "setting cuBLAS math mode");
}

Status CublasSgemm::multiply(const float* a, const float* b, float* c, int m, int n, int k) {
  TL_RETURN_IF_ERROR(initialize());
  // cuBLAS follows Fortran and stores matrices column by column. A row-major M×N matrix read
  // column-major is its transpose, N×M. So ask cuBLAS for C^T = B^T · A^T: with B^T (N×K, leading
  // dimension n) as the first operand and A^T (K×M, leading dimension k) as the second, the
  // column-major result C^T (N×M, leading dimension n) is exactly row-major C. No data moves.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  return cublas_status(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k,
                                   &beta, c, n),
                       "cublasSgemm");
}

}  // namespace tl::compute
