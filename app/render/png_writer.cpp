#include "render/png_writer.hpp"

#include <stb_image_write.h>

#include <string>

#include "core/user_files.hpp"

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
  // Encoded in memory and written by the one checked routine: stb's own fopen path never checks
  // fwrite or fclose, so a full disk used to report success (F9 of the reliability review).
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  const int stride = width * 4;
  if (stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), stride) == 0) {
    return Error{ErrorKind::kIoError, "could not encode the PNG for '" + path.string() + "'"};
  }
  TL_RETURN_IF_ERROR(write_output_file(path, png));
  return Status::ok();
}

}  // namespace tl::render
