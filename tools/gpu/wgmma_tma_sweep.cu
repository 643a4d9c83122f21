// Standalone check and timing of lesson 4's TMA rung
// (lessons/04_matmul/kernels/matmul_wgmma_tma.cuh) against rung 13 (matmul_wgmma.cuh) and cuBLAS,
// not part of the app. In one process:
//   1. every shape below, FP16 and BF16, against a float64 product of the same rounded inputs
//      (sampled rows and columns at 4096³), within the float32-accumulation bound;
//   2. at 4096³ (and --size S), best and median of 20 for rung 13 (FP16), the TMA rung (FP16, BF16)
//      and cublasGemmEx (FP16 and BF16 in, FP32 compute and C), cuBLAS timed before and after.
// Build and run on the GPU machine (from the repository root):
//   nvcc -O3 -std=c++20 -arch=sm_90a -I. -Iapp tools/gpu/wgmma_tma_sweep.cu -lcublas \
//        -o wgmma_tma_sweep && ./wgmma_tma_sweep
// Exit status 1 when a product is wrong.
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/trace.cuh"
#include "tools/gpu/sweep_timing.cuh"

namespace tensor {
#include "kernels/matmul_tile_io.cuh"
#include "lessons/04_matmul/kernels/matmul_wgmma_tma.cuh"
}  // namespace tensor

using tensor::MatmulWgmma;
using tensor::MatmulWgmmaTma;

namespace {

// The driver function, found at run time (the runtime links statically; no -lcuda needed for it).
using EncodeTiled = decltype(&cuTensorMapEncodeTiled);

// 2-byte element ↔ float for both formats, on the host.
float to_float(std::uint16_t bits, bool bf16) {
  if (bf16) {
    const std::uint32_t word = std::uint32_t{bits} << 16;
    float f;
    std::memcpy(&f, &word, 4);
    return f;
  }
  return __half2float(__half_raw{bits});
}
std::uint16_t from_float(float value, bool bf16) {
  if (bf16) {
    const __nv_bfloat16 b = __float2bfloat16(value);
    return static_cast<__nv_bfloat16_raw>(b).x;
  }
  return static_cast<__half_raw>(__float2half(value)).x;
}

EncodeTiled encode_tiled() {
  static EncodeTiled function = [] {
    void* pointer = nullptr;
    cudaDriverEntryPointQueryResult found{};
    CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &pointer, 12000,
                                                cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || pointer == nullptr) {
      std::printf("cuTensorMapEncodeTiled not found\n");
      std::exit(2);
    }
    return reinterpret_cast<EncodeTiled>(pointer);
  }();
  return function;
}

// A row-major rows × cols matrix of 2-byte elements as a (cols, rows) tensor, box_cols × box_rows.
CUtensorMap make_map(const void* base, int rows, int cols, int box_cols, int box_rows, bool bf16) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * 2};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(
      &map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
      const_cast<void*>(base), dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::printf("cuTensorMapEncodeTiled failed: %d\n", static_cast<int>(r));
    std::exit(2);
  }
  return map;
}

int g_sms = 0;

// persistent: one block per SM walking the tiles; otherwise one block per tile.
// cluster 2: pairs of blocks sharing B by multicast (persistent or one pair per cluster).
template <class Input>
void launch_tma(const void* a, const void* b, float* c, int m, int n, int k,
                bool persistent = false, int cluster = 1) {
  constexpr bool bf16 = Input::kBf16;
  const CUtensorMap a_map = make_map(a, m, k, 64, 128, bf16);
  const CUtensorMap b_map = make_map(b, k, n, 64, 64, bf16);
  if (cluster == 2) {
    using Shape = tensor::WgmmaTmaShape<4, 2>;
    auto kernel = tensor::matmul_wgmma_tma<Shape, Input, tl::Untraced>;
    static bool raised2 = false;
    if (!raised2) {
      CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      Shape::SHARED_BYTES));
      raised2 = true;
    }
    const int pairs = ((m + 255) / 256) * ((n + 255) / 256);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(2 * (persistent ? std::min(pairs, g_sms / 2) : pairs));
    config.blockDim = dim3(Shape::THREADS);
    config.dynamicSmemBytes = Shape::SHARED_BYTES;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = 2;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    CHECK_CUDA(cudaLaunchKernelEx(&config, kernel, a_map, b_map, c, m, n, k, tl::Untraced{}));
    return;
  }
  static bool raised = false;
  auto kernel = tensor::matmul_wgmma_tma<MatmulWgmmaTma, Input, tl::Untraced>;
  if (!raised) {
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    MatmulWgmmaTma::SHARED_BYTES));
    raised = true;
  }
  const int tiles = ((n + 255) / 256) * ((m + 127) / 128);
  const dim3 grid =
      persistent ? dim3(std::min(tiles, g_sms)) : dim3((n + 255) / 256, (m + 127) / 128);
  kernel<<<grid, MatmulWgmmaTma::THREADS, MatmulWgmmaTma::SHARED_BYTES>>>(a_map, b_map, c, m, n, k,
                                                                          tl::Untraced{});
}

