// Standalone tuning aid for issue #20's FP32 target (the best SIMT rung ≥ 0.90 of cuBLAS SGEMM at
// 4096³), not part of the app: one process, one GPU call, every variant measured in the same run.
// Lesson 4's warptile rung (lessons/04_matmul/kernels/matmul_warptile.cuh) and the pipelined rung
// (lessons/04_matmul/kernels/matmul_pipelined.cuh) in every shape the app may choose from (values
// of k per stage, stages) and with the multiply-adds in plain order instead of the zigzag, each
// first checked against a float64 reference on awkward shapes (not multiples of the tile, B's rows
// unaligned), then timed at 4096³ (best and median of 20) against cublasSgemm, timed before and
// after them. Build and run on the GPU machine (from the repository root):
//   nvcc -O3 -std=c++20 -arch=sm_90 -I. -Iapp tools/gpu/sgemm_sweep.cu -lcublas -o sgemm_sweep
//   ./sgemm_sweep
// Exit status 1 when a correctness check fails.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels/trace.cuh"
#include "tools/gpu/sweep_timing.cuh"

namespace sweep {
#include "kernels/matmul_tile_io.cuh"
#include "lessons/04_matmul/kernels/matmul_pipelined.cuh"
#include "lessons/04_matmul/kernels/matmul_warptile.cuh"
}  // namespace sweep

using Launch = void (*)(const float*, const float*, float*, int, int, int);

void launch_warptile(const float* a, const float* b, float* c, int m, int n, int k) {
  using S = sweep::MatmulWarptile;
  const dim3 grid((n + S::BN - 1) / S::BN, (m + S::BM - 1) / S::BM);
  sweep::matmul_warptile<S><<<grid, S::THREADS>>>(a, b, c, m, n, k, tl::Untraced{});
}

template <class S>
void launch_pipelined(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 grid((n + S::BN - 1) / S::BN, (m + S::BM - 1) / S::BM);
  if (sweep::pipelined_whole_tiles<S>(m, n, k, b)) {
    static bool opted = false;
    if (!opted) {
      CHECK_CUDA(cudaFuncSetAttribute(sweep::matmul_pipelined<S, true, tl::Untraced>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      S::SHARED_BYTES));
      opted = true;
    }
    sweep::matmul_pipelined<S, true>
        <<<grid, S::THREADS, S::SHARED_BYTES>>>(a, b, c, m, n, k, tl::Untraced{});
  } else {
    static bool opted = false;
    if (!opted) {
      CHECK_CUDA(cudaFuncSetAttribute(sweep::matmul_pipelined<S, false, tl::Untraced>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      S::SHARED_BYTES));
      opted = true;
    }
    sweep::matmul_pipelined<S, false>
        <<<grid, S::THREADS, S::SHARED_BYTES>>>(a, b, c, m, n, k, tl::Untraced{});
  }
}

template <class S>
void print_attributes(const char* name) {
  cudaFuncAttributes attr{};
  CHECK_CUDA(cudaFuncGetAttributes(&attr, sweep::matmul_pipelined<S, true, tl::Untraced>));
  int blocks = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, sweep::matmul_pipelined<S, true, tl::Untraced>, S::THREADS, S::SHARED_BYTES));
  std::printf("  %-34s %3d registers, %d B local (spills), %6d B shared, %d blocks/SM\n", name,
              attr.numRegs, static_cast<int>(attr.localSizeBytes), S::SHARED_BYTES, blocks);
}

struct Variant {
  const char* name;
  Launch launch;
};

// Awkward shapes against a float64 product; B (and C) optionally one float past 16 bytes.
bool check(const Variant& v) {
  struct Case {
    int m, n, k, shift;
  };
  const Case cases[] = {{131, 97, 77, 0},  {257, 300, 129, 1}, {128, 128, 64, 0}, {1, 1, 1, 0},
                        {256, 260, 48, 0}, {130, 131, 15, 1},  {384, 256, 200, 0}};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  bool ok = true;
  for (const Case& c : cases) {
    std::vector<float> a(size_t(c.m) * c.k), b(size_t(c.k) * c.n + 1);
    for (float& x : a) x = dist(rng);
    for (float& x : b) x = dist(rng);
    float *da, *db, *dc;
    CHECK_CUDA(cudaMalloc(&da, a.size() * 4));
    CHECK_CUDA(cudaMalloc(&db, b.size() * 4));
    CHECK_CUDA(cudaMalloc(&dc, (size_t(c.m) * c.n + 1) * 4));
    CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dc, 0xff, (size_t(c.m) * c.n + 1) * 4));  // NaNs: unwritten shows
    v.launch(da, db + c.shift, dc + c.shift, c.m, c.n, c.k);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float> out(size_t(c.m) * c.n + 1);
    CHECK_CUDA(cudaMemcpy(out.data(), dc, out.size() * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int i = 0; i < c.m; ++i) {
      for (int j = 0; j < c.n; ++j) {
        double ref = 0, mag = 0;
        for (int p = 0; p < c.k; ++p) {
          const double x = a[size_t(i) * c.k + p], y = b[c.shift + size_t(p) * c.n + j];
          ref += x * y;
          mag += std::fabs(x * y);
        }
        const double got = out[c.shift + size_t(i) * c.n + j];
        const double err = std::fabs(got - ref) / (mag * 1e-6 * std::sqrt(double(c.k)) + 1e-30);
        if (!(err <= 1.0)) worst = std::isnan(got) ? 1e30 : std::max(worst, err);
      }
    }
    if (worst > 0) {
      std::printf("  FAIL %s at %dx%dx%d shift %d: error %.3g of the tolerance\n", v.name, c.m, c.n,
                  c.k, c.shift, worst);
      ok = false;
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
  }
  return ok;
}

