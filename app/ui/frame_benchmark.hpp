#pragma once
// Whole UI frames timed headless on EGL: what a user's frame rate is while a traced kernel over
// millions of elements is launched and drawn every frame (issue: 60 fps at 16M elements).

#include "core/gui_launcher.hpp"

namespace tl::ui {

Result<UiFrameTimes> measure_ui_frames(const UiFrameRequest& request);

}  // namespace tl::ui
