#pragma once
// What the standalone GPU tools in tools/gpu share: stop on a CUDA error with where it happened,
// and time a launch with CUDA events (two warm-up launches, then best and median of the repeats).
// Not part of the app, which times through compute::Device.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                       \
  do {                                                                                         \
    const cudaError_t error_ = (call);                                                         \
    if (error_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(error_), __FILE__, __LINE__); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

struct Times {
  float best, median;
};

template <typename F>
Times time_it(F&& launch, int repeats) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  launch();
  launch();
  std::vector<float> times;
  for (int i = 0; i < repeats; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    launch();
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CHECK_CUDA(cudaGetLastError());
  std::sort(times.begin(), times.end());
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  return {times.front(), times[times.size() / 2]};
}
