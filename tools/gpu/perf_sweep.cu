// Standalone tuning aid for issue #20's two bandwidth and tensor-core targets, not part of the app:
// one process, one GPU call, every variant measured in the same run against its own reference.
//   1. Vector add (lessons/01_vector_add/kernels/vector_add.cuh) at N = 2^28: the lesson's
//   one-element-per-thread kernel
//      and vector_add_vectorized over float4s per thread × streaming hints × grid size, each
//      checked against the host on awkward sizes and misaligned pointers first, then timed (best
//      and median of 30) against cudaMemcpy device to device (512 MiB as the app's ceiling, and
//      1 GiB), timed the same way.
//   2. The tensor-core rungs at 4096³ against cuBLAS FP16 (cublasGemmEx, FP32 accumulation and
//      output; timed before and after them): mma.sync (lessons/04_matmul/kernels/matmul_mma.cuh) in
//      a few tile shapes and a leaner-addressing candidate (tools/gpu/mma_candidates.cuh), and
//      wgmma (lessons/04_matmul/kernels/matmul_wgmma.cuh) with 3 or 4 stages, overlapped or not,
//      each checked first against a float64 product of the FP16 inputs on awkward shapes.
// Build and run on the GPU machine (from the repository root):
//   nvcc -O3 -std=c++20 -arch=sm_90a -I. -Iapp tools/gpu/perf_sweep.cu -lcublas -o perf_sweep
//   ./perf_sweep        (or ./perf_sweep mma: the tensor-core part alone)
// Exit status 1 when a correctness check fails.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels/trace.cuh"
#include "tools/gpu/sweep_timing.cuh"

namespace sweep {
#include "lessons/01_vector_add/kernels/vector_add.cuh"
#include "lessons/04_matmul/kernels/matmul_mma.cuh"
#include "lessons/04_matmul/kernels/matmul_wgmma.cuh"
#include "tools/gpu/mma_candidates.cuh"
}  // namespace sweep

int g_sms = 0;

using AddLaunch = void (*)(const float*, const float*, float*, int, int);

void add_simple(const float* a, const float* b, float* c, int n, int) {
  sweep::vector_add<<<(n + 255) / 256, 256>>>(a, b, c, n, tl::Untraced{});
}
// grid_blocks: 0 = enough blocks that every thread makes one pass, else that many blocks.
template <int kUnroll, bool kStreaming>
void add_vectorized(const float* a, const float* b, float* c, int n, int grid_blocks) {
  const int covering = std::max(1, (n / 4 + 256 * kUnroll - 1) / (256 * kUnroll));
  const int blocks = grid_blocks > 0 ? grid_blocks : covering;
  sweep::vector_add_vectorized<kUnroll, kStreaming><<<blocks, 256>>>(a, b, c, n, tl::Untraced{});
}

