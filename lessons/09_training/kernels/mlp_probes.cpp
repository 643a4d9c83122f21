// The capstone's product under the mapping probe (kernels/mapping_probe.hpp): mlp_gemm and its
// traced twin in each of the training step's roles (forward with ReLU, the logits, a weight
// gradient read transposed with the column of ones, the ReLU-masked input gradient), on sizes no
// 64 × 64 tile divides, so edge tiles and partial float4 rows are covered.

#include <memory>
#include <string>

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/09_training/kernels/mlp_kernels.hpp"

namespace tl::kernels {
namespace {

// A probe of one product whose operands (and bias or mask) the probe owns.
MappingProbe product_probe(const std::string& role, MlpGemm g, std::size_t a_count,
                           std::size_t b_count, std::size_t side_count) {
  const MlpKernels& k = emulator_kernels().get<kernels::MlpKernels>();
  const auto a = probe_inputs(a_count, 1);
  const auto b = probe_inputs(b_count, 2);
  const auto side = probe_inputs(side_count, 3);  // the bias, or the mask's ReLU outputs
  const LaunchConfig config = mlp_gemm_config(g.m, g.n);
  const std::string name = "mlp_gemm " + role + " " + std::to_string(g.m) + " × " +
                           std::to_string(g.n) + " × " + std::to_string(g.k) + " on " +
                           config.to_string();
  auto bind = [a, b, side](MlpGemm product, float* c) {
    product.a = a->data();
    product.b = b->data();
    if (product.epilogue == kMlpReluMask) {
      product.mask = side->data();
    } else if (product.epilogue != kMlpStore) {
      product.bias = side->data();
    }
    product.c = c;
    return product;
  };
  return {
      name,
      config,
      static_cast<std::uint64_t>(g.m),
      static_cast<std::uint64_t>(g.ldc),
      [=, &k](float* c) { return k.gemm(config, bind(g, c)); },
      [=, &k](float* c, TraceRecord* trace) { return k.gemm_traced(config, bind(g, c), trace); }};
}

}  // namespace

std::vector<MappingProbe> mlp_mapping_probes() {
  const int batch = 70, in = 13, out = 67;
  std::vector<MappingProbe> probes;

  MlpGemm forward;  // A = X (batch × in), B = Wᵀ read in place, relu(· + b)
  forward.m = batch;
  forward.n = out;
  forward.k = in;
  forward.a_row = in;
  forward.a_col = 1;
  forward.b_row = 1;
  forward.b_col = in + 1;
  forward.ldc = out;
  forward.epilogue = kMlpBiasRelu;
  forward.bias_stride = in + 1;
  probes.push_back(
      product_probe("forward, bias + ReLU", forward, batch * in, out * (in + 1), out * (in + 1)));

  MlpGemm logits = forward;  // the last layer keeps its sums
  logits.epilogue = kMlpBias;
  probes.push_back(
      product_probe("logits, bias", logits, batch * in, out * (in + 1), out * (in + 1)));

  MlpGemm weights;  // [dW | db] = dZᵀ · [A | 1]: dZ read transposed, the ones column last
  weights.m = out;
  weights.n = in + 1;
  weights.k = batch;
  weights.a_row = 1;
  weights.a_col = out;
  weights.b_row = in;
  weights.b_col = 1;
  weights.b_ones_col = in;
  weights.ldc = in + 1;
  probes.push_back(product_probe("weight gradient", weights, batch * out, batch * in, 0));

  MlpGemm inputs;  // dZ below = (dZ · W) where the ReLU fired
  inputs.m = batch;
  inputs.n = in;
  inputs.k = out;
  inputs.a_row = out;
  inputs.a_col = 1;
  inputs.b_row = in + 1;
  inputs.b_col = 1;
  inputs.ldc = in;
  inputs.epilogue = kMlpReluMask;
  probes.push_back(
      product_probe("input gradient, ReLU mask", inputs, batch * out, out * (in + 1), batch * in));
  return probes;
}

}  // namespace tl::kernels
