// Lesson 10's planted bugs as a plain CUDA program, for compute-sanitizer and for what a program
// sees of CUDA's errors without ThreadLab around it. Not part of the app: one process, the lesson's
// own kernels (lessons/10_debugging/kernels/debugging.cuh), its CHECK_CUDA macro
// (lessons/10_debugging/kernels/check_cuda.cuh), arrays allocated at their exact sizes as a
// program allocates them. docs/data/record-debugging-lesson.sh builds and runs it on the GPU
// machine (from the repository root):
//   nvcc -O2 -lineinfo -std=c++20 -arch=sm_90 -I. -Iapp tools/gpu/bug_hunt.cu -o bug_hunt
//   compute-sanitizer --tool memcheck ./bug_hunt no-guard
//
//   bug_hunt BUG [N]   BUG: none, wrong-index, no-guard, no-barrier, divergent, accumulates (one
//                      launch of that kernel, N elements, default 1000, blocks of 256, checked
//                      against the CPU), null (a sticky error), bad-config (a non-sticky one)
//
// Exit status: 0 when the run did what the lesson says it does (for a bug, whatever the values:
// the sanitizer's report is the point), 1 on an unexpected CUDA error, 2 on bad usage.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/trace_record.hpp"
#include "kernels/trace.cuh"

namespace lesson {
#include "lessons/10_debugging/kernels/check_cuda.cuh"
#include "lessons/10_debugging/kernels/debugging.cuh"
}  // namespace lesson

namespace {

constexpr int kBlock = 256;

using Kernel = void (*)(int, const float*, float*, tl::Untraced);

Kernel kernel_of(const std::string& bug) {
  if (bug == "none" || bug == "null" || bug == "bad-config")
    return &lesson::difference<tl::Untraced>;
  if (bug == "wrong-index") return &lesson::difference_wrong_index<tl::Untraced>;
  if (bug == "no-guard") return &lesson::difference_no_guard<tl::Untraced>;
  if (bug == "no-barrier") return &lesson::difference_no_barrier<tl::Untraced>;
  if (bug == "divergent") return &lesson::difference_divergent_barrier<tl::Untraced>;
  if (bug == "accumulates") return &lesson::difference_accumulates<tl::Untraced>;
  return nullptr;
}

std::vector<float> inputs(int n) {
  std::vector<float> in(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    in[static_cast<std::size_t>(i)] = static_cast<float>((i * 37) % 101) - 50.0f;
  return in;
}

// Elements of `got` that differ from the CPU's difference.
int wrong_elements(const std::vector<float>& in, const std::vector<float>& got) {
  int wrong = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float expected = in[i] - (i > 0 ? in[i - 1] : 0.0f);
    if (std::memcmp(&expected, &got[i], sizeof(float)) != 0) ++wrong;
  }
  return wrong;
}

const char* name_of(cudaError_t error) {
  return error == cudaSuccess ? "cudaSuccess" : cudaGetErrorName(error);
}

// The null bug: an allocation that fails unchecked leaves its pointer null, and the kernel writes
// through it. Prints what each call returns, CHECK_CUDA's way, without stopping at the first.
int sticky(int n, const float* d_in) {
  float* d_out = nullptr;
  // More than any GPU holds: the call fails, and this program (wrongly) does not check.
  const cudaError_t allocated = cudaMalloc(&d_out, std::size_t{1} << 62);
  std::printf("cudaMalloc(2^62 bytes)       -> %s (unchecked; d_out stays null)\n",
              name_of(allocated));
  std::printf(
      "cudaGetLastError()           -> %s (the failed allocation is not sticky: asking "
      "cleared it)\n",
      name_of(cudaGetLastError()));
  lesson::difference<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, d_in, d_out, tl::Untraced{});
  std::printf("launch, cudaGetLastError()   -> %s\n", name_of(cudaGetLastError()));
  const cudaError_t waited = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize()      -> %s: %s\n", name_of(waited),
              cudaGetErrorString(waited));
  std::printf("cudaGetLastError()           -> %s\n", name_of(cudaGetLastError()));
  std::printf("cudaGetLastError() again    -> %s\n", name_of(cudaGetLastError()));
  float* d_small = nullptr;
  const cudaError_t small = cudaMalloc(&d_small, 4);
  std::printf("cudaMalloc(4 bytes)          -> %s\n", name_of(small));
  std::printf("the context is %s: every later call fails until the process ends\n",
              small == cudaSuccess ? "still usable" : "lost");
  return waited != cudaSuccess && small != cudaSuccess ? 0 : 1;
}

// A block of 2048 threads: the launch fails before it starts; asking clears the error, and the
// next launch runs.
int not_sticky(int n, const float* d_in, float* d_out, const std::vector<float>& in) {
  lesson::difference<<<1, 2048>>>(n, d_in, d_out, tl::Untraced{});
  const cudaError_t launched = cudaGetLastError();
  std::printf("launch <<<1, 2048>>>, cudaGetLastError() -> %s: %s\n", name_of(launched),
              cudaGetErrorString(launched));
  std::printf("cudaGetLastError() again                 -> %s\n", name_of(cudaGetLastError()));
  lesson::difference<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, d_in, d_out, tl::Untraced{});
  CHECK_LAUNCH();
  std::vector<float> got(in.size());
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  const int wrong = wrong_elements(in, got);
  std::printf("launch <<<%d, %d>>> after it: checked, %d wrong element(s)\n",
              (n + kBlock - 1) / kBlock, kBlock, wrong);
  return launched != cudaSuccess && wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || kernel_of(argv[1]) == nullptr) {
    std::fprintf(stderr,
                 "usage: bug_hunt BUG [N]; BUG: none, wrong-index, no-guard, no-barrier, "
                 "divergent, accumulates, null, bad-config\n");
    return 2;
  }
  const std::string bug = argv[1];
  const int n = argc == 3 ? std::atoi(argv[2]) : 1000;
  if (n < 1) {
    std::fprintf(stderr, "bug_hunt: N must be at least 1\n");
    return 2;
  }
  cudaDeviceProp properties{};
  CHECK_CUDA(cudaGetDeviceProperties(&properties, 0));
  std::printf("bug_hunt %s, n = %d, blocks of %d, on %s\n", bug.c_str(), n, kBlock,
              properties.name);
  const std::vector<float> in = inputs(n);
  const std::size_t bytes = in.size() * sizeof(float);
  float* d_in = nullptr;
  float* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_in, bytes));
  CHECK_CUDA(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
  if (bug == "null") return sticky(n, d_in);
  CHECK_CUDA(cudaMalloc(&d_out, bytes));
  if (bug == "bad-config") return not_sticky(n, d_in, d_out, in);
  // Every bug but the one that reads `out` gets it cleared, so that initcheck speaks of that one.
  if (bug != "accumulates") CHECK_CUDA(cudaMemset(d_out, 0, bytes));
  kernel_of(bug)<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, d_in, d_out, tl::Untraced{});
  CHECK_LAUNCH();
  std::vector<float> got(in.size());
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  std::printf("%d of %d element(s) wrong\n", wrong_elements(in, got), n);
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_in));
  return 0;
}
