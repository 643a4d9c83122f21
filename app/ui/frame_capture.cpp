#include "frame_capture.hpp"

#include <cmath>

#include "render/png_writer.hpp"

namespace tl::ui {

Status save_frame_part(const CaptureRequest& request, const RgbaImage& frame, float scale_x,
                       float scale_y) {
  const auto pixel = [](float value, float scale) {
    return static_cast<int>(std::lround(value * scale));
  };
  const ImageRect rect{pixel(request.x, scale_x), pixel(request.y, scale_y),
                       pixel(request.width, scale_x), pixel(request.height, scale_y)};
  auto cut = crop_rgba(frame, rect);
  if (!cut) return cut.status();
  return render::write_png(request.path, cut->width, cut->height, cut->pixels);
}

}  // namespace tl::ui
