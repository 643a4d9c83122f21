#include "platform/egl_context.hpp"

#include <glad/egl.h>
#include <glad/gl.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <string_view>
#include <vector>

namespace tl::platform {
namespace {

// Not in the GLAD extension list: Mesa's marker for its CPU device, NVIDIA's for a CUDA device.
constexpr std::string_view kMesaSoftwareDevice = "EGL_MESA_device_software";
constexpr std::string_view kNvidiaCudaDevice = "EGL_NV_device_cuda";

std::string egl_error_text(EGLint error) {
  switch (error) {
    case EGL_SUCCESS:
      return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED:
      return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS:
      return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC:
      return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE:
      return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG:
      return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT:
      return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY:
      return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH:
      return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER:
      return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE:
      return "EGL_BAD_SURFACE";
    default: {
      char text[32];
      std::snprintf(text, sizeof(text), "EGL error 0x%04X", static_cast<unsigned>(error));
      return text;
    }
  }
}

std::string last_egl_error() {
  return egl_error_text(eglGetError());
}

bool has_extension(const char* list, std::string_view name) {
  if (list == nullptr) return false;
  const std::string_view extensions(list);
  for (std::size_t start = 0; start < extensions.size();) {
    const std::size_t end = std::min(extensions.find(' ', start), extensions.size());
    if (extensions.substr(start, end - start) == name) return true;
    start = end + 1;
  }
  return false;
}

// EGL displays are per device and process-wide, and eglTerminate ends every context on them, so
// each display is terminated only when the last EglContext that initialized it goes.
std::mutex display_users_mutex;
std::map<EGLDisplay, int> display_users;

void add_display_user(EGLDisplay display) {
  const std::lock_guard lock(display_users_mutex);
  ++display_users[display];
}

void remove_display_user(EGLDisplay display) {
  const std::lock_guard lock(display_users_mutex);
  auto it = display_users.find(display);
  if (it == display_users.end()) return;
  if (--it->second == 0) {
    display_users.erase(it);
    eglTerminate(display);
  }
}

GLADapiproc load_gl_function(const char* name) {
  return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
}

struct Candidate {
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string source;
  bool software = false;  // known to be a CPU device before trying it
};

// EGL devices first (NVIDIA, other hardware, software), then the Mesa surfaceless platform.
std::vector<Candidate> display_candidates() {
  std::vector<Candidate> candidates;
  // The function pointers decide, not GLAD's extension flags: libglvnd may advertise the older
  // umbrella EGL_EXT_device_base instead of EGL_EXT_device_enumeration and EGL_EXT_device_query.
  if (eglQueryDevicesEXT != nullptr && eglGetPlatformDisplayEXT != nullptr) {
    EGLint count = 0;
    if (eglQueryDevicesEXT(0, nullptr, &count) == EGL_TRUE && count > 0) {
      std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
      eglQueryDevicesEXT(count, devices.data(), &count);
      devices.resize(static_cast<std::size_t>(std::max(count, 0)));
      std::vector<std::pair<int, Candidate>> ranked;
      for (std::size_t i = 0; i < devices.size(); ++i) {
        const char* extensions = eglQueryDeviceStringEXT != nullptr
                                     ? eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS)
                                     : nullptr;
        const bool nvidia = has_extension(extensions, kNvidiaCudaDevice);
        const bool software = has_extension(extensions, kMesaSoftwareDevice);
        Candidate candidate;
        candidate.display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        candidate.software = software;
        candidate.source = "EGL device " + std::to_string(i) +
                           (nvidia     ? " (NVIDIA)"
                            : software ? " (software)"
                                       : " (hardware)");
        if (candidate.display != EGL_NO_DISPLAY) {
          ranked.emplace_back(nvidia ? 0 : software ? 2 : 1, std::move(candidate));
        }
      }
      std::stable_sort(ranked.begin(), ranked.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto& [rank, candidate] : ranked) candidates.push_back(std::move(candidate));
    }
  }
  if (GLAD_EGL_MESA_platform_surfaceless && eglGetPlatformDisplayEXT != nullptr) {
    const EGLDisplay display =
        eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display != EGL_NO_DISPLAY)
      candidates.push_back({display, "Mesa surfaceless platform", false});
  }
  return candidates;
}

}  // namespace