bool check_add(AddLaunch launch, int grid_blocks, const char* name) {
  bool ok = true;
  for (const int n : {1, 3, 4, 1000, 4099, 1 << 20, (1 << 20) + 7, 3 * 1000 * 1000 + 1}) {
    for (const int offset : {0, 1}) {  // 1: float pointers that are not 16-byte aligned
      std::vector<float> a(n + 1), b(n + 1), c(n + 1);
      std::mt19937 rng(n);
      std::uniform_real_distribution<float> u(-100.0f, 100.0f);
      for (auto& x : a) x = u(rng);
      for (auto& x : b) x = u(rng);
      float *da, *db, *dc;
      CHECK_CUDA(cudaMalloc(&da, (n + 1) * 4));
      CHECK_CUDA(cudaMalloc(&db, (n + 1) * 4));
      CHECK_CUDA(cudaMalloc(&dc, (n + 1) * 4));
      CHECK_CUDA(cudaMemcpy(da, a.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(db, b.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemset(dc, 0xFF, (n + 1) * 4));
      launch(da + offset, db + offset, dc + offset, n, grid_blocks);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(c.data(), dc, (n + 1) * 4, cudaMemcpyDeviceToHost));
      long wrong = 0;
      for (int i = 0; i < n; ++i) wrong += !(c[i + offset] == a[i + offset] + b[i + offset]);
      if (wrong) {
        std::printf("  %s n=%d offset=%d: %ld WRONG\n", name, n, offset, wrong);
        ok = false;
      }
      cudaFree(da), cudaFree(db), cudaFree(dc);
    }
  }
  return ok;
}

bool vector_add_sweep() {
  const int n = 1 << 28;
  const double bytes = 12.0 * n;
  float *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, size_t(n) * 4));
  CHECK_CUDA(cudaMalloc(&b, size_t(n) * 4));
  CHECK_CUDA(cudaMalloc(&c, size_t(n) * 4));
  CHECK_CUDA(cudaMemset(a, 0, size_t(n) * 4));
  CHECK_CUDA(cudaMemset(b, 0, size_t(n) * 4));
  CHECK_CUDA(cudaMemset(c, 0, size_t(n) * 4));
  // The app's ceiling: cudaMemcpy of 512 MiB; also of the whole 1 GiB of A.
  auto copy_rate = [&](size_t copy_bytes) {
    const Times t = time_it([&] { cudaMemcpy(c, a, copy_bytes, cudaMemcpyDeviceToDevice); }, 30);
    return std::make_pair(2.0 * copy_bytes / (t.best * 1e-3) / 1e9,
                          2.0 * copy_bytes / (t.median * 1e-3) / 1e9);
  };
  const auto copy512 = copy_rate(512ull << 20);
  const auto copy1g = copy_rate(size_t(n) * 4);
  std::printf(
      "copy 512 MiB: best %.0f GB/s, median %.0f GB/s; copy 1 GiB: best %.0f, median %.0f\n",
      copy512.first, copy512.second, copy1g.first, copy1g.second);
  bool ok = true;
  struct Variant {
    const char* name;
    AddLaunch launch;
  };
  const Variant variants[] = {
      {"vectorized u1", add_vectorized<1, false>},
      {"vectorized u1 stream", add_vectorized<1, true>},
      {"vectorized u2", add_vectorized<2, false>},
      {"vectorized u2 stream", add_vectorized<2, true>},
      {"vectorized u4", add_vectorized<4, false>},
      {"vectorized u4 stream", add_vectorized<4, true>},
  };
  ok = check_add(add_simple, 0, "simple") && ok;
  const Times simple = time_it([&] { add_simple(a, b, c, n, 0); }, 30);
  std::printf("  %-24s grid %-8s best %5.0f GB/s (%.3f of copy 512M best) median %5.0f (%.3f)\n",
              "one per element", "cover", bytes / (simple.best * 1e-3) / 1e9,
              bytes / (simple.best * 1e-3) / 1e9 / copy512.first,
              bytes / (simple.median * 1e-3) / 1e9,
              bytes / (simple.median * 1e-3) / 1e9 / copy512.first);
  for (const auto& v : variants) {
    for (const int per_sm : {0, 4, 8, 16, 32}) {
      const int grid = per_sm * g_sms;
      ok = check_add(v.launch, grid, v.name) && ok;
      const Times t = time_it([&] { v.launch(a, b, c, n, grid); }, 30);
      const double best = bytes / (t.best * 1e-3) / 1e9, median = bytes / (t.median * 1e-3) / 1e9;
      char grid_name[32];
      std::snprintf(grid_name, sizeof grid_name, per_sm ? "%d/SM" : "cover", per_sm);
      std::printf(
          "  %-24s grid %-8s best %5.0f GB/s (%.3f of copy 512M best) median %5.0f (%.3f)\n",
          v.name, grid_name, best, best / copy512.first, median, median / copy512.first);
    }
  }
  const auto copy512_after = copy_rate(512ull << 20);
  std::printf("copy 512 MiB again: best %.0f GB/s, median %.0f GB/s\n", copy512_after.first,
              copy512_after.second);
  cudaFree(a), cudaFree(b), cudaFree(c);
  return ok;
}

