#include "render/shader_program.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace tl::render {
namespace {

constexpr std::string_view kVersionLine = "#version 430 core\n";

std::string info_log_of_shader(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string info_log_of_program(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

const char* stage_name(GLenum stage) {
  switch (stage) {
    case GL_VERTEX_SHADER:
      return "vertex";
    case GL_FRAGMENT_SHADER:
      return "fragment";
    case GL_COMPUTE_SHADER:
      return "compute";
    default:
      return "unknown";
  }
}

Result<GLuint> compile(std::string_view program_name, GLenum stage,
                       std::initializer_list<std::string_view> sources) {
  // Each piece is its own source string, so the info log's "0:LINE" prefix names the piece
  // (0 is the version line, 1 the first file given, ...).
  std::vector<const GLchar*> pointers{kVersionLine.data()};
  std::vector<GLint> lengths{static_cast<GLint>(kVersionLine.size())};
  for (std::string_view source : sources) {
    pointers.push_back(source.data());
    lengths.push_back(static_cast<GLint>(source.size()));
  }
  const GLuint shader = glCreateShader(stage);
  if (shader == 0) {
    return Error{ErrorKind::kGraphicsError,
                 "OpenGL could not create a shader object (is a context current?)"};
  }
  glShaderSource(shader, static_cast<GLsizei>(pointers.size()), pointers.data(), lengths.data());
  glCompileShader(shader);
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  if (compiled != GL_TRUE) {
    std::string message = "the " + std::string(stage_name(stage)) + " shader of '" +
                          std::string(program_name) + "' did not compile on this driver:\n" +
                          info_log_of_shader(shader);
    glDeleteShader(shader);
    return Error{ErrorKind::kGraphicsError, std::move(message)};
  }
  return shader;
}

Result<GLuint> link(std::string_view program_name, std::initializer_list<GLuint> shaders) {
  const GLuint program = glCreateProgram();
  for (GLuint shader : shaders) glAttachShader(program, shader);
  glLinkProgram(program);
  for (GLuint shader : shaders) {
    glDetachShader(program, shader);
    glDeleteShader(shader);
  }
  GLint linked = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (linked != GL_TRUE) {
    std::string message = "the shader program '" + std::string(program_name) +
                          "' did not link on this driver:\n" + info_log_of_program(program);
    glDeleteProgram(program);
    return Error{ErrorKind::kGraphicsError, std::move(message)};
  }
  return program;
}

}  // namespace

Result<ShaderProgram> ShaderProgram::graphics(
    std::string_view name, std::initializer_list<std::string_view> vertex_sources,
    std::initializer_list<std::string_view> fragment_sources) {
  Result<GLuint> vertex = compile(name, GL_VERTEX_SHADER, vertex_sources);
  if (!vertex) return vertex.error();
  Result<GLuint> fragment = compile(name, GL_FRAGMENT_SHADER, fragment_sources);
  if (!fragment) {
    glDeleteShader(*vertex);
    return fragment.error();
  }
  Result<GLuint> program = link(name, {*vertex, *fragment});
  if (!program) return program.error();
  return ShaderProgram(*program);
}

Result<ShaderProgram> ShaderProgram::compute(std::string_view name,
                                             std::initializer_list<std::string_view> sources) {
  Result<GLuint> shader = compile(name, GL_COMPUTE_SHADER, sources);
  if (!shader) return shader.error();
  Result<GLuint> program = link(name, {*shader});
  if (!program) return program.error();
  return ShaderProgram(*program);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept
    : program_(std::exchange(other.program_, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (program_ != 0) glDeleteProgram(program_);
    program_ = std::exchange(other.program_, 0);
  }
  return *this;
}

ShaderProgram::~ShaderProgram() {
  if (program_ != 0) glDeleteProgram(program_);
}

void ShaderProgram::use() const {
  glUseProgram(program_);
}

int ShaderProgram::location(const char* name) const {
  return glGetUniformLocation(program_, name);
}

void ShaderProgram::set_int(const char* name, int value) const {
  glUniform1i(location(name), value);
}

void ShaderProgram::set_uint(const char* name, std::uint32_t value) const {
  glUniform1ui(location(name), value);
}

void ShaderProgram::set_float(const char* name, float value) const {
  glUniform1f(location(name), value);
}

void ShaderProgram::set_vec2(const char* name, float x, float y) const {
  glUniform2f(location(name), x, y);
}

}  // namespace tl::render
