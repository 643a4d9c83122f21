#include "render/class_map.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <string>
#include <utility>

#include "core/format.hpp"
#include "render/gl_check.hpp"
#include "render/shader_program.hpp"
#include "render/shader_sources.hpp"

namespace tl::render {

struct ClassMap::Kernel {
  ShaderProgram program;
};

ClassMap::ClassMap() = default;

ClassMap::~ClassMap() {
  release();
}

void ClassMap::release() {
  if (buffer_ != 0) glDeleteBuffers(1, &buffer_);
  if (texture_ != 0) glDeleteTextures(1, &texture_);
  buffer_ = 0;
  texture_ = 0;
  capacity_ = 0;
  side_ = 0;
  kernel_.reset();
}

Status ClassMap::reserve(std::size_t floats) {
  if (buffer_ != 0 && floats <= capacity_) return Status::ok();
  const std::size_t grown = std::max<std::size_t>(floats, 1);
  clear_gl_errors();
  if (buffer_ == 0) glGenBuffers(1, &buffer_);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
  glBufferData(GL_COPY_WRITE_BUFFER, static_cast<GLsizeiptr>(grown * sizeof(float)), nullptr,
               GL_DYNAMIC_DRAW);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  ++generation_;
  if (Status status = check_gl("allocating a class map of " + format_count(grown) + " floats");
      !status) {
    glDeleteBuffers(1, &buffer_);
    buffer_ = 0;
    capacity_ = 0;
    return status;
  }
  capacity_ = grown;
  return Status::ok();
}

Status ClassMap::upload(std::span<const float> probabilities) {
  TL_RETURN_IF_ERROR(reserve(probabilities.size()));
  clear_gl_errors();
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
  glBufferSubData(GL_COPY_WRITE_BUFFER, 0, static_cast<GLsizeiptr>(probabilities.size_bytes()),
                  probabilities.data());
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return check_gl("uploading a class map");
}

Result<std::vector<float>> ClassMap::read(std::size_t floats) const {
  if (floats > capacity_) {
    return invalid_argument("the class map holds " + format_count(capacity_) + " floats, not " +
                            format_count(floats));
  }
  std::vector<float> values(floats);
  clear_gl_errors();
  glBindBuffer(GL_COPY_READ_BUFFER, buffer_);
  glGetBufferSubData(GL_COPY_READ_BUFFER, 0, static_cast<GLsizeiptr>(floats * sizeof(float)),
                     values.data());
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  TL_RETURN_IF_ERROR(check_gl("reading the class map back"));
  return values;
}

Status ClassMap::colour(int side, int classes,
                        std::span<const std::array<std::uint8_t, 3>> colours) {
  if (side < 1 || classes < 2 || classes > kMaxClassMapClasses ||
      colours.size() < static_cast<std::size_t>(classes)) {
    return invalid_argument(
        "a class map needs a side of at least 1 and 2 to 16 classes with a "
        "colour each");
  }
  const std::size_t floats = static_cast<std::size_t>(side) * side * classes;
  if (floats > capacity_) {
    return invalid_argument("the class map holds " + format_count(capacity_) +
                            " floats; a side of " + std::to_string(side) + " with " +
                            std::to_string(classes) + " classes needs " + format_count(floats));
  }
  if (!kernel_) {
    auto program = ShaderProgram::compute("class map", {shader_source::kClassMapComp});
    if (!program) return program.error();
    kernel_ = std::make_unique<Kernel>(Kernel{std::move(*program)});
  }
  clear_gl_errors();
  if (texture_ == 0 || side_ != side) {
    if (texture_ != 0) glDeleteTextures(1, &texture_);
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, side, side);
    // Each grid point a crisp square when the picture is drawn larger than the grid.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    side_ = side;
    TL_RETURN_IF_ERROR(check_gl("creating the class map's texture"));
  }
  std::vector<float> rgb(static_cast<std::size_t>(kMaxClassMapClasses) * 3, 0.5f);
  for (int c = 0; c < classes; ++c) {
    for (int ch = 0; ch < 3; ++ch)
      rgb[static_cast<std::size_t>(c) * 3 + ch] = colours[c][ch] / 255.0f;
  }
  const ShaderProgram& program = kernel_->program;
  program.use();
  program.set_int("u_side", side);
  program.set_int("u_classes", classes);
  glUniform3fv(glGetUniformLocation(program.id(), "u_colours"), kMaxClassMapClasses, rgb.data());
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, buffer_, 0,
                    static_cast<GLsizeiptr>(floats * sizeof(float)));
  glBindImageTexture(0, texture_, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  const auto groups = static_cast<GLuint>((side + 15) / 16);
  glDispatchCompute(groups, groups, 1);
  // The texture is next sampled by ImGui's draw, or read back.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
  glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glUseProgram(0);
  return check_gl("colouring the class map");
}

Result<std::vector<std::uint8_t>> ClassMap::read_pixels() const {
  if (texture_ == 0) return invalid_argument("the class map has not been coloured yet");
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(side_) * side_ * 4);
  clear_gl_errors();
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  TL_RETURN_IF_ERROR(check_gl("reading the class map's texture"));
  return rgba;
}

}  // namespace tl::render
