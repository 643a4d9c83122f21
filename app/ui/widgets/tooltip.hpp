#pragma once
// Tooltips that wrap at words: ImGui's SetTooltip lays its text out on one line, so a long reason
// ran past the window's edge (the roofline's "rows not plotted") or was cut mid-word. This one
// wraps at about 35 characters' width, less where the window is narrower.

#include <imgui.h>

namespace tl::ui {

void wrapped_tooltip(const char* format, ...) IM_FMTARGS(1);

}  // namespace tl::ui
