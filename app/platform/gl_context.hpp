#pragma once
// What the rest of ThreadLab needs from wherever its OpenGL context comes from, a GLFW window or a
// headless EGL context: make it current and say what it runs on. The render layer itself only needs
// "a current GL 4.3 context" and never sees this interface.

#include <string>

#include "core/result.hpp"

namespace tl::platform {

class GlContext {
 public:
  virtual ~GlContext() = default;
  virtual Status make_current() = 0;
  // GL_RENDERER and GL_VENDOR, e.g. "NVIDIA H200" / "NVIDIA Corporation" or "llvmpipe (...)".
  [[nodiscard]] virtual const std::string& renderer() const = 0;
  [[nodiscard]] virtual const std::string& vendor() const = 0;
  // True for a CPU rasterizer (Mesa llvmpipe / softpipe): CUDA-GL interop cannot work there.
  [[nodiscard]] virtual bool is_software() const = 0;
};

// Whether a GL_RENDERER string names a software rasterizer.
[[nodiscard]] bool is_software_renderer(const std::string& renderer);

}  // namespace tl::platform
