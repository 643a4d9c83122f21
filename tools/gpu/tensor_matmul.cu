// Standalone check and tuning aid for lesson 4's tensor-core rungs
// (lessons/04_matmul/kernels/matmul_wmma.cuh, lessons/04_matmul/kernels/matmul_mma.cuh), not part
// of the app. In one process it
//   1. reads back the registers of a real ldmatrix / mma.sync and compares every lane's elements
//      with the layout the lesson draws (lessons/04_matmul/kernels/matmul_tensor_layout.hpp);
//   2. checks every rung on awkward shapes (not multiples of any tile; aligned and unaligned rows)
//      against a float64 product of the same rounded inputs, within the float32-accumulation bound;
//   3. times them at 4096³ against cuBLAS at the same precision (cublasGemmEx, FP16 / BF16 inputs,
//      FP32 compute and output; TF32 through CUBLAS_COMPUTE_32F_FAST_TF32), with a few other shapes
//      of the mma kernel for tuning.
// Build and run on the GPU machine (from the repository root):
//   nvcc -O3 -std=c++20 -arch=sm_90 -I. -Iapp -Xcompiler -fopenmp tools/gpu/tensor_matmul.cu \
//        -lcublas -o tensor_matmul && ./tensor_matmul
// Exit status 1 when a layout or correctness check fails.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/trace.cuh"
#include "lessons/04_matmul/kernels/matmul_tensor_layout.hpp"
#include "tools/gpu/sweep_timing.cuh"

namespace tensor {
#include "kernels/matmul_tile_io.cuh"
#include "lessons/04_matmul/kernels/matmul_mma.cuh"
#include "lessons/04_matmul/kernels/matmul_wmma.cuh"

}  // namespace tensor

using tl::kernels::MmaOperand;

