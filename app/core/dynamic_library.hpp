#pragma once
// A shared library opened at run time (dlopen), for the parts of the CUDA toolkit ThreadLab never
// links: cuBLAS, CUPTI, NVRTC and NCCL. A build then runs where they are missing, and the feature
// that needs one is greyed with the reason, which names every place that was tried.
//
// Libraries opened here stay loaded for the life of the process (the function pointers bound from
// them are kept in statics), so there is no close.

#include <string>
#include <vector>

namespace tl {

class DynamicLibrary {
 public:
  // The first of `candidates` (file names for the loader's search path, or paths) that the loader
  // opens, with every symbol resolved now (RTLD_NOW) and kept out of the global namespace.
  [[nodiscard]] static DynamicLibrary open_first(const std::vector<std::string>& candidates);

  [[nodiscard]] bool loaded() const { return handle_ != nullptr; }
  // The candidate that opened ("" when none did).
  [[nodiscard]] const std::string& path() const { return path_; }
  // Every candidate that did not open, in order, comma-separated: "libx.so.13, libx.so".
  [[nodiscard]] const std::string& tried() const { return tried_; }

  // Points `function` at `symbol`; false, and missing() names it, when the library lacks it (or
  // none was opened).
  template <typename Function>
  bool bind(Function& function, const char* symbol) {
    function = reinterpret_cast<Function>(find(symbol));
    return function != nullptr;
  }
  // The symbols bind() did not find, comma-separated (callers chain bind() with &&, so usually the
  // first one missing).
  [[nodiscard]] const std::string& missing() const { return missing_; }

 private:
  void* find(const char* symbol);

  void* handle_ = nullptr;
  std::string path_;
  std::string tried_;
  std::string missing_;
};

}  // namespace tl
