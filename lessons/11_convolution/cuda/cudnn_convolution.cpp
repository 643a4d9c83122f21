// cuDNN, loaded at run time (dlopen), never linked: see
// lessons/11_convolution/convolution_cudnn.hpp. Only cudnn.h's types and constants come from the
// toolkit at build time; where the build machine has no cuDNN headers, every call says so.

#include "lessons/11_convolution/convolution_cudnn.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/dynamic_library.hpp"

#if __has_include(<cudnn.h>)
#include <cudnn.h>
#define THREADLAB_HAVE_CUDNN_HEADERS 1
#endif

namespace tl::compute {

#if defined(THREADLAB_HAVE_CUDNN_HEADERS)
namespace {

struct CudnnApi {
  size_t (*get_version)();
  const char* (*error_string)(cudnnStatus_t);
  cudnnStatus_t (*create)(cudnnHandle_t*);
  cudnnStatus_t (*destroy)(cudnnHandle_t);
  cudnnStatus_t (*create_tensor)(cudnnTensorDescriptor_t*);
  cudnnStatus_t (*destroy_tensor)(cudnnTensorDescriptor_t);
  cudnnStatus_t (*set_tensor)(cudnnTensorDescriptor_t, cudnnTensorFormat_t, cudnnDataType_t, int,
                              int, int, int);
  cudnnStatus_t (*create_filter)(cudnnFilterDescriptor_t*);
  cudnnStatus_t (*destroy_filter)(cudnnFilterDescriptor_t);
  cudnnStatus_t (*set_filter)(cudnnFilterDescriptor_t, cudnnDataType_t, cudnnTensorFormat_t, int,
                              int, int, int);
  cudnnStatus_t (*create_conv)(cudnnConvolutionDescriptor_t*);
  cudnnStatus_t (*destroy_conv)(cudnnConvolutionDescriptor_t);
  cudnnStatus_t (*set_conv)(cudnnConvolutionDescriptor_t, int, int, int, int, int, int,
                            cudnnConvolutionMode_t, cudnnDataType_t);
  cudnnStatus_t (*set_math)(cudnnConvolutionDescriptor_t, cudnnMathType_t);
  cudnnStatus_t (*output_dim)(const cudnnConvolutionDescriptor_t, const cudnnTensorDescriptor_t,
                              const cudnnFilterDescriptor_t, int*, int*, int*, int*);
  cudnnStatus_t (*find)(cudnnHandle_t, const cudnnTensorDescriptor_t, const cudnnFilterDescriptor_t,
                        const cudnnConvolutionDescriptor_t, const cudnnTensorDescriptor_t, int,
                        int*, cudnnConvolutionFwdAlgoPerf_t*);
  cudnnStatus_t (*forward)(cudnnHandle_t, const void*, const cudnnTensorDescriptor_t, const void*,
                           const cudnnFilterDescriptor_t, const void*,
                           const cudnnConvolutionDescriptor_t, cudnnConvolutionFwdAlgo_t, void*,
                           size_t, const void*, const cudnnTensorDescriptor_t, void*);
};

// Where a pip-installed cuDNN lives (PyTorch's wheels depend on nvidia-cudnn-cu12, which puts it
// in site-packages/nvidia/cudnn/lib): under each Python of the usual prefixes.
std::vector<std::string> wheel_candidates() {
  std::vector<std::string> prefixes;
  for (const char* variable : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') {
      prefixes.push_back(std::string(value) + "/lib");
    }
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    prefixes.push_back(std::string(home) + "/.local/lib");
  }
  for (const char* fixed : {"/usr/local/lib", "/usr/lib", "/opt/conda/lib"})
    prefixes.push_back(fixed);
  std::vector<std::string> found;
  std::error_code error;
  for (const std::string& prefix : prefixes) {
    for (const auto& entry : std::filesystem::directory_iterator(prefix, error)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("python3", 0) != 0) continue;
      for (const char* packages : {"site-packages", "dist-packages"}) {
        const auto library = entry.path() / packages / "nvidia/cudnn/lib/libcudnn.so.9";
        if (std::filesystem::exists(library, error)) found.push_back(library.string());
      }
    }
  }
  return found;
}

