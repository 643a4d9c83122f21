#include "core/image_crop.hpp"

#include <algorithm>
#include <string>

namespace tl {

Result<RgbaImage> crop_rgba(const RgbaImage& image, ImageRect rect) {
  if (image.width <= 0 || image.height <= 0 ||
      image.pixels.size() !=
          static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4) {
    return invalid_argument("the image's pixels do not match its size");
  }
  const int left = std::clamp(rect.x, 0, image.width);
  const int top = std::clamp(rect.y, 0, image.height);
  const int right = std::clamp(rect.x + rect.width, 0, image.width);
  const int bottom = std::clamp(rect.y + rect.height, 0, image.height);
  if (right <= left || bottom <= top) {
    return invalid_argument("nothing to save: the area " + std::to_string(rect.width) + "×" +
                            std::to_string(rect.height) + " is outside the image");
  }
  RgbaImage out;
  out.width = right - left;
  out.height = bottom - top;
  out.pixels.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height) * 4);
  const std::size_t row_bytes = static_cast<std::size_t>(out.width) * 4;
  for (int y = 0; y < out.height; ++y) {
    const std::size_t from =
        (static_cast<std::size_t>(top + y) * static_cast<std::size_t>(image.width) +
         static_cast<std::size_t>(left)) *
        4;
    std::copy_n(
        image.pixels.begin() + static_cast<std::ptrdiff_t>(from), row_bytes,
        out.pixels.begin() + static_cast<std::ptrdiff_t>(row_bytes * static_cast<std::size_t>(y)));
  }
  return out;
}

}  // namespace tl
