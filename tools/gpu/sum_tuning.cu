// Tuning experiment for lesson 6's vectorized sum (kernels/sum_vectorized.cuh): variants of its
// inner loop against CUB's DeviceReduce::Sum and a device-to-device copy, over 2^28 floats, in
// one process on the GPU machine. Not part of the app; it says which variant the kernel uses.
//   nvcc -O3 -arch=sm_90 -o sum_tuning tools/gpu/sum_tuning.cu && ./sum_tuning
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

template <int kLoads, int kMode>
__device__ float4 load(const float4* p) {
  if constexpr (kMode == 1) return __ldcs(p);  // streaming: evict-first
  if constexpr (kMode == 2) return __ldg(p);   // read-only path
  return *p;
}

__device__ float block_sum(float v) {
  __shared__ float warp_sums[32];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  }
  __syncthreads();
  return v;
}

// kLoads float4 loads in flight per thread per trip, strided by the grid (as the lesson's kernel).
template <int kLoads, int kMode>
__global__ void sum_strided(const float* in, float* out, int n, float* sums, unsigned* done) {
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const int n4 = n / 4;
  const int stride = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s[kLoads] = {};
  for (; i + (kLoads - 1) * stride < n4; i += kLoads * stride) {
    float4 v[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) v[k] = load<kLoads, kMode>(in4 + i + k * stride);
#pragma unroll
    for (int k = 0; k < kLoads; ++k) s[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  for (; i < n4; i += stride) {
    const float4 a = in4[i];
    s[0] += (a.x + a.y) + (a.z + a.w);
  }
  float t = 0.0f;
#pragma unroll
  for (int k = 0; k < kLoads; ++k) t += s[k];
  t = block_sum(t);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = t;
    __threadfence();
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last) {
    float total = 0.0f;
    for (int b = threadIdx.x; b < static_cast<int>(gridDim.x); b += blockDim.x) total += __ldcg(&sums[b]);
    total = block_sum(total);
    if (threadIdx.x == 0) {
      *out = total;
      *done = 0;
    }
  }
}

template <typename Launch>
float time_ms(Launch launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  launch();
  cudaDeviceSynchronize();
  std::vector<float> times;
  for (int r = 0; r < 20; ++r) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int main() {
  const int n = 1 << 28;
  float *in, *out, *sums, *copy;
  unsigned* done;
  cudaMalloc(&in, size_t(n) * 4);
  cudaMalloc(&copy, size_t(n) * 4);
  cudaMalloc(&out, 4);
  cudaMalloc(&sums, 1 << 20);
  cudaMalloc(&done, 4);
  cudaMemset(done, 0, 4);
  std::vector<float> host(n, 1.0f);
  cudaMemcpy(in, host.data(), size_t(n) * 4, cudaMemcpyHostToDevice);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const double gb = double(n) * 4 / 1e9;
  const float copy_ms = time_ms([&] { cudaMemcpy(copy, in, size_t(n) * 4, cudaMemcpyDeviceToDevice); });
  std::printf("copy d2d: %.1f us, %.0f GB/s (read + written)\n", copy_ms * 1e3, 2 * gb / copy_ms * 1e3);
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n);
  cudaMalloc(&temp, temp_bytes);
  const float cub_ms = time_ms([&] { cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n); });
  std::printf("cub: %.1f us, %.0f GB/s read\n", cub_ms * 1e3, gb / cub_ms * 1e3);
  auto report = [&](const char* name, int blocks, int threads, float ms) {
    float result = 0;
    cudaMemcpy(&result, out, 4, cudaMemcpyDeviceToHost);
    std::printf("%-28s grid %5d x %4d: %.1f us, %.0f GB/s, %.3f of cub, %.3f of copy, sum %.0f %s\n", name,
                blocks, threads, ms * 1e3, gb / ms * 1e3, cub_ms / ms, (gb / ms) / (2 * gb / copy_ms),
                result, cudaGetErrorString(cudaGetLastError()));
  };
#define TRY(LOADS, MODE, PER_SM, THREADS)                                                   \
  {                                                                                         \
    const int blocks = sms * (PER_SM);                                                      \
    const float ms = time_ms([&] {                                                          \
      sum_strided<LOADS, MODE><<<blocks, THREADS>>>(in, out, n, sums, done);                \
    });                                                                                     \
    report("loads " #LOADS " mode " #MODE, blocks, THREADS, ms);                            \
  }
  TRY(4, 0, 8, 256)
  TRY(4, 1, 8, 256)
  TRY(4, 2, 8, 256)
  TRY(8, 0, 8, 256)
  TRY(8, 1, 8, 256)
  TRY(4, 0, 4, 256)
  TRY(8, 0, 4, 256)
  TRY(4, 0, 16, 128)
  TRY(8, 1, 4, 512)
  TRY(2, 0, 8, 256)
  TRY(4, 0, 2, 1024)
  TRY(8, 0, 2, 1024)
  std::printf("cub again: %.1f us\n", time_ms([&] { cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n); }) * 1e3);
  return 0;
}
