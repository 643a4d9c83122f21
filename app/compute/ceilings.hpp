#pragma once
// Measures the device's ceilings (core/device_ceilings.hpp): a device-to-device copy and, on a GPU,
// cuBLAS SGEMM, each timed on the device's own clock, warm-up excluded.

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>

#include "compute/device.hpp"
#include "core/device_ceilings.hpp"

namespace tl::compute {

Result<DeviceCeilings> measure_ceilings(Device& device, const std::atomic<bool>* cancel = nullptr);

// The ceilings of `device` from the cache at `cache_path` when it has them, else measured and
// stored there. A cache that cannot be read or written does not stop the measurement: its reason
// goes to `warning` (left empty when all went well). No path: measured, not cached.
Result<DeviceCeilings> cached_ceilings(Device& device,
                                       const std::optional<std::filesystem::path>& cache_path,
                                       std::string& warning,
                                       const std::atomic<bool>* cancel = nullptr);

}  // namespace tl::compute
