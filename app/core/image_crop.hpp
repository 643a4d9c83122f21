#pragma once
// A rectangle cut out of an RGBA image: the plot exported as PNG is the plot's part of the frame.

#include <cstdint>
#include <vector>

#include "core/result.hpp"

namespace tl {

struct ImageRect {
  int x = 0;  // left, in pixels from the image's left edge
  int y = 0;  // top, in pixels from the image's top row
  int width = 0;
  int height = 0;
};

struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 4 bytes, top row first
};

// The part of `image` inside `rect`, clipped to the image; kInvalidArgument when nothing is left or
// the pixel buffer does not match the size.
Result<RgbaImage> crop_rgba(const RgbaImage& image, ImageRect rect);

}  // namespace tl
