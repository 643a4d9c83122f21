#include "render/png_writer.hpp"

#include <stb_image_write.h>

#include <string>

namespace tl::render {

Status write_png(const std::filesystem::path& path, int width, int height,
                 std::span<const std::uint8_t> rgba) {
  if (width <= 0 || height <= 0) {
    return invalid_argument("a PNG needs a positive size, not " + std::to_string(width) + " x " +
                            std::to_string(height));
  }
  const std::size_t expected =
      static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
  if (rgba.size() != expected) {
    return invalid_argument("a " + std::to_string(width) + " x " + std::to_string(height) +
                            " RGBA image has " + std::to_string(expected) + " bytes, not " +
                            std::to_string(rgba.size()));
  }
  // stb writes through fopen and reports only success or failure; the usual reasons are given.
  const int stride = width * 4;
  if (stbi_write_png(path.c_str(), width, height, 4, rgba.data(), stride) == 0) {
    return Error{ErrorKind::kIoError, "could not write the PNG file '" + path.string() +
                                          "' (does the folder exist, and may it be written to?)"};
  }
  return Status::ok();
}

}  // namespace tl::render
