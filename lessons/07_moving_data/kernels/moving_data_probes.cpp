// Lesson 7's timed/traced pair under the mapping probe (kernels/mapping_probe.hpp).

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/07_moving_data/kernels/moving_data_kernels.hpp"

namespace tl::kernels {

std::vector<MappingProbe> moving_data_mapping_probes() {
  std::vector<MappingProbe> probes;
  // A last block only partly used, and a grid with a whole block past the end.
  for (const auto& shape : {std::pair{1000, LaunchConfig{{8, 1, 1}, {128, 1, 1}}},
                            std::pair{37, LaunchConfig{{3, 1, 1}, {32, 1, 1}}}}) {
    // Named copies, not a structured binding: the lambdas below capture them, which clang 14 (the
    // sanitizer tree's compiler) does not allow for bindings.
    const int n = shape.first;
    const LaunchConfig config = shape.second;
    auto in = probe_inputs(n, 3);
    const MovingDataKernels& k = emulator_kernels().get<kernels::MovingDataKernels>();
    probes.push_back({"transform_chunk n = " + std::to_string(n) + " on " + config.to_string(),
                      config, 1, static_cast<std::uint64_t>(n),
                      [=, &k](float* out) { return k.transform(config, in->data(), out, n, 3); },
                      [=, &k](float* out, TraceRecord* trace) {
                        return k.transform_traced(config, in->data(), out, n, 3, trace);
                      }});
  }
  return probes;
}

}  // namespace tl::kernels
