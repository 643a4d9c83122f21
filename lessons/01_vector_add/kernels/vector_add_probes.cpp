// Lesson 1's timed/traced pair under the mapping probe (kernels/mapping_probe.hpp).

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"

namespace tl::kernels {

std::vector<MappingProbe> vector_add_mapping_probes() {
  std::vector<MappingProbe> probes;
  // A last block only partly used, and a grid with a whole block past the end.
  for (const auto& shape : {std::pair{1000, LaunchConfig{{11, 1, 1}, {96, 1, 1}}},
                            std::pair{37, LaunchConfig{{3, 1, 1}, {32, 1, 1}}}}) {
    // Named copies, not a structured binding: the lambdas below capture them, which clang 14 (the
    // sanitizer tree's compiler) does not allow for bindings.
    const int n = shape.first;
    const LaunchConfig config = shape.second;
    auto a = probe_inputs(n, 1), b = probe_inputs(n, 2);
    const VectorAddKernels& k = emulator_kernels().get<kernels::VectorAddKernels>();
    probes.push_back({"vector_add n = " + std::to_string(n) + " on " + config.to_string(), config,
                      1, static_cast<std::uint64_t>(n),
                      [=, &k](float* c) { return k.add(config, a->data(), b->data(), c, n); },
                      [=, &k](float* c, TraceRecord* trace) {
                        return k.add_traced(config, a->data(), b->data(), c, n, trace);
                      }});
  }
  return probes;
}

}  // namespace tl::kernels