template <class Shape>
void launch_mma(const __half* a, const __half* b, float* c, int n) {
  static bool configured = false;
  if (!configured) {
    CHECK_CUDA(cudaFuncSetAttribute(sweep::matmul_mma<Shape, true, tl::Untraced>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    Shape::SHARED_BYTES));
    configured = true;
  }
  const dim3 grid((n + Shape::BN - 1) / Shape::BN, (n + Shape::BM - 1) / Shape::BM);
  sweep::matmul_mma<Shape, true>
      <<<grid, Shape::THREADS, Shape::SHARED_BYTES>>>(a, b, c, n, n, n, tl::Untraced{});
}

template <class Shape, bool kL2>
void launch_lean(const __half* a, const __half* b, float* c, int m, int n, int k) {
  static bool configured = false;
  if (!configured) {
    CHECK_CUDA(cudaFuncSetAttribute(sweep::matmul_mma_lean<Shape, kL2>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    Shape::SHARED_BYTES));
    configured = true;
  }
  const dim3 grid((n + Shape::BN - 1) / Shape::BN, (m + Shape::BM - 1) / Shape::BM);
  sweep::matmul_mma_lean<Shape, kL2>
      <<<grid, Shape::THREADS, Shape::SHARED_BYTES>>>(a, b, c, m, n, k);
}

template <class Shape, bool kAsync = true>
void launch_wgmma(const __half* a, const __half* b, float* c, int m, int n, int k) {
  static bool configured = false;
  if (!configured) {
    CHECK_CUDA(cudaFuncSetAttribute(sweep::matmul_wgmma<Shape, kAsync, tl::Untraced>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    Shape::SHARED_BYTES));
    configured = true;
  }
  const dim3 grid((n + Shape::BN - 1) / Shape::BN, (m + Shape::BM - 1) / Shape::BM);
  // The kernel reads its halves as raw 16-bit words (the same kernel serves BF16).
  sweep::matmul_wgmma<Shape, kAsync><<<grid, Shape::THREADS, Shape::SHARED_BYTES>>>(
      reinterpret_cast<const unsigned short*>(a), reinterpret_cast<const unsigned short*>(b), c,
      m, n, k, tl::Untraced{});
}

// Every element against the float64 product of the FP16-rounded inputs, within the float32
// accumulation bound 3·K·2⁻²⁴·Σ|a·b|; shapes not multiples of any tile (k and n multiples of 8,
// which the 16-byte copies need).
template <class Launch>
bool check_mma(Launch launch, const char* name, bool any_shape = false) {
  bool ok = true;
  const std::vector<std::array<int, 3>> aligned = {
      {131, 136, 200}, {1001, 1000, 1008}, {257, 264, 64}, {16, 8, 16}, {1, 8, 8}};
  // For the element-by-element copies: n and k not multiples of 8 either.
  const std::vector<std::array<int, 3>> awkward = {
      {131, 77, 93}, {200, 264, 136}, {257, 300, 1001}, {1, 1, 1}, {129, 257, 65}};
  for (const auto& s : any_shape ? awkward : aligned) {
    const int m = s[0], n = s[1], k = s[2];
    std::vector<__half> a(size_t(m) * k), b(size_t(k) * n);
    std::mt19937 rng(m + n + k);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto& x : a) x = __float2half(u(rng) * (1.0f + 3.0f * (rng() % 4 == 0)));
    for (auto& x : b) x = __float2half(u(rng));
    __half *da, *db;
    float* dc;
    CHECK_CUDA(cudaMalloc(&da, a.size() * 2));
    CHECK_CUDA(cudaMalloc(&db, b.size() * 2));
    CHECK_CUDA(cudaMalloc(&dc, size_t(m) * n * 4));
    CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dc, 0xFF, size_t(m) * n * 4));
    launch(da, db, dc, m, n, k);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float> c(size_t(m) * n);
    CHECK_CUDA(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double sum = 0, abs_sum = 0;
        for (int l = 0; l < k; ++l) {
          const double p =
              double(__half2float(a[size_t(i) * k + l])) * __half2float(b[size_t(l) * n + j]);
          sum += p, abs_sum += std::fabs(p);
        }
        const double error = std::fabs(c[size_t(i) * n + j] - sum);
        if (!(error <= 3.0 * k * std::ldexp(1.0, -24) * abs_sum + k * 1.2e-38)) ++wrong;
      }
    }
    if (wrong) std::printf("  %s %d×%d×%d: %ld WRONG\n", name, m, n, k, wrong), ok = false;
    cudaFree(da), cudaFree(db), cudaFree(dc);
  }
  std::printf("  %s: %s on awkward shapes\n", name, ok ? "ok" : "WRONG");
  return ok;
}

