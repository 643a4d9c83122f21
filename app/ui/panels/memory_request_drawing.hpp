#pragma once
// Draws one warp-level request (memory_request_view.hpp) where the ImGui cursor is: the Memory
// tab's and the Kernel Lab's picture. Computes nothing; the caller's controller moves between
// requests on the arrow the learner pressed.

#include "memory_request_view.hpp"

namespace tl::ui {

enum class RequestStep { kNone, kPrevious, kNext };

// Returns the arrow pressed this frame (kNone: neither, or one that leads nowhere).
[[nodiscard]] RequestStep draw_memory_request(const MemoryRequestView& view);

// The picture alone, without the arrows and title: its cost, the lanes, their sectors or banks,
// hovers. What `threadlab render --memory-line` draws (memory_request_render.hpp).
void draw_memory_request_picture(const MemoryRequestView& view);

}  // namespace tl::ui