void launch_rung13(const void* a, const void* b, float* c, int m, int n, int k) {
  static bool raised = false;
  auto kernel = tensor::matmul_wgmma<MatmulWgmma, true, tl::Untraced>;
  if (!raised) {
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    MatmulWgmma::SHARED_BYTES));
    raised = true;
  }
  const dim3 grid((n + 255) / 256, (m + 127) / 128);
  kernel<<<grid, MatmulWgmma::THREADS, MatmulWgmma::SHARED_BYTES>>>(
      static_cast<const unsigned short*>(a), static_cast<const unsigned short*>(b), c, m, n, k,
      tl::Untraced{});
}

struct Problem {
  int m, n, k;
  std::vector<std::uint16_t> a, b;
  void *da = nullptr, *db = nullptr;
  float* dc = nullptr;
};

Problem make_problem(int m, int n, int k, bool bf16, unsigned seed) {
  Problem p{m, n, k, std::vector<std::uint16_t>(std::size_t(m) * k),
            std::vector<std::uint16_t>(std::size_t(k) * n)};
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (auto& x : p.a) x = from_float(value(random), bf16);
  for (auto& x : p.b) x = from_float(value(random), bf16);
  CHECK_CUDA(cudaMalloc(&p.da, p.a.size() * 2));
  CHECK_CUDA(cudaMalloc(&p.db, p.b.size() * 2));
  CHECK_CUDA(cudaMalloc(&p.dc, std::size_t(m) * n * 4));
  CHECK_CUDA(cudaMemcpy(p.da, p.a.data(), p.a.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(p.db, p.b.data(), p.b.size() * 2, cudaMemcpyHostToDevice));
  return p;
}
void free_problem(Problem& p) {
  cudaFree(p.da);
  cudaFree(p.db);
  cudaFree(p.dc);
}

// Sampled elements (every element below 2^20 of C) against float64, bound 3·K·2⁻²³·Σ|a||b|.
bool check(const Problem& p, bool bf16, const char* name) {
  std::vector<float> c(std::size_t(p.m) * p.n);
  CHECK_CUDA(cudaMemcpy(c.data(), p.dc, c.size() * 4, cudaMemcpyDeviceToHost));
  const long long total = static_cast<long long>(p.m) * p.n;
  const long long step = total > (1 << 20) ? 4099 : 1;
  long long wrong = 0, checked = 0;
  double worst = 0;
  for (long long e = 0; e < total; e += step) {
    const int i = static_cast<int>(e / p.n), j = static_cast<int>(e % p.n);
    double exact = 0, magnitude = 0;
    for (int q = 0; q < p.k; ++q) {
      const double x = to_float(p.a[std::size_t(i) * p.k + q], bf16);
      const double y = to_float(p.b[std::size_t(q) * p.n + j], bf16);
      exact += x * y;
      magnitude += std::fabs(x * y);
    }
    const double bound = 3.0 * p.k * std::ldexp(1.0, -23) * magnitude + 1e-30;
    const double error = std::fabs(c[e] - exact);
    worst = std::max(worst, error / bound);
    if (!(error <= bound)) ++wrong;
    ++checked;
  }
  std::printf("  %-24s %5d x %5d x %5d: %lld of %lld checked wrong, worst %.3f of the bound\n",
              name, p.m, p.n, p.k, wrong, checked, worst);
  return wrong == 0;
}

double tflops(int m, int n, int k, float ms) {
  return 2.0 * m * n * k / (ms * 1e-3) / 1e12;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a run cut short by a timeout keeps its lines
  int size = 4096;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--size") size = std::atoi(argv[i + 1]);
  }
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, compute capability %d.%d, %d SMs\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount);
  g_sms = prop.multiProcessorCount;
  bool ok = true;
  const int shapes[][3] = {{128, 256, 64}, {200, 264, 136},   {1000, 1000, 1000}, {256, 512, 8},
                           {8, 8, 8},      {1024, 768, 4096}, {4096, 4096, 4096}};
  for (const bool bf16 : {false, true}) {
    for (const auto& s : shapes) {
      Problem p = make_problem(s[0], s[1], s[2], bf16, 7);
      CHECK_CUDA(cudaMemset(p.dc, 0xff, std::size_t(p.m) * p.n * 4));  // NaN: unwritten shows
      for (const int variant : {0, 1, 2, 3}) {
        const bool persistent = variant % 2 == 1;
        const int cluster = variant >= 2 ? 2 : 1;
        CHECK_CUDA(cudaMemset(p.dc, 0xff, std::size_t(p.m) * p.n * 4));
        if (bf16) {
          launch_tma<tensor::WgmmaBf16>(p.da, p.db, p.dc, p.m, p.n, p.k, persistent, cluster);
        } else {
          launch_tma<tensor::WgmmaFp16>(p.da, p.db, p.dc, p.m, p.n, p.k, persistent, cluster);
        }
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaDeviceSynchronize());
        const std::string name = std::string(bf16 ? "tma-bf16" : "tma-fp16") +
                                 (persistent ? " persistent" : "") +
                                 (cluster == 2 ? " cluster2" : "");
        ok = check(p, bf16, name.c_str()) && ok;
      }
      free_problem(p);
    }
  }

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::printf("no cuBLAS handle\n");
    return 2;
  }
  const int m = size, n = size, k = size;
  for (const bool bf16 : {false, true}) {
    Problem p = make_problem(m, n, k, bf16, 11);
    const cudaDataType type = bf16 ? CUDA_R_16BF : CUDA_R_16F;
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: cuBLAS gets B first.
    auto cublas = [&] {
      cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, p.db, type, n, p.da, type, k,
                   &zero, p.dc, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    const Times before = time_it(cublas, 20);
    Times rung13{0, 0};
    if (!bf16) rung13 = time_it([&] { launch_rung13(p.da, p.db, p.dc, m, n, k); }, 20);
    auto tma_run = [&](bool persistent, int cluster) {
      return time_it(
          [&] {
            if (bf16) {
              launch_tma<tensor::WgmmaBf16>(p.da, p.db, p.dc, m, n, k, persistent, cluster);
            } else {
              launch_tma<tensor::WgmmaFp16>(p.da, p.db, p.dc, m, n, k, persistent, cluster);
            }
          },
          20);
    };
    const Times tma = tma_run(false, 1);
    const Times tma_persistent = tma_run(true, 1);
    const Times tma_cluster = tma_run(false, 2);
    const Times tma_cluster_persistent = tma_run(true, 2);
    ok = check(p, bf16, bf16 ? "tma-bf16 (timed)" : "tma-fp16 (timed)") && ok;
    const Times after = time_it(cublas, 20);
    const double reference = tflops(m, n, k, std::min(before.median, after.median));
    std::printf("%s %d³: cuBLAS %.1f / %.1f TFLOP/s (median before / after)\n",
                bf16 ? "BF16" : "FP16", size, tflops(m, n, k, before.median),
                tflops(m, n, k, after.median));
    if (!bf16) {
      std::printf("  rung 13 (wgmma, cp.async)  best %.1f median %.1f TFLOP/s: %.3f of cuBLAS\n",
                  tflops(m, n, k, rung13.best), tflops(m, n, k, rung13.median),
                  tflops(m, n, k, rung13.median) / reference);
    }
    std::printf("  rung 14 (TMA, specialised) best %.1f median %.1f TFLOP/s: %.3f of cuBLAS\n",
                tflops(m, n, k, tma.best), tflops(m, n, k, tma.median),
                tflops(m, n, k, tma.median) / reference);
    auto print = [&](const char* what, const Times& times) {
      std::printf("  %-26s best %.1f median %.1f TFLOP/s: %.3f of cuBLAS\n", what,
                  tflops(m, n, k, times.best), tflops(m, n, k, times.median),
                  tflops(m, n, k, times.median) / reference);
    };
    print("+ persistent (1 block/SM)", tma_persistent);
    print("+ cluster 2, B multicast", tma_cluster);
    print("+ cluster 2, persistent", tma_cluster_persistent);
    free_problem(p);
  }
  cublasDestroy(handle);
  std::printf(ok ? "all products correct\n" : "SOME PRODUCTS WRONG\n");
  return ok ? 0 : 1;
}
