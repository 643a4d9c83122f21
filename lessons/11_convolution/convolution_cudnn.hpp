#pragma once
// cuDNN's cudnnConvolutionForward on the lesson's shape, the library the ladder is timed against.
// cuDNN is loaded at run time with dlopen (lessons/11_convolution/cuda/cudnn_convolution.cpp), like
// cuBLAS: ThreadLab runs without it, and its rows then say what was looked for and where. No CUDA
// types here: the lesson's runner includes this in every build and asks cudnn_available() first.

#include <memory>
#include <string>

#include "core/result.hpp"
#include "lessons/11_convolution/convolution.hpp"
#include "lessons/11_convolution/convolution_cudnn_graph.hpp"

namespace tl::compute {

// The loaded cuDNN's version ("9.1.0" from cudnnGetVersion) and path, or why there is none: not
// built with CUDA, no cuDNN headers at build time, or no library found (naming every place tried,
// THREADLAB_CUDNN_PATH among them).
Result<std::string> cudnn_library();

// The library at `path` alone, opened now and bound as cudnn_library() binds the one it uses:
// its description, or why it cannot serve (not found, lacking functions, too old). For the tests of
// those reasons; the rows use cudnn_library()'s one library.
Result<std::string> cudnn_library_at(const std::string& path);

// Whether the loaded cuDNN has the graph (backend) API's functions, or why not.
Status cudnn_graph_api();

// The graph path's tensor (X, W, Y), convolution and forward-operation descriptors for `shape`,
// built and finalized with the loaded cuDNN. They need no handle, so no GPU: the tests check the
// attributes against a real cuDNN on any machine that has one.
Status cudnn_graph_check_descriptors(const lessons::ConvShape& shape, bool fp16);

// The two ways ThreadLab asks cuDNN for a convolution. The graph (backend) API is how PyTorch and
// cudnn-frontend reach it: heuristics offer engine configurations, each finalized into an execution
// plan and timed. The legacy cudnnFindConvolutionForwardAlgorithm times only the algorithms of
// cuDNN 7's enum, and in cuDNN 9 leaves out the newer and runtime-compiled engines.
enum class CudnnApiPath { kGraph, kFind };

// The graph API's plans are timed with at most this much workspace each: more is not worth the
// memory for one layer. (The Find path keeps its own limit of 1 GiB.)
inline constexpr double kCudnnGraphWorkspaceLimit = 256.0 * 1024 * 1024;

// What cuDNN chose: the Find API's fastest algorithm, or the graph API's fastest timed plan.
struct CudnnChoice {
  // Find: "IMPLICIT_PRECOMP_GEMM", "WINOGRAD_NONFUSED", ...; graph: "engine 12 via heuristics
  // mode A (#1 of 9), runtime-compiled" (lessons::describe_cudnn_engine).
  std::string algorithm;
  double found_ms = 0;  // its time during the search (cuDNN's own for Find, ThreadLab's for graph)
  double workspace_bytes = 0;
  bool tensor_ops = false;  // the chosen algorithm's math type, or engine, uses tensor cores
  // Graph only: how many plans were timed, and what was left out and why ("3 TF32, 2 did not
  // finalize"), for the lesson's notes.
  int plans_timed = 0;
  std::string left_out;
  std::string knobs;  // the chosen engine configuration's knobs, "type=value" by cuDNN's numbers
};

class CudnnConvolution {
 public:
  CudnnConvolution();
  ~CudnnConvolution();
  CudnnConvolution(const CudnnConvolution&) = delete;
  CudnnConvolution& operator=(const CudnnConvolution&) = delete;

  // Creates the handle and descriptors for `shape` in its layout (weights KCRS for NCHW, KRSC for
  // NHWC, cuDNN's filter formats) and lets cuDNN time its algorithms, keeping the fastest that
  // succeeds and whose workspace fits. `fp16`: FP16 tensors with FP32 accumulation, tensor cores
  // allowed; otherwise FP32 with FMA math only (no TF32: the same arithmetic as the FP32 rungs).
  // Outside any timed run: it runs every algorithm at least once.
  Status prepare(const lessons::ConvShape& shape, bool fp16);
  // The same through the graph API: the operation graph for `shape`, the engine configurations of
  // heuristics mode A and then FALLBACK (left out: duplicates, TF32 for FP32, down-converting or
  // reduced-precision ones; see lessons::cudnn_engine_excluded), an execution plan for each that
  // finalizes with at most kCudnnGraphWorkspaceLimit of workspace, each run a few times on
  // `in`, `w`, `out` (device pointers of the prepared type; `out` is overwritten) and timed with
  // CUDA events on the default stream, the lesson's; the fastest is kept. Like PyTorch with
  // torch.backends.cudnn.benchmark = True. FP32 compute in both precisions, as prepare() asks.
  Status prepare_graph(const lessons::ConvShape& shape, bool fp16, const void* in, const void* w,
                       void* out);
  [[nodiscard]] const CudnnChoice& choice() const;
  // out = conv(in, w) with the chosen algorithm or plan; device pointers of the prepared type;
  // asynchronous.
  Status forward(const void* in, const void* w, void* out);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tl::compute
