// Standalone tuning aid for the reductions lesson's fastest sum (target: at least 0.95 of CUB's
// DeviceReduce::Sum on the same data), not part of the app: one process, one GPU call, every
// variant checked against a float64 sum and timed in the same run against CUB and a
// device-to-device copy. The lesson's kernel (lessons/06_reductions/kernels/sum_vectorized.cuh) is
// the baseline; the variants change how a block walks the array (grid-stride with four far-apart
// loads, or a contiguous tile per trip), how many float4 loads each thread keeps in flight, the
// load's cache hint, and the grid. Build and run on the GPU machine (from the repository root):
//   nvcc -O3 -std=c++20 -arch=sm_90 -I. -Iapp tools/gpu/sum_sweep.cu -o sum_sweep && ./sum_sweep
// Exit status 1 when a sum is wrong.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_reduce.cuh>
#include <random>
#include <string>
#include <vector>

#include "core/trace_record.hpp"
#include "kernels/trace.cuh"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"
#include "lessons/06_reductions/kernels/reduction_trace.cuh"
#include "tools/gpu/sweep_timing.cuh"

namespace tl {
#include "lessons/06_reductions/kernels/sum_vectorized.cuh"
}  // namespace tl

enum class Hint { kPlain, kLdg, kLdcs };

template <Hint H>
__device__ __forceinline__ float4 load(const float4* p) {
  if constexpr (H == Hint::kLdg) return __ldg(p);
  if constexpr (H == Hint::kLdcs) return __ldcs(p);
  return *p;
}

// Every variant ends as the lesson's kernel does: the block's sum into block_sums, and the last
// block to finish sums those into *out (so no variant needs *out zeroed).
__device__ void finish_sum(float total, float* out, float* block_sums, unsigned int* blocks_done) {
  const float sum = tl::block_sum(total, tl::ReductionUntraced{});
  __shared__ bool last_block;
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = sum;
    __threadfence();
    last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last_block) {
    float t = 0.0f;
    for (int b = threadIdx.x; b < static_cast<int>(gridDim.x); b += blockDim.x) {
      t += __ldcg(&block_sums[b]);
    }
    t = tl::block_sum(t, tl::ReductionUntraced{});
    if (threadIdx.x == 0) {
      *out = t;
      *blocks_done = 0;
    }
  }
}

