#include "lessons/05_dense_layer/dense_cublas.hpp"

#include "compute/cuda/cublas_library.hpp"

#include <string>

#include "kernels/kernel_registry.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_kernels.hpp"

namespace tl::compute {
CublasDenseLayer::~CublasDenseLayer() {
  destroy_handle(handle_);
}

// Plain FP32 arithmetic, never TF32: the three paths must compute the same float layer, so that one
// tolerance checks them all and the timings compare like with like.
Status CublasDenseLayer::initialize() {
  return create_fp32_handle(handle_);
}

Status CublasDenseLayer::product(const float* x, const float* w, float* z, int batch, int in,
                                 int out) {
  TL_RETURN_IF_ERROR(initialize());
  const CublasApi* api = *cublas_api();  // loaded: initialize() succeeded
  // cuBLAS follows Fortran: it stores matrices column by column. A row-major r × c matrix, read
  // column by column, is its transpose (c × r, leading dimension c), so no data needs to move:
  //   Z (batch × out, row-major) is Zᵀ (out × batch) to cuBLAS, and Zᵀ = (X · Wᵀ)ᵀ = W · Xᵀ.
  //   W (out × in, row-major) is Wᵀ (in × out, leading dimension in) to cuBLAS: transpose it back
  //   with CUBLAS_OP_T to get W.
  //   X (batch × in, row-major) is Xᵀ (in × batch, leading dimension in): use it as it is.
  // So Zᵀ (m = out, n = batch) = op(A) · op(B) with A = W transposed, B = X as is, k = in.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  return cublas_status(*api,
                       api->sgemm(handle_, CUBLAS_OP_T, CUBLAS_OP_N, out, batch, in, &alpha, w, in,
                                  x, in, &beta, z, out),
                       "cublasSgemm for Z = X · Wᵀ (" + std::to_string(batch) + " × " +
                           std::to_string(in) + " times " + std::to_string(in) + " × " +
                           std::to_string(out) + ")");
}

Status CublasDenseLayer::epilogue(const LaunchConfig& config, const float* z, const float* b,
                                  float* y, int batch, int out, TraceRecord* trace) {
  const kernels::DenseLayerKernels& kernels =
      kernels::gpu_kernels().get<kernels::DenseLayerKernels>();
  if (trace != nullptr) return kernels.bias_sigmoid_traced(config, z, b, y, batch, out, trace);
  return kernels.bias_sigmoid(config, z, b, y, batch, out);
}

}  // namespace tl::compute
