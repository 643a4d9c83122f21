#pragma once
// `threadlab render --memory-line N`: one warp's request of a recorded lesson kernel drawn to a
// PNG, headless, by the Memory tab's own drawing (panels/memory_panel.cpp,
// draw_memory_request_picture) on the tab's own layout (memory_tab_kernel and memory_request_view,
// over core/memory/request_picture.hpp), so that the file and the tab show the same picture. The
// app hands this function to the command line (app/main.cpp), which records the kernel: the CLI
// does not include the UI.

#include <cstddef>
#include <string>

#include "core/result.hpp"
#include "lab/lesson_memory.hpp"

namespace tl::ui {

// Draws request `request` (0: the first) among those of source line `line` of `kernel` (every
// row of that line in the table's order: a line that loads and stores has its loads' requests
// first) into a PNG of `width` pixels by `height` (0: as tall as the picture), on an EGL context
// of its own. Returns one line saying what was drawn and the image's size. A line without
// accesses or a request past the line's are kInvalidArgument errors naming what there is ("line
// 12 has no memory access; access lines: 17"); no headless OpenGL or an unwritable file are
// errors of their own kinds.
[[nodiscard]] Result<std::string> render_memory_request(const lab::LessonKernelMemory& kernel,
                                                        int line, std::size_t request,
                                                        const std::string& path, int width,
                                                        int height);

}  // namespace tl::ui
