#include "render/gl_check.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <string>

#include "core/trace_record.hpp"

namespace tl::render {

void clear_gl_errors() {
  // Bounded: a lost context may report the same error forever.
  for (int i = 0; i < 64 && glGetError() != GL_NO_ERROR; ++i) {
  }
}

std::string_view gl_error_name(std::uint32_t error) {
  switch (error) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW:
      return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW:
      return "GL_STACK_OVERFLOW";
    default:
      return "an unknown OpenGL error";
  }
}

Status check_gl(std::string_view what) {
  const GLenum first = glGetError();
  if (first == GL_NO_ERROR) return Status::ok();
  clear_gl_errors();
  if (first == GL_OUT_OF_MEMORY) {
    return Error{ErrorKind::kOutOfMemory, "the graphics driver ran out of memory while " +
                                              std::string(what) + "; try fewer elements"};
  }
  return Error{ErrorKind::kGraphicsError, "OpenGL reported " + std::string(gl_error_name(first)) +
                                              " while " + std::string(what)};
}

std::uint64_t max_records_per_binding() {
  GLint64 max_block_bytes = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block_bytes);
  // GL 4.3 guarantees at least 2^24 bytes; trust nothing smaller.
  const auto bytes = std::max<std::uint64_t>(
      static_cast<std::uint64_t>(std::max<GLint64>(max_block_bytes, 0)), std::uint64_t{1} << 24);
  std::uint64_t records = 1;
  while (records * 2 * sizeof(TraceRecord) <= bytes) records *= 2;
  return records;
}

}  // namespace tl::render
