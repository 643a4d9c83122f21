#pragma once
// The backend names every command takes (`--backend`): one set for run, render, gui, demo, soak,
// info, lab and train, so that what works for one works for all. The earlier names stay as
// aliases, so that scripts and links written for them keep working: `cuda` for gpu, `copy` for
// gpu-copy.

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace tl {

enum class BackendName {
  kAuto,      // a CUDA GPU if there is one, else the CPU emulator
  kGpu,       // the CUDA GPU, traces drawn through CUDA-OpenGL interop where a window has GL
  kGpuCopy,   // the CUDA GPU, traces copied through the host instead of interop
  kEmulator,  // the CPU emulator
};

// "auto, gpu, gpu-copy or emulator": for help texts and messages.
inline constexpr std::string_view kBackendNames = "auto, gpu, gpu-copy or emulator";

// A name or an alias; anything else is kInvalidArgument naming the choices.
[[nodiscard]] Result<BackendName> parse_backend_name(std::string_view text);
[[nodiscard]] std::string_view to_string(BackendName backend);

}  // namespace tl
