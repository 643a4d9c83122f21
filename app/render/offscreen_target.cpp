#include "render/offscreen_target.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "render/gl_check.hpp"

namespace tl::render {

Result<std::unique_ptr<OffscreenTarget>> OffscreenTarget::create(int width, int height) {
  auto target = std::unique_ptr<OffscreenTarget>(new OffscreenTarget());
  glGenFramebuffers(1, &target->framebuffer_);
  glGenTextures(1, &target->texture_);
  TL_RETURN_IF_ERROR(target->resize(width, height));
  return target;
}

OffscreenTarget::~OffscreenTarget() {
  if (texture_ != 0) glDeleteTextures(1, &texture_);
  if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
}

Status OffscreenTarget::resize(int width, int height) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  if (width <= 0 || height <= 0 || width > max_size || height > max_size) {
    return invalid_argument("an image of " + std::to_string(width) + " x " +
                            std::to_string(height) +
                            " pixels cannot be rendered: each side must be between 1 and " +
                            std::to_string(max_size) + " on this graphics driver");
  }
  if (width == width_ && height == height_) return Status::ok();
  clear_gl_errors();
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  // Nearest: cells must stay crisp when the UI shows the texture at its own size.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  TL_RETURN_IF_ERROR(check_gl("allocating a " + std::to_string(width) + " x " +
                              std::to_string(height) + " render target"));
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  const GLenum framebuffer_status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (framebuffer_status != GL_FRAMEBUFFER_COMPLETE) {
    return Error{ErrorKind::kGraphicsError,
                 "the graphics driver cannot render into an RGBA8 texture (framebuffer status " +
                     std::to_string(framebuffer_status) + ")"};
  }
  width_ = width;
  height_ = height;
  return Status::ok();
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width_, height_);
}

Result<std::vector<std::uint8_t>> OffscreenTarget::read_pixels() const {
  const auto row_bytes = static_cast<std::size_t>(width_) * 4;
  std::vector<std::uint8_t> pixels(row_bytes * static_cast<std::size_t>(height_));
  clear_gl_errors();
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  TL_RETURN_IF_ERROR(check_gl("reading back the rendered image"));
  // GL returns the bottom row first; images and PNG files start at the top.
  std::vector<std::uint8_t> row(row_bytes);
  for (int top = 0, bottom = height_ - 1; top < bottom; ++top, --bottom) {
    std::uint8_t* top_row = pixels.data() + static_cast<std::size_t>(top) * row_bytes;
    std::uint8_t* bottom_row = pixels.data() + static_cast<std::size_t>(bottom) * row_bytes;
    std::memcpy(row.data(), top_row, row_bytes);
    std::memcpy(top_row, bottom_row, row_bytes);
    std::memcpy(bottom_row, row.data(), row_bytes);
  }
  return pixels;
}

}  // namespace tl::render
