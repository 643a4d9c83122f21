#pragma once
// Draws one warp-level request (memory_request_view.hpp) where the ImGui cursor is: the Memory
// tab's and the Kernel Lab's picture. Computes nothing; the caller's controller moves between
// requests on the arrow the learner pressed.

#include "memory_request_view.hpp"

namespace tl::ui {

enum class RequestStep { kNone, kPrevious, kNext };

// Returns the arrow pressed this frame (kNone: neither, or one that leads nowhere).
[[nodiscard]] RequestStep draw_memory_request(const MemoryRequestView& view);

}  // namespace tl::ui
