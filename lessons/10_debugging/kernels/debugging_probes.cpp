// Lesson 10's right kernel under the mapping probe (kernels/mapping_probe.hpp). The planted bugs
// are not probed: two blocks of the wrong index write one element in either order, and the others
// write past the output or read it, which the probe's watched output cannot hold.

#include <string>
#include <utility>
#include <vector>

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/10_debugging/kernels/debugging_kernels.hpp"

namespace tl::kernels {

std::vector<MappingProbe> debugging_mapping_probes() {
  std::vector<MappingProbe> probes;
  // A last block only partly used, and a grid with a whole block past the end.
  for (const auto& shape : {std::pair{1000, LaunchConfig{{11, 1, 1}, {96, 1, 1}}},
                            std::pair{37, LaunchConfig{{3, 1, 1}, {32, 1, 1}}}}) {
    // Named copies, not a structured binding: the lambdas capture them (clang 14 refuses to
    // capture bindings).
    const int n = shape.first;
    const LaunchConfig config = shape.second;
    auto in = probe_inputs(n, 1);
    const DebuggingKernels& k = emulator_kernels().get<DebuggingKernels>();
    probes.push_back({"difference n = " + std::to_string(n) + " on " + config.to_string(), config,
                      1, static_cast<std::uint64_t>(n),
                      [=, &k](float* out) { return k.difference(config, n, in->data(), out); },
                      [=, &k](float* out, TraceRecord* trace) {
                        return k.difference_traced(config, n, in->data(), out, trace);
                      }});
  }
  return probes;
}

}  // namespace tl::kernels
