#include "cublas_sgemm.hpp"

#include "cublas_library.hpp"

#include <string>

namespace tl::compute {
CublasSgemm::~CublasSgemm() {
  destroy_handle(handle_);
}

Status CublasSgemm::initialize() {
  return create_fp32_handle(handle_);
}

Status CublasSgemm::multiply(const float* a, const float* b, float* c, int m, int n, int k) {
  TL_RETURN_IF_ERROR(initialize());
  const CublasApi* api = *cublas_api();  // loaded: initialize() succeeded
  // cuBLAS follows Fortran and stores matrices column by column. A row-major M×N matrix read
  // column-major is its transpose, N×M. So ask cuBLAS for C^T = B^T · A^T: with B^T (N×K, leading
  // dimension n) as the first operand and A^T (K×M, leading dimension k) as the second, the
  // column-major result C^T (N×M, leading dimension n) is exactly row-major C. No data moves.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  return cublas_status(
      *api, api->sgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k, &beta, c, n),
      "cublasSgemm");
}

Status CublasSgemm::multiply(numeric::FloatFormat input, const void* a, const void* b, float* c,
                             int m, int n, int k) {
  if (input == numeric::FloatFormat::kFp32) {
    return multiply(static_cast<const float*>(a), static_cast<const float*>(b), c, m, n, k);
  }
  TL_RETURN_IF_ERROR(initialize());
  const CublasApi* api = *cublas_api();
  cudaDataType type = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  switch (input) {
    case numeric::FloatFormat::kFp16:
      type = CUDA_R_16F;
      break;
    case numeric::FloatFormat::kBf16:
      type = CUDA_R_16BF;
      break;
    default:
      compute = CUBLAS_COMPUTE_32F_FAST_TF32;  // float inputs, rounded to TF32 by cuBLAS
      break;
  }
  // Row-major C = A · B as column-major Cᵀ = Bᵀ · Aᵀ, as in multiply() above.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  return cublas_status(
      *api,
      api->gemm_ex(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, type, n, a, type, k,
                   &beta, c, CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT),
      "cublasGemmEx (" + std::string(numeric::display_name(input)) + " inputs)");
}

}  // namespace tl::compute
