// The scratch SAXPY lesson's timed/traced pair under the mapping probe (kernels/mapping_probe.hpp).

#include <string>
#include <utility>
#include <vector>

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/12_saxpy/kernels/saxpy_kernels.hpp"

namespace tl::kernels {

std::vector<MappingProbe> saxpy_mapping_probes() {
  std::vector<MappingProbe> probes;
  // A last block only partly used, and a grid with a whole block past the end.
  for (const auto& shape : {std::pair{1000, LaunchConfig{{11, 1, 1}, {96, 1, 1}}},
                            std::pair{37, LaunchConfig{{3, 1, 1}, {32, 1, 1}}}}) {
    // Named copies, not a structured binding: the lambdas capture them (clang 14 refuses to
    // capture bindings).
    const int n = shape.first;
    const LaunchConfig config = shape.second;
    auto x = probe_inputs(n, 1), y = probe_inputs(n, 2);
    const SaxpyKernels& k = emulator_kernels().get<SaxpyKernels>();
    // Out of place: the probe's output is not y, so the timed kernel never reads what it wrote.
    probes.push_back(
        {"saxpy n = " + std::to_string(n) + " on " + config.to_string(), config, 1,
         static_cast<std::uint64_t>(n),
         [=, &k](float* out) { return k.saxpy(config, n, 2.0f, x->data(), y->data(), out); },
         [=, &k](float* out, TraceRecord* trace) {
           return k.saxpy_traced(config, n, 2.0f, x->data(), y->data(), out, trace);
         }});
  }
  return probes;
}

}  // namespace tl::kernels