struct Loaded {
  const CudnnApi* api = nullptr;
  std::string description;  // "cuDNN 9.1.0 (path)" or why none
};

Loaded load() {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv("THREADLAB_CUDNN_PATH"); path != nullptr && *path != '\0') {
    std::error_code error;
    candidates.push_back(std::filesystem::is_directory(path, error)
                             ? std::string(path) + "/libcudnn.so.9"
                             : std::string(path));
  }
  for (const char* name : {"libcudnn.so.9", "libcudnn.so", "/usr/local/cuda/lib64/libcudnn.so.9"}) {
    candidates.push_back(name);
  }
  for (const std::string& wheel : wheel_candidates()) candidates.push_back(wheel);
  DynamicLibrary library = DynamicLibrary::open_first(candidates);
  if (!library.loaded()) {
    return {nullptr, "cuDNN is not installed here (" + library.tried() +
                         " not found): install cuDNN 9 (or a PyTorch wheel, which carries it) or "
                         "point THREADLAB_CUDNN_PATH at libcudnn.so.9 or its folder"};
  }
  static CudnnApi api{};
  const bool complete = library.bind(api.get_version, "cudnnGetVersion") &&
                        library.bind(api.error_string, "cudnnGetErrorString") &&
                        library.bind(api.create, "cudnnCreate") &&
                        library.bind(api.destroy, "cudnnDestroy") &&
                        library.bind(api.create_tensor, "cudnnCreateTensorDescriptor") &&
                        library.bind(api.destroy_tensor, "cudnnDestroyTensorDescriptor") &&
                        library.bind(api.set_tensor, "cudnnSetTensor4dDescriptor") &&
                        library.bind(api.create_filter, "cudnnCreateFilterDescriptor") &&
                        library.bind(api.destroy_filter, "cudnnDestroyFilterDescriptor") &&
                        library.bind(api.set_filter, "cudnnSetFilter4dDescriptor") &&
                        library.bind(api.create_conv, "cudnnCreateConvolutionDescriptor") &&
                        library.bind(api.destroy_conv, "cudnnDestroyConvolutionDescriptor") &&
                        library.bind(api.set_conv, "cudnnSetConvolution2dDescriptor") &&
                        library.bind(api.set_math, "cudnnSetConvolutionMathType") &&
                        library.bind(api.output_dim, "cudnnGetConvolution2dForwardOutputDim") &&
                        library.bind(api.find, "cudnnFindConvolutionForwardAlgorithm") &&
                        library.bind(api.forward, "cudnnConvolutionForward");
  if (!complete) {
    return {nullptr, "the cuDNN found here (" + library.path() +
                         ") lacks functions ThreadLab uses: " + library.missing()};
  }
  const size_t version = api.get_version();  // 9.1.0 is 90100 from cuDNN 9 on
  if (version < 90000) {
    return {nullptr, "the cuDNN found here (" + library.path() + ") is version " +
                         std::to_string(version) + "; ThreadLab uses cuDNN 9"};
  }
  return {&api, "cuDNN " + std::to_string(version / 10000) + "." +
                    std::to_string(version / 100 % 100) + "." + std::to_string(version % 100) +
                    " (" + library.path() + ")"};
}

const Loaded& loaded() {
  static std::once_flag once;
  static std::optional<Loaded> result;
  std::call_once(once, [] { result.emplace(load()); });
  return *result;
}

Status cudnn_status(const CudnnApi& api, cudnnStatus_t status, const std::string& what) {
  if (status == CUDNN_STATUS_SUCCESS) return Status::ok();
  const ErrorKind kind =
      status == CUDNN_STATUS_ALLOC_FAILED ? ErrorKind::kOutOfMemory : ErrorKind::kCudaError;
  return Error{kind, what + ": " + api.error_string(status)};
}

