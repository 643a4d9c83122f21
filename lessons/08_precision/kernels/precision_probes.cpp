// Lesson 8's timed/traced pair under the mapping probe (kernels/mapping_probe.hpp): the matrix
// product in each storage type and accumulator, on a size no 16 × 16 tile divides.

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/08_precision/kernels/precision_kernels.hpp"

namespace tl::kernels {

std::vector<MappingProbe> precision_mapping_probes() {
  const PrecisionKernels& k = emulator_kernels().get<kernels::PrecisionKernels>();
  const int m = 37, n = 29, kk = 13;
  const auto a_floats = probe_inputs(static_cast<std::size_t>(m) * kk, 1);
  const auto b_floats = probe_inputs(static_cast<std::size_t>(kk) * n, 2);
  // The inputs in each storage type: floats for FP32 and TF32, 16-bit words for FP16 and BF16.
  auto stored = [](const std::vector<float>& values, FloatFormat format) {
    auto bytes = std::make_shared<std::vector<std::uint8_t>>(values.size() * 4);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const float rounded = numeric::round_float_to(format, values[i]);
      if (numeric::layout(format).storage_bits == 32) {
        std::memcpy(bytes->data() + 4 * i, &rounded, 4);
      } else {
        const auto word = static_cast<std::uint16_t>(numeric::format_bits(format, rounded));
        std::memcpy(bytes->data() + 2 * i, &word, 2);
      }
    }
    return bytes;
  };
  const LaunchConfig config{{(n + 15) / 16, (m + 15) / 16, 1}, {16, 16, 1}};
  std::vector<MappingProbe> probes;
  for (FloatFormat format : numeric::kFloatFormats) {
    for (Accumulate accumulate : {Accumulate::kSameFormat, Accumulate::kFp32}) {
      if (!check_accumulator(format, accumulate).is_ok()) continue;
      if (format == FloatFormat::kFp32 && accumulate == Accumulate::kSameFormat) continue;
      const std::string name = "matmul_in " + std::string(numeric::to_string(format)) +
                               (accumulate == Accumulate::kFp32 ? ", FP32 sums" : ", own sums");
      auto a = stored(*a_floats, format);
      auto b = stored(*b_floats, format);
      probes.push_back({name + " 37 × 29 × 13 on " + config.to_string(), config,
                        static_cast<std::uint64_t>(m), static_cast<std::uint64_t>(n),
                        [=, &k](float* c) {
                          return k.matmul(format, accumulate, config, a->data(), b->data(), c, m, n,
                                          kk);
                        },
                        [=, &k](float* c, TraceRecord* trace) {
                          return k.matmul_traced(format, accumulate, config, a->data(), b->data(),
                                                 c, m, n, kk, trace);
                        }});
    }
  }
  return probes;
}

}  // namespace tl::kernels
