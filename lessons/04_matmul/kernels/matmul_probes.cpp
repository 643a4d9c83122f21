// Lesson 4's timed/traced pairs under the mapping probe (kernels/mapping_probe.hpp): every rung of
// the ladder, every tile size of the tiled kernel.

#include <string>

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"

namespace tl::kernels {
namespace {

std::uint32_t blocks_over(int size, std::uint32_t per_block) {
  return (static_cast<std::uint32_t>(size) + per_block - 1) / per_block;
}

std::string sizes(int m, int n, int k) {
  return std::to_string(m) + " × " + std::to_string(n) + " × " + std::to_string(k);
}

}  // namespace

std::vector<MappingProbe> matmul_mapping_probes() {
  const MatmulKernels& kt = emulator_kernels().get<kernels::MatmulKernels>();
  std::vector<MappingProbe> probes;
  // Sizes that no tile divides: partial blocks on every edge.
  auto add = [&](std::string name, LaunchConfig config, int m, int n, int k, auto timed,
                 auto traced) {
    auto a = probe_inputs(static_cast<std::size_t>(m) * k, 1);
    auto b = probe_inputs(static_cast<std::size_t>(k) * n, 2);
    probes.push_back({name + " " + sizes(m, n, k) + " on " + config.to_string(), config,
                      static_cast<std::uint64_t>(m), static_cast<std::uint64_t>(n),
                      [=](float* c) { return timed(config, a->data(), b->data(), c, m, n, k); },
                      [=](float* c, TraceRecord* trace) {
                        return traced(config, a->data(), b->data(), c, m, n, k, trace);
                      }});
  };
  const int m = 37, n = 29, k = 13;
  add("matmul_uncoalesced", {{blocks_over(m, 8), blocks_over(n, 4), 1}, {8, 4, 1}}, m, n, k,
      kt.uncoalesced, kt.uncoalesced_traced);
  add("matmul_naive", {{blocks_over(n, 8), blocks_over(m, 4), 1}, {8, 4, 1}}, m, n, k, kt.naive,
      kt.naive_traced);
  for (const int tile : {8, 16, 32}) {
    const auto t = static_cast<std::uint32_t>(tile);
    add(
        "matmul_tiled<" + std::to_string(tile) + ">",
        {{blocks_over(n, t), blocks_over(m, t), 1}, {t, t, 1}}, m, n, k,
        [&kt, tile](const LaunchConfig& config, const float* a, const float* b, float* c, int mm,
                    int nn, int kk) { return kt.tiled(config, tile, a, b, c, mm, nn, kk); },
        [&kt, tile](const LaunchConfig& config, const float* a, const float* b, float* c, int mm,
                    int nn, int kk, TraceRecord* trace) {
          return kt.tiled_traced(config, tile, a, b, c, mm, nn, kk, trace);
        });
  }
  for (const kernels::MatmulKernel kernel :
       {kernels::MatmulKernel::kRegtile1d, kernels::MatmulKernel::kRegtile2d,
        kernels::MatmulKernel::kVectorized, kernels::MatmulKernel::kWarptile,
        kernels::MatmulKernel::kPipelined}) {
    const kernels::MatmulBlockTile shape = *kernels::matmul_block_tile(kernel);
    // Two block rows, the second mostly past the edge; one partial block column.
    const int rows = static_cast<int>(shape.tile_m) + 6, cols = 20;
    add(
        "matmul_" + std::string(kernels::to_string(kernel)),
        {{blocks_over(cols, shape.tile_n), blocks_over(rows, shape.tile_m), 1},
         {shape.threads, 1, 1}},
        rows, cols, k,
        [&kt, kernel](const LaunchConfig& config, const float* a, const float* b, float* c, int mm,
                      int nn,
                      int kk) { return kt.block_tiled(config, kernel, a, b, c, mm, nn, kk); },
        [&kt, kernel](const LaunchConfig& config, const float* a, const float* b, float* c, int mm,
                      int nn, int kk, TraceRecord* trace) {
          return kt.block_tiled_traced(config, kernel, a, b, c, mm, nn, kk, trace);
        });
  }
  return probes;
}

}  // namespace tl::kernels