const char* algorithm_name(cudnnConvolutionFwdAlgo_t algorithm) {
  switch (algorithm) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM:
      return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM:
      return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM:
      return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT:
      return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT:
      return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING:
      return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD:
      return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED:
      return "WINOGRAD_NONFUSED";
    default:
      return "unknown";
  }
}

// A workspace larger than this is not worth the memory for one layer: the search skips it.
constexpr size_t kWorkspaceLimit = size_t{1} << 30;

}  // namespace

Result<std::string> cudnn_library() {
  const Loaded& l = loaded();
  if (l.api == nullptr) return Error{ErrorKind::kNoDevice, l.description};
  return l.description;
}

struct CudnnConvolution::State {
  const CudnnApi* api = nullptr;
  cudnnHandle_t handle = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgo_t algorithm{};
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
  bool prepared = false;
  CudnnChoice choice;
  ~State() {
    if (api == nullptr) return;
    if (workspace != nullptr) cudaFree(workspace);
    if (conv != nullptr) api->destroy_conv(conv);
    if (w != nullptr) api->destroy_filter(w);
    if (y != nullptr) api->destroy_tensor(y);
    if (x != nullptr) api->destroy_tensor(x);
    if (handle != nullptr) api->destroy(handle);
  }
};

CudnnConvolution::CudnnConvolution() : state_(std::make_unique<State>()) {}
CudnnConvolution::~CudnnConvolution() = default;

