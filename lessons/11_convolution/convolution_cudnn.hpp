#pragma once
// cuDNN's cudnnConvolutionForward on the lesson's shape, the library the ladder is timed against.
// cuDNN is loaded at run time with dlopen (lessons/11_convolution/cuda/cudnn_convolution.cpp), like
// cuBLAS: ThreadLab runs without it, and its rows then say what was looked for and where. No CUDA
// types here: the lesson's runner includes this in every build and asks cudnn_available() first.

#include <memory>
#include <string>

#include "core/result.hpp"
#include "lessons/11_convolution/convolution.hpp"

namespace tl::compute {

// The loaded cuDNN's version ("9.1.0" from cudnnGetVersion) and path, or why there is none: not
// built with CUDA, no cuDNN headers at build time, or no library found (naming every place tried,
// THREADLAB_CUDNN_PATH among them).
Result<std::string> cudnn_library();

// What cudnnFindConvolutionForwardAlgorithm chose.
struct CudnnChoice {
  std::string algorithm;  // "IMPLICIT_PRECOMP_GEMM", "WINOGRAD_NONFUSED", ...
  double found_ms = 0;    // cuDNN's own time for it, during the search
  double workspace_bytes = 0;
  bool tensor_ops = false;  // the chosen algorithm's math type uses tensor cores
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
  [[nodiscard]] const CudnnChoice& choice() const;
  // out = conv(in, w) with the chosen algorithm; device pointers of the prepared type;
  // asynchronous.
  Status forward(const void* in, const void* w, void* out);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tl::compute
