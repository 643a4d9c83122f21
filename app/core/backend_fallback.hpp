#pragma once
// The fallback chain at run time. At start-up the backend is chosen by probing (interop → copy →
// emulator); a path can still fail later, for instance when a trace buffer grown for a larger
// launch cannot be registered with CUDA. Then the next path down the chain takes over, the launch
// is tried once more, and the status bar says why: the lesson goes on with a slower picture, not
// none.

#include <optional>
#include <string>

#include "core/device_info.hpp"
#include "core/result.hpp"

namespace tl {

// The path to switch to after a traced launch on `current` failed with `error`, or none when the
// error is not the trace path's (a refused configuration, out of memory) or is a lost GPU (a sticky
// error: the device is reset, or the emulator takes over, elsewhere).
[[nodiscard]] std::optional<BackendKind> fallback_after_trace_error(BackendKind current,
                                                                    const Error& error);

// The one sentence the status bar shows for the switch.
[[nodiscard]] std::string describe_trace_fallback(BackendKind to, const Error& error);

}  // namespace tl
