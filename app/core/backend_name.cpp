#include "core/backend_name.hpp"

namespace tl {

Result<BackendName> parse_backend_name(std::string_view text) {
  if (text == "auto") return BackendName::kAuto;
  if (text == "gpu" || text == "cuda") return BackendName::kGpu;
  if (text == "gpu-copy" || text == "copy") return BackendName::kGpuCopy;
  if (text == "emulator") return BackendName::kEmulator;
  return invalid_argument("unknown backend '" + std::string(text) + "': expected " +
                          std::string(kBackendNames));
}

std::string_view to_string(BackendName backend) {
  switch (backend) {
    case BackendName::kAuto:
      return "auto";
    case BackendName::kGpu:
      return "gpu";
    case BackendName::kGpuCopy:
      return "gpu-copy";
    case BackendName::kEmulator:
      return "emulator";
  }
  return "auto";
}

}  // namespace tl
