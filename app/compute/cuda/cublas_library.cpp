#include "cublas_library.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <mutex>
#include <optional>
#include <string>

namespace tl::compute {
namespace {

template <typename F>
bool resolve(void* library, const char* symbol, F& function) {
  function = reinterpret_cast<F>(dlsym(library, symbol));
  return function != nullptr;
}

Result<const CublasApi*> load() {
  // The cuBLAS of the CUDA major version ThreadLab was built with, then any.
  const std::string versioned = "libcublas.so." + std::to_string(CUDART_VERSION / 1000);
  void* library = nullptr;
  std::string tried;
  for (const std::string& name : {versioned, std::string("libcublas.so")}) {
    library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) break;
    tried += (tried.empty() ? "" : ", ") + name;
  }
  if (library == nullptr) {
    return Error{ErrorKind::kNoDevice,
                 "cuBLAS is not installed here (" + tried +
                     " not found): install the CUDA toolkit's libcublas to compare with it"};
  }
  static CublasApi api{};
  const bool complete = resolve(library, "cublasCreate_v2", api.create) &&
                        resolve(library, "cublasDestroy_v2", api.destroy) &&
                        resolve(library, "cublasSetMathMode", api.set_math_mode) &&
                        resolve(library, "cublasSgemm_v2", api.sgemm) &&
                        resolve(library, "cublasGemmEx", api.gemm_ex) &&
                        resolve(library, "cublasGetStatusName", api.status_name) &&
                        resolve(library, "cublasGetStatusString", api.status_string);
  if (!complete) {
    return Error{ErrorKind::kNoDevice,
                 "the cuBLAS found here lacks functions ThreadLab uses: " + std::string(dlerror())};
  }
  return &api;
}

}  // namespace

Status cublas_status(const CublasApi& api, cublasStatus_t status, const std::string& what) {
  if (status == CUBLAS_STATUS_SUCCESS) return Status::ok();
  const ErrorKind kind =
      status == CUBLAS_STATUS_ALLOC_FAILED ? ErrorKind::kOutOfMemory : ErrorKind::kCudaError;
  return Error{kind,
               what + ": " + api.status_string(status) + " (" + api.status_name(status) + ")"};
}

Result<const CublasApi*> cublas_api() {
  static std::once_flag once;
  static std::optional<Result<const CublasApi*>> loaded;
  std::call_once(once, [] { loaded.emplace(load()); });
  return *loaded;
}

}  // namespace tl::compute
