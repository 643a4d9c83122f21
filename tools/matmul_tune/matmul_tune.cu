// Tuning aid, not part of the app: times a few shapes of the warp-tiled kernel
// (lessons/04_matmul/kernels/matmul_warptile.cuh) and the dense GEMV at issue #6's sizes against
// cuBLAS SGEMM and a device-to-device copy, in one process, and prints the max difference from
// cuBLAS. Build:
//   nvcc -O3 -std=c++20 -arch=sm_90 -I. -Iapp tools/matmul_tune/matmul_tune.cu -lcublas -o tune
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "kernels/trace.cuh"

namespace tune {
#include "kernels/matmul_tile_io.cuh"
#include "lessons/04_matmul/kernels/matmul_warptile.cuh"
#include "lessons/05_dense_layer/kernels/dense_layer.cuh"
}  // namespace tune

template <typename F>
float median_ms(F&& launch, int repeats = 9) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch();
  std::vector<float> times;
  for (int i = 0; i < repeats; ++i) {
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

float max_diff(const float* x, const float* y, size_t n) {
  std::vector<float> hx(n), hy(n);
  cudaMemcpy(hx.data(), x, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hy.data(), y, n * 4, cudaMemcpyDeviceToHost);
  float d = 0;
  for (size_t i = 0; i < n; ++i) d = std::max(d, std::fabs(hx[i] - hy[i]));
  return d;
}

template <class Shape>
void try_shape(const char* name, const float* a, const float* b, float* c, const float* ref, int n,
               double cublas_tflops) {
  const dim3 grid((n + Shape::BN - 1) / Shape::BN, (n + Shape::BM - 1) / Shape::BM);
  const float ms =
      median_ms([&] { tune::matmul_warptile<Shape><<<grid, Shape::THREADS>>>(a, b, c, n, n, n); });
  const double tflops = 2.0 * n * n * n / (ms * 1e-3) / 1e12;
  std::printf("%-34s %8.3f ms %7.2f TFLOP/s  %.3f of cuBLAS  maxdiff %.3g  (%s)\n", name, ms,
              tflops, tflops / cublas_tflops, max_diff(c, ref, size_t(n) * n),
              cudaGetErrorString(cudaGetLastError()));
}

int main() {
  const int n = 4096;
  const size_t elems = size_t(n) * n;
  float *a, *b, *c, *ref;
  cudaMalloc(&a, elems * 4);
  cudaMalloc(&b, elems * 4);
  cudaMalloc(&c, elems * 4);
  cudaMalloc(&ref, elems * 4);
  std::vector<float> h(elems);
  for (size_t i = 0; i < elems; ++i) h[i] = float((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
  cudaMemcpy(a, h.data(), elems * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h.data(), elems * 4, cudaMemcpyHostToDevice);

  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1, zero = 0;
  const float cublas_ms = median_ms([&] {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, ref, n);
  });
  const double cublas_tflops = 2.0 * n * n * n / (cublas_ms * 1e-3) / 1e12;
  std::printf("cuBLAS SGEMM 4096^3: %.3f ms %.2f TFLOP/s\n", cublas_ms, cublas_tflops);

  try_shape<tune::MatmulWarptile>("128x128x8 2x4 warps 8x4 lanes", a, b, c, ref, n, cublas_tflops);
  try_shape<tune::WarptileShape<128, 128, 16, 2, 4, 8>>("128x128x16 2x4 warps 8x4 lanes", a, b, c,
                                                        ref, n, cublas_tflops);
  try_shape<tune::WarptileShape<128, 128, 8, 4, 2, 4>>("128x128x8 4x2 warps 4x8 lanes", a, b, c,
                                                       ref, n, cublas_tflops);
  try_shape<tune::WarptileShape<128, 256, 8, 2, 4, 4>>("128x256x8 2x4 warps 4x8 lanes (16x8)", a, b,
                                                       c, ref, n, cublas_tflops);
  try_shape<tune::WarptileShape<128, 64, 8, 2, 2, 8>>("128x64x8 2x2 warps (128 thr)", a, b, c, ref,
                                                      n, cublas_tflops);

  // Dense batch 1: the GEMV fused and unfused against a device-to-device copy of W.
  float *x, *bias, *z, *y;
  cudaMalloc(&x, n * 4);
  cudaMalloc(&bias, n * 4);
  cudaMalloc(&z, n * 4);
  cudaMalloc(&y, n * 4);
  cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(bias, h.data(), n * 4, cudaMemcpyHostToDevice);
  const float copy_ms = median_ms([&] { cudaMemcpy(c, a, elems * 4, cudaMemcpyDeviceToDevice); });
  const dim3 gemv_grid(n / 8, 1);
  const float gemv_ms =
      median_ms([&] { tune::dense_gemv_fused<<<gemv_grid, 256>>>(x, a, bias, y, n, n); });
  const float product_ms =
      median_ms([&] { tune::dense_gemv_product<<<gemv_grid, 256>>>(x, a, z, n, n); });
  const float bias_ms =
      median_ms([&] { tune::dense_add_bias<<<dim3(n / 32, 1), dim3(32, 8)>>>(z, bias, 1, n); });
  std::printf("D2D copy 64 MiB: %.4f ms = %.0f GB/s (read+write)\n", copy_ms,
              2.0 * elems * 4 / (copy_ms * 1e-3) / 1e9);
  std::printf("GEMV fused %.4f ms = %.0f GB/s of W; product alone %.4f ms; bias %.4f ms\n", gemv_ms,
              elems * 4 / (gemv_ms * 1e-3) / 1e9, product_ms, bias_ms);
  std::printf("last error: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
