#pragma once
// A headless OpenGL 4.3 core context through EGL, with no window and no display server: for
// `threadlab render`, scripted demos, screenshots and the GL tests.
//
// Device choice: EGL devices are enumerated (EGL_EXT_device_enumeration) and an NVIDIA GPU is
// preferred (its device advertises EGL_NV_device_cuda), because only a context on the CUDA GPU
// allows CUDA-GL interop; then any other hardware device, then Mesa's software device, then the
// Mesa surfaceless platform, then the default display. The context is surfaceless
// (EGL_KHR_surfaceless_context) or, where that is missing, bound to a 1x1 pbuffer: all drawing goes
// to framebuffer objects anyway.

#include <memory>
#include <string>

#include "core/result.hpp"
#include "platform/gl_context.hpp"

namespace tl::platform {

struct EglOptions {
  // Allow falling back to a software rasterizer when no GPU device works.
  bool allow_software = true;
  // Create a debug context (more validation, slower).
  bool debug = false;
};

class EglContext final : public GlContext {
 public:
  static Result<std::unique_ptr<EglContext>> create(const EglOptions& options = {});
  ~EglContext() override;
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  Status make_current() override;
  [[nodiscard]] const std::string& renderer() const override { return renderer_; }
  [[nodiscard]] const std::string& vendor() const override { return vendor_; }
  [[nodiscard]] bool is_software() const override { return software_; }
  // GL_VERSION, and how the display was found, e.g. "EGL device (NVIDIA)"; for the device panel.
  [[nodiscard]] const std::string& gl_version() const { return gl_version_; }
  [[nodiscard]] const std::string& display_source() const { return display_source_; }
  // Why earlier candidates were passed over ("first choice" when none were), for diagnostics.
  [[nodiscard]] const std::string& selection_log() const { return selection_log_; }

 private:
  EglContext() = default;

  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  void* surface_ = nullptr;  // EGLSurface: EGL_NO_SURFACE when surfaceless
  std::string renderer_;
  std::string vendor_;
  std::string gl_version_;
  std::string display_source_;
  std::string selection_log_;
  bool software_ = false;
};

}  // namespace tl::platform
