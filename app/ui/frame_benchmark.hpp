#pragma once
// Whole UI frames timed headless on EGL: what a user's frame rate is while a traced kernel over
// millions of elements is launched and drawn every frame (issue: 60 fps at 16M elements).

#include "cli/cli.hpp"

namespace tl::ui {

Result<cli::UiFrameTimes> measure_ui_frames(const cli::UiFrameRequest& request);

}  // namespace tl::ui
