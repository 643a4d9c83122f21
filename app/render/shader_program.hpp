#pragma once
// A linked GLSL program. Sources are given in pieces (the shared palette, then the stage's own
// file);
// "#version 430 core" is put in front of them, so the embedded files carry no version line. A
// compile or link failure returns the driver's info log in the message.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace tl::render {

class ShaderProgram {
 public:
  static Result<ShaderProgram> graphics(std::string_view name,
                                        std::initializer_list<std::string_view> vertex_sources,
                                        std::initializer_list<std::string_view> fragment_sources);
  static Result<ShaderProgram> compute(std::string_view name,
                                       std::initializer_list<std::string_view> sources);

  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;
  ~ShaderProgram();

  [[nodiscard]] std::uint32_t id() const { return program_; }
  void use() const;

  // Uniform setters for the program in use. A name the linker removed (unused) is ignored, as GL
  // does, so shaders can be edited without touching the C++.
  void set_int(const char* name, int value) const;
  void set_uint(const char* name, std::uint32_t value) const;
  void set_float(const char* name, float value) const;
  void set_vec2(const char* name, float x, float y) const;

 private:
  explicit ShaderProgram(std::uint32_t program) : program_(program) {}
  [[nodiscard]] int location(const char* name) const;

  std::uint32_t program_ = 0;
};

}  // namespace tl::render