template <int BK, int STAGES, bool ZIGZAG = true>
using P = sweep::PipelinedShape<BK, STAGES, ZIGZAG>;

int main() {
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int driver = 0;
  cudaDriverGetVersion(&driver);
  std::printf("device: %s, %d SMs, driver API %d\n", prop.name, prop.multiProcessorCount, driver);

  const Variant variants[] = {
      {"warptile (the lesson's rung 7)", launch_warptile},
      {"pipelined BK=16 2 stages, plain order", launch_pipelined<P<16, 2, false>>},
      {"pipelined BK=16 2 stages", launch_pipelined<P<16, 2>>},
      {"pipelined BK=8 2 stages", launch_pipelined<P<8, 2>>},
      {"pipelined BK=8 3 stages", launch_pipelined<P<8, 3>>},
      {"pipelined BK=8 4 stages", launch_pipelined<P<8, 4>>},
      {"pipelined BK=16 3 stages", launch_pipelined<P<16, 3>>},
      {"pipelined BK=16 4 stages", launch_pipelined<P<16, 4>>},
      {"pipelined BK=32 2 stages", launch_pipelined<P<32, 2>>},
      {"pipelined BK=32 3 stages", launch_pipelined<P<32, 3>>},
  };
  print_attributes<P<16, 2, false>>("BK=16 2 stages, plain");
  print_attributes<P<16, 2>>("BK=16 2 stages");
  print_attributes<P<8, 2>>("BK=8 2 stages");
  print_attributes<P<8, 3>>("BK=8 3 stages");
  print_attributes<P<8, 4>>("BK=8 4 stages");
  print_attributes<P<16, 3>>("BK=16 3 stages");
  print_attributes<P<16, 4>>("BK=16 4 stages");
  print_attributes<P<32, 2>>("BK=32 2 stages");
  print_attributes<P<32, 3>>("BK=32 3 stages");

  bool all_ok = true;
  for (const Variant& v : variants) all_ok = check(v) && all_ok;
  std::printf("correctness on awkward shapes: %s\n", all_ok ? "all pass" : "FAILURES");

  const int n = 4096;
  float *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, size_t(n) * n * 4));
  CHECK_CUDA(cudaMalloc(&b, size_t(n) * n * 4));
  CHECK_CUDA(cudaMalloc(&c, size_t(n) * n * 4));
  {
    std::vector<float> h(size_t(n) * n);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (float& x : h) x = dist(rng);
    CHECK_CUDA(cudaMemcpy(a, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    for (float& x : h) x = dist(rng);
    CHECK_CUDA(cudaMemcpy(b, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  }
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A · B is column-major Cᵀ = Bᵀ · Aᵀ.
  auto cublas = [&] {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n);
  };
  const double flops = 2.0 * n * n * n;
  auto tflops = [&](float ms) { return flops / (ms * 1e-3) / 1e12; };
  const Times before = time_it(cublas, 20);
  std::vector<float> ref(size_t(n) * n), got(size_t(n) * n);
  CHECK_CUDA(cudaMemcpy(ref.data(), c, ref.size() * 4, cudaMemcpyDeviceToHost));
  std::printf("cuBLAS SGEMM 4096^3 (before): best %.3f ms %.2f TFLOP/s, median %.3f ms %.2f\n",
              before.best, tflops(before.best), before.median, tflops(before.median));
  std::vector<std::pair<const Variant*, Times>> results;
  for (const Variant& v : variants) {
    const Times t = time_it([&] { v.launch(a, b, c, n, n, n); }, 20);
    CHECK_CUDA(cudaMemcpy(got.data(), c, got.size() * 4, cudaMemcpyDeviceToHost));
    float diff = 0;
    for (size_t i = 0; i < got.size(); ++i) diff = std::max(diff, std::fabs(got[i] - ref[i]));
    results.push_back({&v, t});
    std::printf(
        "%-40s best %.3f ms %6.2f TFLOP/s  median %.3f ms %6.2f  best/median of cuBLAS "
        "%.3f / %.3f  max |diff| from cuBLAS %.3g\n",
        v.name, t.best, tflops(t.best), t.median, tflops(t.median), before.best / t.best,
        before.median / t.median, diff);
  }
  const Times after = time_it(cublas, 20);
  std::printf("cuBLAS SGEMM 4096^3 (after): best %.3f ms %.2f TFLOP/s, median %.3f ms %.2f\n",
              after.best, tflops(after.best), after.median, tflops(after.median));
  // The rows again, against cuBLAS after (the later half of the run).
  for (const auto& [v, t] : results) {
    std::printf("  %-40s median of cuBLAS after: %.3f\n", v->name, after.median / t.median);
  }
  cublasDestroy(handle);
  CHECK_CUDA(cudaGetLastError());
  return all_ok ? 0 : 1;
}
