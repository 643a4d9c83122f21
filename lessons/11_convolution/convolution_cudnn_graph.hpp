#pragma once
// What the cuDNN graph (backend) API path is told about the lesson's shape, and how it judges the
// engines cuDNN's heuristics offer: pure functions, no cuDNN or CUDA types, so that they are
// checked on any machine (lessons/11_convolution/tests/emulator/test_convolution_cudnn.cpp). The
// calls themselves are in lessons/11_convolution/cuda/cudnn_convolution.cpp.

#include <array>
#include <cstdint>
#include <string>

#include "lessons/11_convolution/convolution.hpp"

namespace tl::lessons {

// One tensor of the graph: the backend API always takes dims in N, C, H, W order (K, C, R, S for
// the filter) and lets the strides say where each lives in memory, so NCHW and NHWC differ in
// their strides alone.
struct CudnnGraphTensor {
  std::array<std::int64_t, 4> dims{};
  std::array<std::int64_t, 4> strides{};
  std::int64_t uid = 0;             // the variant pack's key for the tensor's device pointer
  std::int64_t byte_alignment = 0;  // what the pointers promise (cudaMalloc gives 256 bytes)
  std::int64_t element_bytes = 0;   // 2 (FP16) or 4 (FP32)
};

// The convolution descriptor's numbers, two spatial dims (H, W).
struct CudnnGraphConvolution {
  std::int64_t spatial_dims = 2;
  std::array<std::int64_t, 2> pre_padding{}, post_padding{}, strides{}, dilations{};
};

struct CudnnGraphLayout {
  CudnnGraphTensor x, w, y;
  CudnnGraphConvolution conv;
};

// The unique ids of the three tensors (any distinct non-negative numbers would do).
inline constexpr std::int64_t kCudnnUidX = 1, kCudnnUidW = 2, kCudnnUidY = 3;

// The alignment the lesson promises for every tensor: cudaMalloc's buffers start on 256 bytes,
// more than the 16 that cuDNN's vectorised engines ask for.
inline constexpr std::int64_t kCudnnByteAlignment = 16;

// X (N×C×H×W), W (K×C×R×S, stored KCRS for NCHW and KRSC for NHWC, as the legacy path's filter
// formats) and Y (N×K×P×Q) in `shape`'s layout; `fp16` sets the element size.
[[nodiscard]] CudnnGraphLayout cudnn_graph_layout(const ConvShape& shape, bool fp16);

// The numerical and behaviour notes of one engine, as CUDNN_ATTR_ENGINE_NUMERICAL_NOTE and
// CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE list them.
struct CudnnEngineNotes {
  bool tensor_core = false;
  bool down_convert_inputs = false;
  bool reduced_precision_reduction = false;
  bool fft = false;
  bool winograd = false;
  bool nondeterministic = false;
  bool runtime_compiled = false;
};

// Why an engine is left out of the comparison, or "" when it takes part. The rows compare like with
// like, as the legacy path's FP32 row does with FMA math: FP32 leaves out tensor-core engines
// (TF32, which rounds the inputs to 10 bits of mantissa); both precisions leave out engines that
// convert the inputs down or reduce in less than FP32 (the conv descriptor asks for FP32
// accumulation).
[[nodiscard]] std::string cudnn_engine_excluded(const CudnnEngineNotes& notes, bool fp16);

// The row's words for a plan: "engine 12 via heuristics mode A (#1 of 9), Winograd,
// runtime-compiled".
[[nodiscard]] std::string describe_cudnn_engine(std::int64_t global_index, const char* heuristics,
                                                int rank, int offered,
                                                const CudnnEngineNotes& notes);

// The timing rows' variants: "cudnn-fp32" and "cudnn-fp16" for the graph API's plan (the keys the
// rows had before the Find path became the second row, so sweeps and scripts keep reading them),
// "cudnn-find-fp32" and "cudnn-find-fp16" for the Find API's algorithm.
[[nodiscard]] std::string cudnn_row_variant(bool fp16, bool graph);

}  // namespace tl::lessons
