// Lesson 11's timed/traced pairs under the mapping probe (kernels/mapping_probe.hpp), each on a
// small awkward shape: odd image sides, a last block only partly used, both layouts, stride 2.

#include <string>
#include <vector>

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/11_convolution/kernels/convolution_kernels.hpp"

namespace tl::kernels {
namespace {

ConvDims probe_dims(int stride, int nhwc) {
  ConvDims d{2, 3, 7, 9, 5, 3, 3, stride, 1, 0, 0, nhwc};
  d.p = (d.h + 2 * d.pad - d.r) / stride + 1;
  d.q = (d.w + 2 * d.pad - d.s) / stride + 1;
  return d;
}

std::uint64_t blocks(std::uint64_t count, std::uint64_t per) {
  return (count + per - 1) / per;
}

}  // namespace

std::vector<MappingProbe> convolution_mapping_probes() {
  std::vector<MappingProbe> probes;
  const ConvolutionKernels& k = emulator_kernels().get<ConvolutionKernels>();
  for (const int nhwc : {0, 1}) {
    for (const int stride : {1, 2}) {
      const ConvDims d = probe_dims(stride, nhwc);
      const std::uint64_t outputs = std::uint64_t{2} * d.k * d.p * d.q;
      // Rows × cols as the lesson draws the output: one row per line of the last dimension.
      const std::uint64_t cols = nhwc ? static_cast<std::uint64_t>(d.k) : d.q;
      auto in = probe_inputs(static_cast<std::size_t>(d.n) * d.c * d.h * d.w, 1);
      auto w = probe_inputs(static_cast<std::size_t>(d.k) * d.c * d.r * d.s, 2);
      const std::string shape = std::string(nhwc ? "NHWC" : "NCHW") +
                                " 2×3×7×9, 5 filters 3×3, stride " + std::to_string(stride);
      const LaunchConfig direct{{static_cast<std::uint32_t>(blocks(outputs, 96)), 1, 1},
                                {96, 1, 1}};
      probes.push_back(
          {"conv_direct " + shape + " on " + direct.to_string(), direct, outputs / cols, cols,
           [=, &k](float* out) { return k.direct(direct, d, in->data(), w->data(), out); },
           [=, &k](float* out, TraceRecord* trace) {
             return k.direct_traced(direct, d, in->data(), w->data(), out, trace);
           }});
      const LaunchConfig tiled{{static_cast<std::uint32_t>(blocks(d.q, kConvTile)),
                                static_cast<std::uint32_t>(blocks(d.p, kConvTile)),
                                static_cast<std::uint32_t>(d.n * d.k)},
                               {kConvTile, kConvTile, 1}};
      probes.push_back(
          {"conv_tiled " + shape + " on " + tiled.to_string(), tiled, outputs / cols, cols,
           [=, &k](float* out) { return k.tiled(tiled, d, in->data(), w->data(), out); },
           [=, &k](float* out, TraceRecord* trace) {
             return k.tiled_traced(tiled, d, in->data(), w->data(), out, trace);
           }});
      // The implicit GEMM reads its weights as a (C·R·S) × K matrix; any floats will do here.
      const LaunchConfig gemm{
          {static_cast<std::uint32_t>(blocks(std::uint64_t{2} * d.p * d.q, kIgemmTileM)),
           static_cast<std::uint32_t>(blocks(d.k, kIgemmTileN)), 1},
          {kIgemmThreads, 1, 1}};
      probes.push_back(
          {"conv_implicit_gemm " + shape + " on " + gemm.to_string(), gemm, outputs / cols, cols,
           [=, &k](float* out) { return k.implicit_gemm(gemm, d, in->data(), w->data(), out); },
           [=, &k](float* out, TraceRecord* trace) {
             return k.implicit_gemm_traced(gemm, d, in->data(), w->data(), out, trace);
           }});
    }
  }
  return probes;
}

}  // namespace tl::kernels