Result<std::unique_ptr<EglContext>> EglContext::create(const EglOptions& options) {
  // First load: client extensions only (device enumeration, platform displays).
  if (gladLoaderLoadEGL(EGL_NO_DISPLAY) == 0) {
    return Error{ErrorKind::kGraphicsError,
                 "libEGL could not be loaded, so no headless OpenGL is possible: install libegl1 "
                 "with Mesa (libegl-mesa0) or the NVIDIA driver"};
  }
  const std::vector<Candidate> candidates = display_candidates();
  std::string tried;
  auto note = [&tried](const std::string& source, const std::string& why) {
    tried += "\n  " + source + ": " + why;
  };

  for (const Candidate& candidate : candidates) {
    if (candidate.software && !options.allow_software) {
      note(candidate.source, "skipped, software rendering not allowed");
      continue;
    }
    auto context = std::unique_ptr<EglContext>(new EglContext());
    context->display_source_ = candidate.source;
    EGLint major = 0;
    EGLint minor = 0;
    if (eglInitialize(candidate.display, &major, &minor) != EGL_TRUE) {
      note(candidate.source, "eglInitialize failed with " + last_egl_error());
      continue;
    }
    context->display_ = candidate.display;
    add_display_user(candidate.display);  // from here on, the destructor cleans up
    // Second load, with the display: its extensions and the EGL 1.5 entry points it supports.
    if (gladLoaderLoadEGL(candidate.display) == 0) {
      note(candidate.source, "GLAD could not load EGL for this display");
      continue;
    }
    if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) {
      note(candidate.source, "desktop OpenGL is not supported (" + last_egl_error() + ")");
      continue;
    }
    const bool surfaceless = GLAD_EGL_KHR_surfaceless_context != 0;
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE,
                                        surfaceless ? 0 : EGL_PBUFFER_BIT,
                                        EGL_RENDERABLE_TYPE,
                                        EGL_OPENGL_BIT,
                                        EGL_RED_SIZE,
                                        8,
                                        EGL_GREEN_SIZE,
                                        8,
                                        EGL_BLUE_SIZE,
                                        8,
                                        EGL_NONE};
    EGLConfig config = nullptr;
    EGLint config_count = 0;
    if (eglChooseConfig(candidate.display, config_attributes, &config, 1, &config_count) !=
            EGL_TRUE ||
        config_count == 0) {
      note(candidate.source, "no OpenGL framebuffer configuration (" + last_egl_error() + ")");
      continue;
    }
    const bool egl15 = major > 1 || (major == 1 && minor >= 5);
    std::vector<EGLint> context_attributes = {
        EGL_CONTEXT_MAJOR_VERSION,       4,
        EGL_CONTEXT_MINOR_VERSION,       3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
    if (options.debug) {
      context_attributes.insert(context_attributes.end(),
                                {egl15 ? EGL_CONTEXT_OPENGL_DEBUG : EGL_CONTEXT_FLAGS_KHR,
                                 egl15 ? EGL_TRUE : EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR});
    }
    context_attributes.push_back(EGL_NONE);
    context->context_ =
        eglCreateContext(candidate.display, config, EGL_NO_CONTEXT, context_attributes.data());
    if (context->context_ == EGL_NO_CONTEXT) {
      context->context_ = nullptr;
      note(candidate.source, "no OpenGL 4.3 core context (" + last_egl_error() + ")");
      continue;
    }
    if (!surfaceless) {
      const EGLint pbuffer_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
      context->surface_ = eglCreatePbufferSurface(candidate.display, config, pbuffer_attributes);
      if (context->surface_ == EGL_NO_SURFACE) {
        context->surface_ = nullptr;
        note(candidate.source, "no pbuffer surface (" + last_egl_error() + ")");
        continue;
      }
    }
    if (Status current = context->make_current(); !current) {
      note(candidate.source, current.message());
      continue;
    }
    const int gl_version = gladLoadGL(load_gl_function);
    if (gl_version == 0 || GLAD_VERSION_MAJOR(gl_version) < 4 ||
        (GLAD_VERSION_MAJOR(gl_version) == 4 && GLAD_VERSION_MINOR(gl_version) < 3)) {
      note(candidate.source, "the context does not provide OpenGL 4.3");
      continue;
    }
    auto gl_string = [](GLenum name) {
      const auto* text = reinterpret_cast<const char*>(glGetString(name));
      return std::string(text != nullptr ? text : "unknown");
    };
    context->renderer_ = gl_string(GL_RENDERER);
    context->vendor_ = gl_string(GL_VENDOR);
    context->gl_version_ = gl_string(GL_VERSION);
    context->software_ = candidate.software || is_software_renderer(context->renderer_);
    if (context->software_ && !options.allow_software) {
      note(candidate.source, "renders in software (" + context->renderer_ + "), not allowed");
      continue;
    }
    context->selection_log_ = tried.empty() ? "first choice" : "after:" + tried;
    return context;
  }
  if (candidates.empty()) {
    tried = "\n  no EGL device or surfaceless platform was found";
  }
  return Error{ErrorKind::kGraphicsError,
               "no headless OpenGL 4.3 context could be created. Tried:" + tried +
                   "\nWith an NVIDIA GPU, check that the driver's EGL library is installed "
                   "(libnvidia-egl); without one, install Mesa (libegl-mesa0, libgl1-mesa-dri)."};
}

EglContext::~EglContext() {
  if (display_ == nullptr) return;
  if (eglGetCurrentContext() == context_ && context_ != nullptr) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  }
  if (surface_ != nullptr) eglDestroySurface(display_, surface_);
  if (context_ != nullptr) eglDestroyContext(display_, context_);
  remove_display_user(display_);
}

Status EglContext::make_current() {
  const EGLSurface surface = surface_ != nullptr ? surface_ : EGL_NO_SURFACE;
  if (eglMakeCurrent(display_, surface, surface, context_) != EGL_TRUE) {
    return Error{
        ErrorKind::kGraphicsError,
        "the headless OpenGL context could not be made current (" + last_egl_error() + ")"};
  }
  return Status::ok();
}

}  // namespace tl::platform
