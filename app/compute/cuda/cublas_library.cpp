#include "cublas_library.hpp"

#include <cuda_runtime_api.h>

#include <mutex>
#include <optional>
#include <string>

#include "core/dynamic_library.hpp"

namespace tl::compute {
namespace {

Result<const CublasApi*> load() {
  // The cuBLAS of the CUDA major version ThreadLab was built with, then any.
  DynamicLibrary library = DynamicLibrary::open_first(
      {"libcublas.so." + std::to_string(CUDART_VERSION / 1000), "libcublas.so"});
  if (!library.loaded()) {
    return Error{ErrorKind::kNoDevice,
                 "cuBLAS is not installed here (" + library.tried() +
                     " not found): install the CUDA toolkit's libcublas to compare with it"};
  }
  static CublasApi api{};
  const bool complete = library.bind(api.create, "cublasCreate_v2") &&
                        library.bind(api.destroy, "cublasDestroy_v2") &&
                        library.bind(api.set_math_mode, "cublasSetMathMode") &&
                        library.bind(api.sgemm, "cublasSgemm_v2") &&
                        library.bind(api.gemm_ex, "cublasGemmEx") &&
                        library.bind(api.status_name, "cublasGetStatusName") &&
                        library.bind(api.status_string, "cublasGetStatusString");
  if (!complete) {
    return Error{ErrorKind::kNoDevice,
                 "the cuBLAS found here (" + library.path() +
                     ") lacks functions ThreadLab uses: " + library.missing()};
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

Status create_fp32_handle(cublasHandle_t& handle) {
  if (handle != nullptr) return Status::ok();
  auto loaded = cublas_api();
  if (!loaded) return loaded.error();
  const CublasApi* api = *loaded;
  cublasHandle_t created = nullptr;
  TL_RETURN_IF_ERROR(cublas_status(*api, api->create(&created), "creating the cuBLAS handle"));
  if (Status math = cublas_status(*api, api->set_math_mode(created, CUBLAS_DEFAULT_MATH),
                                  "setting the cuBLAS math mode");
      !math) {
    api->destroy(created);
    return math;
  }
  handle = created;
  return Status::ok();
}

void destroy_handle(cublasHandle_t handle) {
  // A handle exists only if cuBLAS was loaded, so the library is there to destroy it.
  if (handle != nullptr) (*cublas_api())->destroy(handle);
}

Result<const CublasApi*> cublas_api() {
  static std::once_flag once;
  static std::optional<Result<const CublasApi*>> loaded;
  std::call_once(once, [] { loaded.emplace(load()); });
  return *loaded;
}

}  // namespace tl::compute