// Each trip a block reads one contiguous tile of LOADS × blockDim float4s (each thread LOADS of
// them, blockDim apart, all issued before any add); tiles are gridDim apart.
template <int LOADS, Hint H>
__global__ void sum_tiles(const float* in, float* out, int n, float* block_sums,
                          unsigned int* blocks_done) {
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const long long n4 = n / 4;
  const long long tile = static_cast<long long>(LOADS) * blockDim.x;
  float s[LOADS] = {};
  long long base = blockIdx.x * tile;
  for (; base + tile <= n4; base += gridDim.x * tile) {
    float4 v[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) v[k] = load<H>(in4 + base + k * blockDim.x + threadIdx.x);
#pragma unroll
    for (int k = 0; k < LOADS; ++k) s[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  // The last partial tile, by whichever block reaches it.
  for (long long i = base + threadIdx.x; i < n4 && base < n4; i += blockDim.x) {
    const float4 a = load<H>(in4 + i);
    s[0] += (a.x + a.y) + (a.z + a.w);
  }
  const int tail = 4 * static_cast<int>(n4) + blockIdx.x * blockDim.x + threadIdx.x;
  if (tail < n) s[0] += in[tail];
  float total = 0.0f;
#pragma unroll
  for (int k = 0; k < LOADS; ++k) total += s[k];
  finish_sum(total, out, block_sums, blocks_done);
}

// The lesson's walk (LOADS float4s gridDim·blockDim apart per trip) with more loads or a hint.
template <int LOADS, Hint H>
__global__ void sum_strided(const float* in, float* out, int n, float* block_sums,
                            unsigned int* blocks_done) {
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const int n4 = n / 4;
  const int stride = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s[LOADS] = {};
  for (; i + (LOADS - 1) * stride < n4; i += LOADS * stride) {
    float4 v[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) v[k] = load<H>(in4 + i + k * stride);
#pragma unroll
    for (int k = 0; k < LOADS; ++k) s[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  for (; i < n4; i += stride) {
    const float4 a = load<H>(in4 + i);
    s[0] += (a.x + a.y) + (a.z + a.w);
  }
  const int tail = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x;
  if (tail < n) s[0] += in[tail];
  float total = 0.0f;
#pragma unroll
  for (int k = 0; k < LOADS; ++k) total += s[k];
  finish_sum(total, out, block_sums, blocks_done);
}

using Kernel = void (*)(const float*, float*, int, float*, unsigned int*);

struct Variant {
  std::string name;
  Kernel kernel;
};

int main() {
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("%s, %d SMs\n", prop.name, sms);
  const int n = 1 << 28;
  std::vector<float> host(n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float& x : host) x = uniform(rng);
  double reference = 0;
  for (float x : host) reference += x;
  float *in = nullptr, *out = nullptr, *block_sums = nullptr, *copy = nullptr;
  unsigned int* done = nullptr;
  CHECK_CUDA(cudaMalloc(&in, sizeof(float) * n));
  CHECK_CUDA(cudaMalloc(&copy, sizeof(float) * n));
  CHECK_CUDA(cudaMalloc(&out, sizeof(float)));
  CHECK_CUDA(cudaMalloc(&block_sums, sizeof(float) * 65536));
  CHECK_CUDA(cudaMalloc(&done, sizeof(unsigned int)));
  CHECK_CUDA(cudaMemset(done, 0, sizeof(unsigned int)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
  const double bytes = 4.0 * n;

  std::size_t temp_bytes = 0;
  CHECK_CUDA(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n));
  void* temp = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, temp_bytes));
  auto cub_ms = [&] {
    return time_it([&] { CHECK_CUDA(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n)); }, 30)
        .median;
  };
  const float copy_ms =
      time_it([&] { CHECK_CUDA(cudaMemcpy(copy, in, bytes, cudaMemcpyDeviceToDevice)); }, 30)
          .median;
  const float cub_before = cub_ms();
  std::printf("copy (read + written) %.1f GB/s; CUB %.1f GB/s\n", 2 * bytes / copy_ms / 1e6,
              bytes / cub_before / 1e6);

  bool all_right = true;
  auto measure = [&](const std::string& name, int blocks, int block, auto launch) {
    CHECK_CUDA(cudaMemset(out, 0, sizeof(float)));
    launch();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    float got = 0;
    CHECK_CUDA(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
    const bool right = std::abs(got - reference) <= 1e-3 * std::sqrt(static_cast<double>(n));
    all_right = all_right && right;
    const float ms = time_it(launch, 30).median;
    std::printf("%-34s <<<%5d, %4d>>> %8.1f GB/s  %.3f of CUB  %s\n", name.c_str(), blocks, block,
                bytes / ms / 1e6, cub_before / ms, right ? "" : "WRONG SUM");
  };
  auto run = [&](const std::string& name, Kernel kernel, int blocks, int block) {
    measure(name, blocks, block, [&] { kernel<<<blocks, block>>>(in, out, n, block_sums, done); });
  };
  for (int per_sm : {4, 8, 16}) {
    const int blocks = sms * per_sm;
    measure("lesson sum_vectorized", blocks, 256, [&] {
      tl::sum_vectorized<<<blocks, 256>>>(in, out, n, block_sums, done, tl::ReductionUntraced{});
    });
  }
  const std::vector<Variant> variants = {
      {"strided 4, plain", &sum_strided<4, Hint::kPlain>},
      {"strided 4, ldg", &sum_strided<4, Hint::kLdg>},
      {"strided 4, ldcs", &sum_strided<4, Hint::kLdcs>},
      {"strided 8, plain", &sum_strided<8, Hint::kPlain>},
      {"strided 8, ldcs", &sum_strided<8, Hint::kLdcs>},
      {"tiles 4, plain", &sum_tiles<4, Hint::kPlain>},
      {"tiles 4, ldcs", &sum_tiles<4, Hint::kLdcs>},
      {"tiles 8, plain", &sum_tiles<8, Hint::kPlain>},
      {"tiles 8, ldcs", &sum_tiles<8, Hint::kLdcs>},
      {"tiles 16, plain", &sum_tiles<16, Hint::kPlain>},
  };
  for (const Variant& v : variants) {
    for (int block : {256, 512}) {
      for (int per_sm_threads : {1024, 2048}) {
        run(v.name, v.kernel, sms * per_sm_threads / block, block);
      }
    }
  }
  const float cub_after = cub_ms();
  std::printf("CUB again: %.1f GB/s\n", bytes / cub_after / 1e6);
  return all_right ? 0 : 1;
}