bool mma_sweep() {
  const int n = 4096;
  std::vector<__half> host(size_t(n) * n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto& x : host) x = __float2half(u(rng));
  __half *a, *b;
  float* c;
  CHECK_CUDA(cudaMalloc(&a, host.size() * 2));
  CHECK_CUDA(cudaMalloc(&b, host.size() * 2));
  CHECK_CUDA(cudaMalloc(&c, host.size() * 4));
  CHECK_CUDA(cudaMemcpy(a, host.data(), host.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b, host.data(), host.size() * 2, cudaMemcpyHostToDevice));
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1.0f, zero = 0.0f;
  auto cublas = [&] {
    cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, CUDA_R_16F, n, a, CUDA_R_16F,
                 n, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  const double flops = 2.0 * n * n * n;
  // The wgmma rung's checks first: a wrong descriptor shows as wrong numbers, not a slow one.
  bool ok = check_mma([](auto... args) { launch_wgmma<sweep::MatmulWgmma>(args...); },
                      "wgmma s4 overlapped");
  ok = check_mma([](auto... args) { launch_wgmma<sweep::WgmmaShape<4, false>>(args...); },
                 "wgmma s4 wait all") &&
       ok;
  ok = check_mma([](auto... args) { launch_wgmma<sweep::WgmmaShape<3, true>>(args...); },
                 "wgmma s3 overlapped") &&
       ok;
  ok = check_mma([](auto... args) { launch_wgmma<sweep::MatmulWgmma, false>(args...); },
                 "wgmma plain copies", true) &&
       ok;
  const Times before = time_it(cublas, 20);
  std::printf("cuBLAS FP16 4096³: median %.1f TFLOP/s\n", flops / (before.median * 1e-3) / 1e12);
  auto report = [&](const char* name, auto launch) {
    const Times t = time_it(launch, 20);
    std::printf("  %-32s median %6.1f TFLOP/s  %.3f of cuBLAS (best %.3f of best)\n", name,
                flops / (t.median * 1e-3) / 1e12, before.median / t.median, before.best / t.best);
  };
  using sweep::MmaShape;
  report("lesson 128x128x64 2x2 s3", [&] { launch_mma<sweep::MatmulMma>(a, b, c, n); });
  report("128x128x64 2x2 s4", [&] { launch_mma<MmaShape<128, 128, 64, 2, 2, 4>>(a, b, c, n); });
  report("128x128x64 2x2 s2", [&] { launch_mma<MmaShape<128, 128, 64, 2, 2, 2>>(a, b, c, n); });
  report("128x256x64 2x4 s3", [&] { launch_mma<MmaShape<128, 256, 64, 2, 4, 3>>(a, b, c, n); });
  report("256x128x64 4x2 s3", [&] { launch_mma<MmaShape<256, 128, 64, 4, 2, 3>>(a, b, c, n); });
  report("128x128x64 4x2 s3", [&] { launch_mma<MmaShape<128, 128, 64, 4, 2, 3>>(a, b, c, n); });
  report("64x128x64 1x2 s4", [&] { launch_mma<MmaShape<64, 128, 64, 1, 2, 4>>(a, b, c, n); });
  report("lean 128x128x64 2x2 s3", [&] { launch_lean<sweep::MatmulMma, false>(a, b, c, n, n, n); });
  report("lean 128x128x64 2x2 s3 L2::128B",
         [&] { launch_lean<sweep::MatmulMma, true>(a, b, c, n, n, n); });
  report("lean 128x128x32 2x2 s4 L2::128B",
         [&] { launch_lean<MmaShape<128, 128, 32, 2, 2, 4>, true>(a, b, c, n, n, n); });
  report("lean 128x128x32 2x2 s3 L2::128B",
         [&] { launch_lean<MmaShape<128, 128, 32, 2, 2, 3>, true>(a, b, c, n, n, n); });
  report("lean 128x256x32 2x4 s3 L2::128B",
         [&] { launch_lean<MmaShape<128, 256, 32, 2, 4, 3>, true>(a, b, c, n, n, n); });
  report("lean 256x128x32 4x2 s3 L2::128B",
         [&] { launch_lean<MmaShape<256, 128, 32, 4, 2, 3>, true>(a, b, c, n, n, n); });
  report("lean 128x128x64 4x2 s3 L2::128B",
         [&] { launch_lean<MmaShape<128, 128, 64, 4, 2, 3>, true>(a, b, c, n, n, n); });
  report("wgmma 128x256x64 s4 overlapped (lesson)",
         [&] { launch_wgmma<sweep::MatmulWgmma>(a, b, c, n, n, n); });
  report("wgmma 128x256x64 s4 wait all",
         [&] { launch_wgmma<sweep::WgmmaShape<4, false>>(a, b, c, n, n, n); });
  report("wgmma 128x256x64 s3 overlapped",
         [&] { launch_wgmma<sweep::WgmmaShape<3, true>>(a, b, c, n, n, n); });
  report("wgmma 128x256x64 s3 wait all",
         [&] { launch_wgmma<sweep::WgmmaShape<3, false>>(a, b, c, n, n, n); });
  report("wgmma plain copies (lesson shape)",
         [&] { launch_wgmma<sweep::MatmulWgmma, false>(a, b, c, n, n, n); });
  report("lesson again", [&] { launch_mma<sweep::MatmulMma>(a, b, c, n); });
  report("lean again", [&] { launch_lean<sweep::MatmulMma, true>(a, b, c, n, n, n); });
  report("wgmma lesson again", [&] { launch_wgmma<sweep::MatmulWgmma>(a, b, c, n, n, n); });
  const Times after = time_it(cublas, 20);
  std::printf("cuBLAS FP16 again: median %.1f TFLOP/s\n", flops / (after.median * 1e-3) / 1e12);
  cublasDestroy(handle);
  cudaFree(a), cudaFree(b), cudaFree(c);
  ok = check_mma([](auto... args) { launch_lean<sweep::MatmulMma, false>(args...); }, "lean s3") &&
       ok;
  ok =
      check_mma([](auto... args) { launch_lean<sweep::MatmulMma, true>(args...); }, "lean s3 L2") &&
      ok;
  return ok;
}

int main(int argc, char** argv) {
  // `perf_sweep mma`: the tensor-core part alone.
  const bool mma_only = argc > 1 && std::string(argv[1]) == "mma";
  cudaDeviceProp props{};
  CHECK_CUDA(cudaGetDeviceProperties(&props, 0));
  g_sms = props.multiProcessorCount;
  int driver = 0;
  cudaDriverGetVersion(&driver);
  std::printf("%s, %d SMs, driver API %d\n", props.name, g_sms, driver);
  bool ok = mma_only || vector_add_sweep();
  ok = mma_sweep() && ok;
  std::printf("%s\n", ok ? "all checks passed" : "SOME CHECKS FAILED");
  return ok ? 0 : 1;
}
