// The training step as a CUDA Graph (step_graph.hpp). The capstone's kernels launch on the
// per-thread default stream (lessons/CMakeLists.txt compiles lesson 9's kernels with
// --default-stream=per-thread): unlike the legacy default stream it can be captured, and it still
// waits for, and is waited for by, the copies on the legacy stream.

#include <cuda_runtime.h>

#include <string>

#include "lessons/09_training/step_graph.hpp"

namespace tl::compute {
namespace {

Error cuda_error(const char* call, cudaError_t error) {
  return Error{ErrorKind::kCudaError, std::string(call) + ": " + cudaGetErrorString(error) + " (" +
                                          cudaGetErrorName(error) + ")"};
}

}  // namespace

Result<std::vector<double>> time_as_cuda_graph(const std::function<Status()>& work, int warmup,
                                               int repeats) {
  const cudaStream_t stream = cudaStreamPerThread;
  cudaError_t error = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  if (error != cudaSuccess) return cuda_error("cudaStreamBeginCapture", error);
  const Status launched = work();
  cudaGraph_t graph = nullptr;
  error = cudaStreamEndCapture(stream, &graph);
  if (!launched.is_ok()) {
    if (graph != nullptr) cudaGraphDestroy(graph);
    return launched.error();
  }
  if (error != cudaSuccess) return cuda_error("cudaStreamEndCapture", error);
  cudaGraphExec_t exec = nullptr;
  error = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  if (error != cudaSuccess) return cuda_error("cudaGraphInstantiate", error);

  std::vector<double> times;
  cudaEvent_t start = nullptr, stop = nullptr;
  error = cudaEventCreate(&start);
  if (error == cudaSuccess) error = cudaEventCreate(&stop);
  for (int i = 0; i < warmup && error == cudaSuccess; ++i) error = cudaGraphLaunch(exec, stream);
  for (int i = 0; i < repeats && error == cudaSuccess; ++i) {
    error = cudaEventRecord(start, stream);
    if (error == cudaSuccess) error = cudaGraphLaunch(exec, stream);
    if (error == cudaSuccess) error = cudaEventRecord(stop, stream);
    if (error == cudaSuccess) error = cudaEventSynchronize(stop);
    float ms = 0;
    if (error == cudaSuccess) error = cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms);
  }
  if (start != nullptr) cudaEventDestroy(start);
  if (stop != nullptr) cudaEventDestroy(stop);
  cudaGraphExecDestroy(exec);
  if (error != cudaSuccess) return cuda_error("replaying the step's CUDA Graph", error);
  return times;
}

}  // namespace tl::compute
