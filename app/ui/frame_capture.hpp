#pragma once
// Saving the part of a rendered frame that a panel asked for (CaptureRequest) as a PNG.

#include "app_state.hpp"
#include "core/image_crop.hpp"
#include "core/result.hpp"

namespace tl::ui {

// `frame`: the whole rendered frame, top row first. `scale_x`/`scale_y` turn the request's UI
// coordinates into the frame's pixels (framebuffer size over display size: 2 on a HiDPI screen).
Status save_frame_part(const CaptureRequest& request, const RgbaImage& frame, float scale_x,
                       float scale_y);

}  // namespace tl::ui
