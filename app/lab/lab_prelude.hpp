#pragma once
// The text of app/lab/prelude/threadlab_lab.cuh, compiled into the app: the worker hands it to
// NVRTC as a header and writes it beside the emulator's sources, so an installed ThreadLab needs
// no source tree.

#include <string_view>

namespace tl::lab {

[[nodiscard]] std::string_view lab_prelude_source();

}  // namespace tl::lab
