#include "convolution_cudnn_graph.hpp"

namespace tl::lessons {
namespace {

// N (or K) × C × H × W in N, C, H, W order; the strides of NCHW (W fastest) or NHWC (C fastest).
CudnnGraphTensor tensor(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, bool nhwc,
                        bool fp16, std::int64_t uid) {
  CudnnGraphTensor t;
  t.dims = {n, c, h, w};
  t.strides = nhwc ? std::array<std::int64_t, 4>{h * w * c, 1, w * c, c}
                   : std::array<std::int64_t, 4>{c * h * w, h * w, w, 1};
  t.uid = uid;
  t.byte_alignment = kCudnnByteAlignment;
  t.element_bytes = fp16 ? 2 : 4;
  return t;
}

}  // namespace

CudnnGraphLayout cudnn_graph_layout(const ConvShape& shape, bool fp16) {
  CudnnGraphLayout l;
  l.x = tensor(shape.n, shape.c, shape.h, shape.w, shape.nhwc, fp16, kCudnnUidX);
  l.w = tensor(shape.k, shape.c, shape.r, shape.s, shape.nhwc, fp16, kCudnnUidW);
  l.y = tensor(shape.n, shape.k, shape.p(), shape.q(), shape.nhwc, fp16, kCudnnUidY);
  // Symmetric padding: the lesson's `pad` on both sides of each spatial dim, as the legacy path's
  // cudnnSetConvolution2dDescriptor gives it.
  l.conv.pre_padding = l.conv.post_padding = {shape.pad, shape.pad};
  l.conv.strides = {shape.stride, shape.stride};
  l.conv.dilations = {1, 1};
  return l;
}

std::string cudnn_engine_excluded(const CudnnEngineNotes& notes, bool fp16) {
  if (!fp16 && notes.tensor_core) {
    return "it uses tensor cores on FP32 data (TF32), and the FP32 row compares FMA arithmetic";
  }
  if (notes.down_convert_inputs) return "it converts the inputs to a narrower type";
  if (notes.reduced_precision_reduction) return "it accumulates in less than FP32";
  return {};
}

std::string describe_cudnn_engine(std::int64_t global_index, const char* heuristics, int rank,
                                  int offered, const CudnnEngineNotes& notes) {
  std::string text = "engine " + std::to_string(global_index) + " via heuristics " + heuristics +
                     " (#" + std::to_string(rank) + " of " + std::to_string(offered) + ")";
  if (notes.winograd) text += ", Winograd";
  if (notes.fft) text += ", FFT";
  if (notes.nondeterministic) text += ", nondeterministic";
  if (notes.runtime_compiled) text += ", runtime-compiled";
  return text;
}

std::string cudnn_row_variant(bool fp16, bool graph) {
  return std::string(graph ? "cudnn-" : "cudnn-find-") + (fp16 ? "fp16" : "fp32");
}

}  // namespace tl::lessons
