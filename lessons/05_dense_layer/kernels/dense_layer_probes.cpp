// Lesson 5's timed/traced pairs under the mapping probe (kernels/mapping_probe.hpp): the
// element-wise kernels, the fused tiled product, and the fast product as GEMV and as GEMM with edge
// and with whole tiles. The unfused product and bias have no traced variant: nothing draws them.

#include <string>

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_kernels.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_shapes.hpp"

namespace tl::kernels {
namespace {

std::string sizes(int batch, int in, int out) {
  return "batch " + std::to_string(batch) + ", " + std::to_string(in) + " → " + std::to_string(out);
}

}  // namespace

std::vector<MappingProbe> dense_layer_mapping_probes() {
  const DenseLayerKernels& kt = emulator_kernels().get<kernels::DenseLayerKernels>();
  std::vector<MappingProbe> probes;

  // Element-wise and tiled: blocks of 8 neurons × 4 rows over 29 neurons × 37 rows.
  {
    const int batch = 37, in = 45, out = 29;
    const LaunchConfig config{{4, 10, 1}, {8, 4, 1}};
    auto x = probe_inputs(static_cast<std::size_t>(batch) * in, 1);
    auto w = probe_inputs(static_cast<std::size_t>(out) * in, 2);
    auto b = probe_inputs(out, 3);
    auto z = probe_inputs(static_cast<std::size_t>(batch) * out, 4);
    const std::string on = " " + sizes(batch, in, out) + " on " + config.to_string();
    probes.push_back({"dense_sigmoid" + on, config, batch, out,
                      [=, &kt](float* y) { return kt.sigmoid(config, z->data(), y, batch, out); },
                      [=, &kt](float* y, TraceRecord* trace) {
                        return kt.sigmoid_traced(config, z->data(), y, batch, out, trace);
                      }});
    probes.push_back({"dense_bias_sigmoid" + on, config, batch, out,
                      [=, &kt](float* y) {
                        return kt.bias_sigmoid(config, z->data(), b->data(), y, batch, out);
                      },
                      [=, &kt](float* y, TraceRecord* trace) {
                        return kt.bias_sigmoid_traced(config, z->data(), b->data(), y, batch, out,
                                                      trace);
                      }});
    probes.push_back({"dense_fused" + on, config, batch, out,
                      [=, &kt](float* y) {
                        return kt.fused(config, x->data(), w->data(), b->data(), y, batch, in, out);
                      },
                      [=, &kt](float* y, TraceRecord* trace) {
                        return kt.fused_traced(config, x->data(), w->data(), b->data(), y, batch,
                                               in, out, trace);
                      }});
  }

  // The fast product, in the configuration it requires: a GEMV below kDenseGemvMaxBatch rows, a
  // GEMM from it on, over edge tiles or, at multiples of the tile, whole ones.
  const int gemv_batch = static_cast<int>(kernels::kDenseGemvMaxBatch) - 1;
  for (const auto& [batch, in, out] :
       {std::tuple{gemv_batch, 45, 29}, std::tuple{gemv_batch, 64, 29}, std::tuple{40, 45, 29},
        std::tuple{128, 32, 128}}) {
    const LaunchConfig config = kernels::dense_layer_fast_config(static_cast<std::uint64_t>(batch),
                                                                 static_cast<std::uint64_t>(out));
    auto x = probe_inputs(static_cast<std::size_t>(batch) * in, 1);
    auto w = probe_inputs(static_cast<std::size_t>(out) * in, 2);
    auto b = probe_inputs(out, 3);
    const int bt = batch, i = in, o = out;
    probes.push_back({"dense fast fused " + sizes(batch, in, out) + " on " + config.to_string(),
                      config, static_cast<std::uint64_t>(batch), static_cast<std::uint64_t>(out),
                      [=, &kt](float* y) {
                        return kt.fused_fast(config, x->data(), w->data(), b->data(), y, bt, i, o);
                      },
                      [=, &kt](float* y, TraceRecord* trace) {
                        return kt.fused_fast_traced(config, x->data(), w->data(), b->data(), y, bt,
                                                    i, o, trace);
                      }});
  }
  return probes;
}

}  // namespace tl::kernels
