#pragma once
// The timing table's row labels without the backend: the lessons name device rows for the CLI and
// the exports, where each row stands alone ("GPU kernel", "Emulated kernel (CPU)", "copy A, B
// (emulated)"); in the window's table the header names the backend once, and each row keeps what
// it times ("kernel", "end to end", "copy A, B").

#include <string>
#include <string_view>

namespace tl {

// `name` without a leading "GPU " or "Emulated " and a trailing " (CPU)" or " (emulated)". Host
// rows ("CPU, 1 thread") and names that carry no backend come back as they were.
[[nodiscard]] std::string row_label_without_backend(std::string_view name);

// True where `name` carried the backend (the emulator's device rows, the GPU's).
[[nodiscard]] bool names_backend(std::string_view name);

}  // namespace tl
