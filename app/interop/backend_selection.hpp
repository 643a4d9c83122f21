#pragma once
// The fallback chain, decided once at start-up and shown to the user with its reason:
//   CUDA + interop (GL on the CUDA GPU) → CUDA + copy (GL elsewhere) → CPU emulator (no usable
//   CUDA).

#include <memory>
#include <string>

#include "compute/device.hpp"
#include "core/device_info.hpp"
#include "core/result.hpp"

namespace tl::interop {

enum class BackendPreference {
  kAuto,      // the best that works
  kCuda,      // CUDA, interop if possible, else copy; an error if there is no usable GPU
  kCudaCopy,  // CUDA, never interop (to compare the two paths)
  kEmulator,  // the CPU emulator even when a GPU is present
};

// Parses "auto", "cuda", "copy" or "emulator".
Result<BackendPreference> parse_backend_preference(const std::string& text);

struct BackendChoice {
  BackendKind kind = BackendKind::kEmulator;
  std::string reason;  // one sentence: why this backend
  std::unique_ptr<compute::Device> device;
};

// `gl_context_current`: an OpenGL context is current on this thread, so interop can be probed.
// Without one (the command line), a CUDA device is reported as the copy path.
Result<BackendChoice> choose_backend(BackendPreference preference, bool gl_context_current);

}  // namespace tl::interop