Status CudnnConvolution::prepare(const lessons::ConvShape& shape, bool fp16) {
  auto library = cudnn_library();
  if (!library) return library.error();
  state_ = std::make_unique<State>();
  State& s = *state_;
  s.api = loaded().api;
  const CudnnApi& api = *s.api;
  const cudnnDataType_t type = fp16 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  const cudnnTensorFormat_t format = shape.nhwc ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  const auto i = [](std::uint32_t v) { return static_cast<int>(v); };
  TL_RETURN_IF_ERROR(cudnn_status(api, api.create(&s.handle), "cudnnCreate"));
  TL_RETURN_IF_ERROR(cudnn_status(api, api.create_tensor(&s.x), "cudnnCreateTensorDescriptor"));
  TL_RETURN_IF_ERROR(cudnn_status(api, api.create_tensor(&s.y), "cudnnCreateTensorDescriptor"));
  TL_RETURN_IF_ERROR(cudnn_status(api, api.create_filter(&s.w), "cudnnCreateFilterDescriptor"));
  TL_RETURN_IF_ERROR(
      cudnn_status(api, api.create_conv(&s.conv), "cudnnCreateConvolutionDescriptor"));
  TL_RETURN_IF_ERROR(cudnn_status(
      api, api.set_tensor(s.x, format, type, i(shape.n), i(shape.c), i(shape.h), i(shape.w)),
      "cudnnSetTensor4dDescriptor (input " + shape.describe() + ")"));
  TL_RETURN_IF_ERROR(cudnn_status(
      api, api.set_filter(s.w, type, format, i(shape.k), i(shape.c), i(shape.r), i(shape.s)),
      "cudnnSetFilter4dDescriptor"));
  // Cross-correlation, as the lesson's kernels and every framework's "convolution" compute it (no
  // flip of the filter); FP32 accumulation in both precisions.
  TL_RETURN_IF_ERROR(
      cudnn_status(api,
                   api.set_conv(s.conv, i(shape.pad), i(shape.pad), i(shape.stride),
                                i(shape.stride), 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                   "cudnnSetConvolution2dDescriptor"));
  // FP32: FMA math alone, or cuDNN may use TF32 tensor cores on Ampere and later and compute
  // something else than the FP32 rungs do.
  TL_RETURN_IF_ERROR(
      cudnn_status(api, api.set_math(s.conv, fp16 ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH),
                   "cudnnSetConvolutionMathType"));
  int n = 0, k = 0, p = 0, q = 0;
  TL_RETURN_IF_ERROR(cudnn_status(api, api.output_dim(s.conv, s.x, s.w, &n, &k, &p, &q),
                                  "cudnnGetConvolution2dForwardOutputDim"));
  if (p != i(shape.p()) || q != i(shape.q())) {
    return Error{ErrorKind::kCudaError, "cuDNN's output is " + std::to_string(p) + "×" +
                                            std::to_string(q) + ", the lesson's " +
                                            std::to_string(shape.p()) + "×" +
                                            std::to_string(shape.q())};
  }
  TL_RETURN_IF_ERROR(cudnn_status(api, api.set_tensor(s.y, format, type, n, k, p, q),
                                  "cudnnSetTensor4dDescriptor (output)"));
  cudnnConvolutionFwdAlgoPerf_t results[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int returned = 0;
  TL_RETURN_IF_ERROR(cudnn_status(api,
                                  api.find(s.handle, s.x, s.w, s.conv, s.y,
                                           CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, results),
                                  "cudnnFindConvolutionForwardAlgorithm"));
  // The results come fastest first.
  for (int at = 0; at < returned; ++at) {
    const cudnnConvolutionFwdAlgoPerf_t& r = results[at];
    if (r.status != CUDNN_STATUS_SUCCESS || r.memory > kWorkspaceLimit) continue;
    // FP32 compares with the FP32 rungs: an algorithm that used tensor cores (TF32) is skipped.
    const bool tensor_ops =
        r.mathType == CUDNN_TENSOR_OP_MATH || r.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    if (!fp16 && tensor_ops) continue;
    // The math type the search timed the algorithm with, as frameworks do before the forward call.
    TL_RETURN_IF_ERROR(cudnn_status(api, api.set_math(s.conv, r.mathType),
                                    "cudnnSetConvolutionMathType (the chosen algorithm's)"));
    s.algorithm = r.algo;
    s.workspace_bytes = r.memory;
    s.choice = {algorithm_name(r.algo), static_cast<double>(r.time), static_cast<double>(r.memory),
                tensor_ops};
    if (s.workspace_bytes > 0) {
      if (const cudaError_t e = cudaMalloc(&s.workspace, s.workspace_bytes); e != cudaSuccess) {
        return Error{ErrorKind::kOutOfMemory, "cuDNN's workspace (" +
                                                  std::to_string(s.workspace_bytes) +
                                                  " bytes): " + cudaGetErrorString(e)};
      }
    }
    s.prepared = true;
    return Status::ok();
  }
  return Error{ErrorKind::kCudaError, "cuDNN found no algorithm for " + shape.describe() +
                                          (fp16 ? " in FP16" : " in FP32") +
                                          " that succeeds within a 1 GiB workspace"};
}

const CudnnChoice& CudnnConvolution::choice() const {
  return state_->choice;
}

Status CudnnConvolution::forward(const void* in, const void* w, void* out) {
  State& s = *state_;
  if (!s.prepared) return Error{ErrorKind::kCudaError, "cuDNN forward before prepare"};
  const float alpha = 1.0f, beta = 0.0f;
  return cudnn_status(*s.api,
                      s.api->forward(s.handle, &alpha, s.x, in, s.w, w, s.conv, s.algorithm,
                                     s.workspace, s.workspace_bytes, &beta, s.y, out),
                      "cudnnConvolutionForward");
}

#else  // no cuDNN headers at build time

Result<std::string> cudnn_library() {
  return Error{ErrorKind::kNoDevice,
               "this ThreadLab was built without cuDNN's headers (cudnn.h): install cuDNN 9's "
               "development files and rebuild to compare with cuDNN"};
}
struct CudnnConvolution::State {
  CudnnChoice choice;
};
CudnnConvolution::CudnnConvolution() : state_(std::make_unique<State>()) {}
CudnnConvolution::~CudnnConvolution() = default;
Status CudnnConvolution::prepare(const lessons::ConvShape&, bool) {
  return cudnn_library().error();
}
const CudnnChoice& CudnnConvolution::choice() const {
  return state_->choice;
}
Status CudnnConvolution::forward(const void*, const void*, void*) {
  return cudnn_library().error();
}

#endif

}  // namespace tl::compute
