#include "dense_cublas.hpp"

#include <cublas_v2.h>

#include <string>

#include "kernels/kernel_table.hpp"

namespace tl::compute {
namespace {

// "what: <cuBLAS's description> (<CUBLAS_STATUS_NAME>)", as ErrorKind::kCudaError, or
// kOutOfMemory when cuBLAS could not allocate its workspace.
Status dense_cublas_status(cublasStatus_t status, const std::string& what) {
  if (status == CUBLAS_STATUS_SUCCESS) return Status::ok();
  const ErrorKind kind =
      status == CUBLAS_STATUS_ALLOC_FAILED ? ErrorKind::kOutOfMemory : ErrorKind::kCudaError;
  return Error{kind, what + ": " + cublasGetStatusString(status) + " (" +
                         cublasGetStatusName(status) + ")"};
}

}  // namespace

CublasDenseLayer::~CublasDenseLayer() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

Status CublasDenseLayer::initialize() {
  if (handle_ != nullptr) return Status::ok();
  cublasHandle_t handle = nullptr;
  TL_RETURN_IF_ERROR(dense_cublas_status(cublasCreate(&handle), "creating the cuBLAS handle"));
  handle_ = handle;
  // Plain FP32 arithmetic, never TF32: the three paths must compute the same float layer, so that
  // one tolerance checks them all and the timings compare like with like.
  return dense_cublas_status(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH),
                             "setting the cuBLAS math mode");
}

Status CublasDenseLayer::product(const float* x, const float* w, float* z, int batch, int in,
                                 int out) {
  TL_RETURN_IF_ERROR(initialize());
  // cuBLAS follows Fortran: it stores matrices column by column. A row-major r × c matrix, read
  // column by column, is its transpose (c × r, leading dimension c), so no data needs to move:
  //   Z (batch × out, row-major) is Zᵀ (out × batch) to cuBLAS, and Zᵀ = (X · Wᵀ)ᵀ = W · Xᵀ.
  //   W (out × in, row-major) is Wᵀ (in × out, leading dimension in) to cuBLAS: transpose it back
  //   with CUBLAS_OP_T to get W.
  //   X (batch × in, row-major) is Xᵀ (in × batch, leading dimension in): use it as it is.
  // So Zᵀ (m = out, n = batch) = op(A) · op(B) with A = W transposed, B = X as is, k = in.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  return dense_cublas_status(cublasSgemm(handle_, CUBLAS_OP_T, CUBLAS_OP_N, out, batch, in, &alpha,
                                         w, in, x, in, &beta, z, out),
                             "cublasSgemm for Z = X · Wᵀ (" + std::to_string(batch) + " × " +
                                 std::to_string(in) + " times " + std::to_string(in) + " × " +
                                 std::to_string(out) + ")");
}

Status CublasDenseLayer::epilogue(const LaunchConfig& config, const float* z, const float* b,
                                  float* y, int batch, int out, TraceRecord* trace) {
  const kernels::DenseLayerKernels& kernels = kernels::gpu_kernels().dense_layer;
  if (trace != nullptr) return kernels.bias_sigmoid_traced(config, z, b, y, batch, out, trace);
  return kernels.bias_sigmoid(config, z, b, y, batch, out);
}

}  // namespace tl::compute
