#include "device_info.hpp"

namespace tl {

const char* to_string(BackendKind kind) {
  switch (kind) {
    case BackendKind::kCudaInterop:
      return "CUDA + GL interop";
    case BackendKind::kCudaCopy:
      return "CUDA + copy";
    case BackendKind::kEmulator:
      return "CPU emulator";
  }
  return "unknown";
}

std::string reason_headline(const std::string& reason) {
  const std::size_t end = reason.find_first_of(";(:");
  std::string headline = reason.substr(0, end);
  while (!headline.empty() && headline.back() == ' ') headline.pop_back();
  return headline;
}

double DeviceInfo::theoretical_bandwidth_gbps() const {
  // Double data rate: two transfers per memory clock.
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_width_bits / 8.0) / 1e9;
}

DeviceLimits standard_cuda_limits() {
  return DeviceLimits{};
}

}  // namespace tl
