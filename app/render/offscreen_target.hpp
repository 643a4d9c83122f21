#pragma once
// A framebuffer object with one RGBA8 colour texture: where the mapping view is drawn, shown in the
// UI with ImGui::Image and read back for PNG export. Needs a current OpenGL context.
//
// The texture is stored bottom row first, as GL does: pass uv0 = (0, 1), uv1 = (1, 0) to
// ImGui::Image to show it upright. read_pixels() returns rows top first.

#include <cstdint>
#include <memory>
#include <vector>

#include "core/result.hpp"

namespace tl::render {

class OffscreenTarget {
 public:
  static Result<std::unique_ptr<OffscreenTarget>> create(int width, int height);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  // Reallocates the texture when the size changes; the contents are then undefined.
  Status resize(int width, int height);
  // Binds the framebuffer for drawing and sets the viewport to cover it.
  void bind() const;

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] std::uint32_t color_texture() const { return texture_; }
  [[nodiscard]] std::uint32_t framebuffer() const { return framebuffer_; }

  // RGBA, 4 bytes per pixel, top row first.
  Result<std::vector<std::uint8_t>> read_pixels() const;

 private:
  OffscreenTarget() = default;

  std::uint32_t framebuffer_ = 0;
  std::uint32_t texture_ = 0;
  int width_ = 0;
  int height_ = 0;
};

}  // namespace tl::render