bool check_layout() {
  float *a_out, *b_out, *c_out;
  CHECK_CUDA(cudaMalloc(&a_out, 256 * 4));
  CHECK_CUDA(cudaMalloc(&b_out, 256 * 4));
  CHECK_CUDA(cudaMalloc(&c_out, 128 * 4));
  tensor::matmul_mma_layout_probe<<<1, 32>>>(a_out, b_out, c_out);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> a(256), b(256), c(128);
  CHECK_CUDA(cudaMemcpy(a.data(), a_out, 256 * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(b.data(), b_out, 256 * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(c.data(), c_out, 128 * 4, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < 8; ++i) {
      const auto e = tl::kernels::mma_element(MmaOperand::kA, lane, i);
      if (a[lane * 8 + i] != 16.0f * e.row + e.col) ++wrong;
    }
    for (int tile = 0; tile < 2; ++tile) {
      for (int i = 0; i < 4; ++i) {
        const auto e = tl::kernels::mma_element(MmaOperand::kB, lane, i);
        if (b[lane * 8 + 4 * tile + i] != 16.0f * e.row + (e.col + 8 * tile)) ++wrong;
      }
    }
    for (int i = 0; i < 4; ++i) {
      const auto e = tl::kernels::mma_element(MmaOperand::kC, lane, i);
      if (c[lane * 4 + i] != 8.0f * e.row + e.col) ++wrong;
    }
  }
  std::printf("layout: %s (%d of %d lane elements differ from matmul_tensor_layout.hpp)\n",
              wrong == 0 ? "ok" : "WRONG", wrong, 32 * (8 + 8 + 4));
  cudaFree(a_out);
  cudaFree(b_out);
  cudaFree(c_out);
  return wrong == 0;
}

enum class Input { kFp16, kBf16, kTf32 };

// The value the tensor core multiplies for float x.
double rounded(float x, Input input) {
  switch (input) {
    case Input::kFp16:
      return __half2float(__float2half_rn(x));
    case Input::kBf16:
      return __bfloat162float(__float2bfloat16_rn(x));
    default: {
      // cvt.rna.tf32.f32: round to nearest, ties away from zero, keeping 10 stored mantissa bits.
      unsigned bits;
      std::memcpy(&bits, &x, 4);
      bits = (bits + 0x1000u) & ~0x1FFFu;
      float y;
      std::memcpy(&y, &bits, 4);
      return y;
    }
  }
}

struct Problem {
  int m, n, k;
  std::vector<float> a, b;
  float *a32 = nullptr, *b32 = nullptr, *c = nullptr;
  __half *a16 = nullptr, *b16 = nullptr;
  __nv_bfloat16 *abf = nullptr, *bbf = nullptr;

  Problem(int m_, int n_, int k_, unsigned seed)
      : m(m_), n(n_), k(k_), a(size_t(m_) * k_), b(size_t(k_) * n_) {
    std::mt19937 rng(seed);
    // Not uniform: a spread of magnitudes, so wrong indexing cannot hide behind equal values.
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (float& x : a) x = u(rng) * (1.0f + 3.0f * (rng() % 4 == 0));
    for (float& x : b) x = u(rng);
    std::vector<__half> a_h(a.size()), b_h(b.size());
    std::vector<__nv_bfloat16> a_bf(a.size()), b_bf(b.size());
    for (size_t i = 0; i < a.size(); ++i)
      a_h[i] = __float2half_rn(a[i]), a_bf[i] = __float2bfloat16_rn(a[i]);
    for (size_t i = 0; i < b.size(); ++i)
      b_h[i] = __float2half_rn(b[i]), b_bf[i] = __float2bfloat16_rn(b[i]);
    CHECK_CUDA(cudaMalloc(&a32, a.size() * 4));
    CHECK_CUDA(cudaMalloc(&b32, b.size() * 4));
    CHECK_CUDA(cudaMalloc(&a16, a.size() * 2));
    CHECK_CUDA(cudaMalloc(&b16, b.size() * 2));
    CHECK_CUDA(cudaMalloc(&abf, a.size() * 2));
    CHECK_CUDA(cudaMalloc(&bbf, b.size() * 2));
    CHECK_CUDA(cudaMalloc(&c, size_t(m) * n * 4));
    CHECK_CUDA(cudaMemcpy(a32, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b32, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(a16, a_h.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b16, b_h.data(), b.size() * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(abf, a_bf.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(bbf, b_bf.data(), b.size() * 2, cudaMemcpyHostToDevice));
  }
  ~Problem() {
    cudaFree(a32), cudaFree(b32), cudaFree(a16), cudaFree(b16), cudaFree(abf), cudaFree(bbf),
        cudaFree(c);
  }
};

// Every element against the float64 product of the rounded inputs; allowed: the float32
// accumulation bound 3·K·2⁻²⁴ · Σ|a||b| (tensor cores may truncate, u = 2⁻²³, plus margin).
bool check(const Problem& p, Input input, const char* name) {
  std::vector<float> c(size_t(p.m) * p.n);
  CHECK_CUDA(cudaMemcpy(c.data(), p.c, c.size() * 4, cudaMemcpyDeviceToHost));
  std::vector<double> ar(p.a.size()), br(p.b.size());
  for (size_t i = 0; i < ar.size(); ++i) ar[i] = rounded(p.a[i], input);
  for (size_t i = 0; i < br.size(); ++i) br[i] = rounded(p.b[i], input);
  long wrong = 0;
  double worst = 0;  // largest error / tolerance
#pragma omp parallel for reduction(+ : wrong) reduction(max : worst)
  for (int i = 0; i < p.m; ++i) {
    std::vector<double> sum(p.n, 0.0), abs_sum(p.n, 0.0);
    for (int l = 0; l < p.k; ++l) {
      const double x = ar[size_t(i) * p.k + l];
      for (int j = 0; j < p.n; ++j) {
        sum[j] += x * br[size_t(l) * p.n + j];
        abs_sum[j] += std::fabs(x * br[size_t(l) * p.n + j]);
      }
    }
    for (int j = 0; j < p.n; ++j) {
      const double tolerance = 3.0 * p.k * std::ldexp(1.0, -24) * abs_sum[j] + p.k * 1.2e-38;
      const double error = std::fabs(c[size_t(i) * p.n + j] - sum[j]);
      if (!(error <= tolerance)) ++wrong;
      worst = std::max(worst, std::isnan(error) ? 1e30 : error / tolerance);
    }
  }
  std::printf("  %-28s %5d×%5d×%5d: %s (largest error %.3f of the tolerance)\n", name, p.m, p.n,
              p.k, wrong == 0 ? "ok" : "WRONG", worst);
  if (wrong != 0) std::printf("    %ld wrong elements\n", wrong);
  return wrong == 0;
}

template <class Input_, class Storage>
void launch_wmma(const Storage* a, const Storage* b, float* c, int m, int n, int k) {
  const dim3 grid((n + 63) / 64, (m + 63) / 64);
  tensor::matmul_wmma<Input_><<<grid, 128>>>(a, b, c, m, n, k, tl::Untraced{});
}

template <class Shape, bool kAsync>
void launch_mma(const __half* a, const __half* b, float* c, int m, int n, int k) {
  static bool configured = false;
  if (!configured) {
    CHECK_CUDA(cudaFuncSetAttribute(tensor::matmul_mma<Shape, kAsync, tl::Untraced>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    Shape::SHARED_BYTES));
    configured = true;
  }
  const dim3 grid((n + Shape::BN - 1) / Shape::BN, (m + Shape::BM - 1) / Shape::BM);
  tensor::matmul_mma<Shape, kAsync>
      <<<grid, Shape::THREADS, Shape::SHARED_BYTES>>>(a, b, c, m, n, k, tl::Untraced{});
}

template <class Shape>
void launch_mma_auto(const __half* a, const __half* b, float* c, int m, int n, int k) {
  if (tensor::mma_async_copies_ok(a, b, n, k)) {
    launch_mma<Shape, true>(a, b, c, m, n, k);
  } else {
    launch_mma<Shape, false>(a, b, c, m, n, k);
  }
}

template <typename F>
float median_ms(F&& launch, int repeats = 15) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch();
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
  CHECK_CUDA(cudaGetLastError());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int main() {
  cudaDeviceProp props{};
  CHECK_CUDA(cudaGetDeviceProperties(&props, 0));
  std::printf("%s, compute capability %d.%d, %d SMs\n", props.name, props.major, props.minor,
              props.multiProcessorCount);
  bool ok = check_layout();

  using Mma = tensor::MatmulMma;
  std::printf("correctness (float64 reference of the rounded inputs):\n");
  const int shapes[][3] = {{131, 77, 93},      {200, 264, 136}, {257, 136, 1000}, {1001, 999, 1003},
                           {1000, 1000, 1000}, {16, 8, 16},     {1, 1, 1}};
  for (const auto& s : shapes) {
    Problem p(s[0], s[1], s[2], 7u + s[0]);
    auto run = [&](auto&& launch, Input input, const char* name) {
      CHECK_CUDA(cudaMemset(p.c, 0xFF, size_t(p.m) * p.n * 4));  // NaN: unwritten elements fail
      launch();
      CHECK_CUDA(cudaDeviceSynchronize());
      ok = check(p, input, name) && ok;
    };
    run([&] { launch_wmma<tensor::WmmaFp16>(p.a16, p.b16, p.c, p.m, p.n, p.k); }, Input::kFp16,
        "wmma-fp16");
    run([&] { launch_wmma<tensor::WmmaBf16>(p.abf, p.bbf, p.c, p.m, p.n, p.k); }, Input::kBf16,
        "wmma-bf16");
    run([&] { launch_wmma<tensor::WmmaTf32>(p.a32, p.b32, p.c, p.m, p.n, p.k); }, Input::kTf32,
        "wmma-tf32");
    run([&] { launch_mma_auto<Mma>(p.a16, p.b16, p.c, p.m, p.n, p.k); }, Input::kFp16,
        tensor::mma_async_copies_ok(p.a16, p.b16, p.n, p.k) ? "mma-fp16 (cp.async)"
                                                            : "mma-fp16 (plain copies)");
    run([&] { launch_mma<Mma, false>(p.a16, p.b16, p.c, p.m, p.n, p.k); }, Input::kFp16,
        "mma-fp16 forced plain copies");
  }

  cublasHandle_t handle;
  cublasCreate(&handle);
  const int n = 4096;
  Problem p(n, n, n, 1);
  const double flops = 2.0 * n * n * n;
  auto tflops = [&](float ms) { return flops / (ms * 1e-3) / 1e12; };
  const float one = 1.0f, zero = 0.0f;
  auto gemm_ex = [&](const void* a, const void* b, cudaDataType type, cublasComputeType_t compute) {
    const cublasStatus_t status =
        cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, type, n, a, type, n, &zero,
                     p.c, CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS) std::printf("cublasGemmEx failed: %d\n", int(status));
  };
  const float cublas_fp16 =
      median_ms([&] { gemm_ex(p.a16, p.b16, CUDA_R_16F, CUBLAS_COMPUTE_32F); });
  const float cublas_bf16 =
      median_ms([&] { gemm_ex(p.abf, p.bbf, CUDA_R_16BF, CUBLAS_COMPUTE_32F); });
  const float cublas_tf32 =
      median_ms([&] { gemm_ex(p.a32, p.b32, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32); });
  const float cublas_fp32 =
      median_ms([&] { gemm_ex(p.a32, p.b32, CUDA_R_32F, CUBLAS_COMPUTE_32F); });
  std::printf("4096³: cuBLAS FP16 %.1f, BF16 %.1f, TF32 %.1f, FP32 %.1f TFLOP/s\n",
              tflops(cublas_fp16), tflops(cublas_bf16), tflops(cublas_tf32), tflops(cublas_fp32));
  auto report = [&](const char* name, float ms, float reference_ms) {
    std::printf("  %-36s %8.3f ms %7.1f TFLOP/s  %.3f of cuBLAS at its precision\n", name, ms,
                tflops(ms), reference_ms / ms);
  };
  report("wmma-fp16", median_ms([&] { launch_wmma<tensor::WmmaFp16>(p.a16, p.b16, p.c, n, n, n); }),
         cublas_fp16);
  report("wmma-bf16", median_ms([&] { launch_wmma<tensor::WmmaBf16>(p.abf, p.bbf, p.c, n, n, n); }),
         cublas_bf16);
  report("wmma-tf32", median_ms([&] { launch_wmma<tensor::WmmaTf32>(p.a32, p.b32, p.c, n, n, n); }),
         cublas_tf32);
  report("mma-fp16 (lesson shape)",
         median_ms([&] { launch_mma<Mma, true>(p.a16, p.b16, p.c, n, n, n); }), cublas_fp16);
  report("mma-fp16 128x128x32 2x2 s3", median_ms([&] {
           launch_mma<tensor::MmaShape<128, 128, 32, 2, 2, 3>, true>(p.a16, p.b16, p.c, n, n, n);
         }),
         cublas_fp16);
  report("mma-fp16 128x256x32 2x4 s3", median_ms([&] {
           launch_mma<tensor::MmaShape<128, 256, 32, 2, 4, 3>, true>(p.a16, p.b16, p.c, n, n, n);
         }),
         cublas_fp16);
  report("mma-fp16 256x128x32 4x2 s3", median_ms([&] {
           launch_mma<tensor::MmaShape<256, 128, 32, 4, 2, 3>, true>(p.a16, p.b16, p.c, n, n, n);
         }),
         cublas_fp16);
  report("mma-fp16 128x128x32 2x4 s4", median_ms([&] {
           launch_mma<tensor::MmaShape<128, 128, 32, 2, 4, 4>, true>(p.a16, p.b16, p.c, n, n, n);
         }),
         cublas_fp16);
  report("mma-fp16 128x128x32 2x2 s4", median_ms([&] {
           launch_mma<tensor::MmaShape<128, 128, 32, 2, 2, 4>, true>(p.a16, p.b16, p.c, n, n, n);
         }),
         cublas_fp16);
  report("mma-fp16 128x256x64 2x4 s3", median_ms([&] {
           launch_mma<tensor::MmaShape<128, 256, 64, 2, 4, 3>, true>(p.a16, p.b16, p.c, n, n, n);
         }),
         cublas_fp16);
  report("mma-fp16 128x128x32 2x2 s5", median_ms([&] {
           launch_mma<tensor::MmaShape<128, 128, 32, 2, 2, 5>, true>(p.a16, p.b16, p.c, n, n, n);
         }),
         cublas_fp16);
  report("mma-fp16 64x128x32 1x2 s4", median_ms([&] {
           launch_mma<tensor::MmaShape<64, 128, 32, 1, 2, 4>, true>(p.a16, p.b16, p.c, n, n, n);
         }),
         cublas_fp16);
  report("mma-fp16 plain copies (lesson shape)",
         median_ms([&] { launch_mma<Mma, false>(p.a16, p.b16, p.c, n, n, n); }), cublas_fp16);
  std::printf("%s\n", ok ? "all checks passed" : "SOME CHECKS FAILED");
  return ok ? 0 : 1;
}
