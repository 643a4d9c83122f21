// cuDNN, loaded at run time (dlopen), never linked: see
// lessons/11_convolution/convolution_cudnn.hpp. Only cudnn.h's types and constants come from the
// toolkit at build time; where the build machine has no cuDNN headers, every call says so.

#include "lessons/11_convolution/convolution_cudnn.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <list>
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
  cudnnStatus_t (*set_stream)(cudnnHandle_t, cudaStream_t);
  // The graph (backend) API: bound apart, so that a cuDNN without them still serves the Find rows.
  cudnnStatus_t (*backend_create)(cudnnBackendDescriptorType_t, cudnnBackendDescriptor_t*);
  cudnnStatus_t (*backend_destroy)(cudnnBackendDescriptor_t);
  cudnnStatus_t (*backend_finalize)(cudnnBackendDescriptor_t);
  cudnnStatus_t (*backend_set)(cudnnBackendDescriptor_t, cudnnBackendAttributeName_t,
                               cudnnBackendAttributeType_t, int64_t, const void*);
  cudnnStatus_t (*backend_get)(cudnnBackendDescriptor_t, cudnnBackendAttributeName_t,
                               cudnnBackendAttributeType_t, int64_t, int64_t*, void*);
  cudnnStatus_t (*backend_execute)(cudnnHandle_t, cudnnBackendDescriptor_t,
                                   cudnnBackendDescriptor_t);
  std::string graph_missing;  // the graph API's functions this library lacks, "" when none
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

std::vector<std::string> default_candidates() {
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
  return candidates;
}

// Every library bound stays loaded, and its function table with it (DynamicLibrary never closes):
// a list, so that the tables of cudnn_library_at() stay where they are.
CudnnApi& new_api() {
  static std::mutex mutex;
  static std::list<CudnnApi> apis;
  const std::lock_guard<std::mutex> lock(mutex);
  return apis.emplace_back();
}

Loaded load(const std::vector<std::string>& candidates) {
  DynamicLibrary library = DynamicLibrary::open_first(candidates);
  if (!library.loaded()) {
    return {nullptr, "cuDNN is not installed here (" + library.tried() +
                         " not found): install cuDNN 9 (or a PyTorch wheel, which carries it) or "
                         "point THREADLAB_CUDNN_PATH at libcudnn.so.9 or its folder"};
  }
  CudnnApi& api = new_api();
  const bool complete = library.bind(api.get_version, "cudnnGetVersion") &&
                        library.bind(api.error_string, "cudnnGetErrorString") &&
                        library.bind(api.create, "cudnnCreate") &&
                        library.bind(api.destroy, "cudnnDestroy") &&
                        library.bind(api.set_stream, "cudnnSetStream") &&
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
  // A separate chain: missing() then names the graph API's first absent function alone.
  DynamicLibrary graph = DynamicLibrary::open_first({library.path()});
  const bool has_graph = graph.bind(api.backend_create, "cudnnBackendCreateDescriptor") &&
                         graph.bind(api.backend_destroy, "cudnnBackendDestroyDescriptor") &&
                         graph.bind(api.backend_finalize, "cudnnBackendFinalize") &&
                         graph.bind(api.backend_set, "cudnnBackendSetAttribute") &&
                         graph.bind(api.backend_get, "cudnnBackendGetAttribute") &&
                         graph.bind(api.backend_execute, "cudnnBackendExecute");
  if (!has_graph) api.graph_missing = graph.missing().empty() ? "its graph API" : graph.missing();
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
  std::call_once(once, [] { result.emplace(load(default_candidates())); });
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

// ---- The graph (backend) API. ----

// One backend descriptor, destroyed with its owner.
class Descriptor {
 public:
  Descriptor() = default;
  Descriptor(const CudnnApi* api, cudnnBackendDescriptor_t raw) : api_(api), raw_(raw) {}
  Descriptor(Descriptor&& other) noexcept : api_(other.api_), raw_(other.raw_) {
    other.raw_ = nullptr;
  }
  Descriptor& operator=(Descriptor&& other) noexcept {
    if (this != &other) {
      reset();
      api_ = other.api_;
      raw_ = other.raw_;
      other.raw_ = nullptr;
    }
    return *this;
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { reset(); }
  [[nodiscard]] cudnnBackendDescriptor_t get() const { return raw_; }
  // For the attributes that take or return descriptors: the address of the one raw handle.
  [[nodiscard]] const cudnnBackendDescriptor_t* address() const { return &raw_; }

 private:
  void reset() {
    if (raw_ != nullptr) api_->backend_destroy(raw_);
    raw_ = nullptr;
  }
  const CudnnApi* api_ = nullptr;
  cudnnBackendDescriptor_t raw_ = nullptr;
};

Result<Descriptor> create(const CudnnApi& api, cudnnBackendDescriptorType_t type,
                          const char* what) {
  cudnnBackendDescriptor_t raw = nullptr;
  TL_RETURN_IF_ERROR(cudnn_status(api, api.backend_create(type, &raw),
                                  std::string("cudnnBackendCreateDescriptor (") + what + ")"));
  return Descriptor(&api, raw);
}

Status set(const CudnnApi& api, const Descriptor& d, cudnnBackendAttributeName_t name,
           cudnnBackendAttributeType_t type, int64_t count, const void* values, const char* what) {
  return cudnn_status(api, api.backend_set(d.get(), name, type, count, values),
                      std::string("cudnnBackendSetAttribute (") + what + ")");
}

Status finalize(const CudnnApi& api, const Descriptor& d, const char* what) {
  return cudnn_status(api, api.backend_finalize(d.get()),
                      std::string("cudnnBackendFinalize (") + what + ")");
}

// The attribute's name, as the error says it.
#define TL_CUDNN_SET(d, attribute, type, count, values) \
  TL_RETURN_IF_ERROR(set(api, d, attribute, type, count, values, #attribute))

Result<Descriptor> make_tensor(const CudnnApi& api, const lessons::CudnnGraphTensor& t,
                               cudnnDataType_t type) {
  auto d = create(api, CUDNN_BACKEND_TENSOR_DESCRIPTOR, "tensor");
  if (!d) return d.error();
  TL_CUDNN_SET(*d, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type);
  TL_CUDNN_SET(*d, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, t.dims.data());
  TL_CUDNN_SET(*d, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, t.strides.data());
  TL_CUDNN_SET(*d, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &t.uid);
  TL_CUDNN_SET(*d, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &t.byte_alignment);
  TL_RETURN_IF_ERROR(finalize(api, *d, "tensor"));
  return d;
}

// X, W, Y, the convolution and the forward operation on them (alpha 1, beta 0): what the operation
// graph holds. No handle yet.
struct GraphOperation {
  Descriptor x, w, y, conv, op;
};

Result<GraphOperation> make_operation(const CudnnApi& api, const lessons::ConvShape& shape,
                                      bool fp16) {
  if (!api.graph_missing.empty()) {
    return Error{ErrorKind::kNoDevice,
                 "this cuDNN lacks the graph API's functions: " + api.graph_missing};
  }
  const lessons::CudnnGraphLayout layout = lessons::cudnn_graph_layout(shape, fp16);
  const cudnnDataType_t type = fp16 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  GraphOperation g;
  for (auto [to, from] : {std::pair{&g.x, &layout.x}, {&g.w, &layout.w}, {&g.y, &layout.y}}) {
    auto t = make_tensor(api, *from, type);
    if (!t) return t.error();
    *to = std::move(*t);
  }
  auto conv = create(api, CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, "convolution");
  if (!conv) return conv.error();
  g.conv = std::move(*conv);
  // FP32 accumulation in both precisions, as the Find path's cudnnSetConvolution2dDescriptor asks;
  // cross-correlation, as the lesson's kernels and every framework's "convolution" compute it.
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  const lessons::CudnnGraphConvolution& c = layout.conv;
  TL_CUDNN_SET(g.conv, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &c.spatial_dims);
  TL_CUDNN_SET(g.conv, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute);
  TL_CUDNN_SET(g.conv, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode);
  TL_CUDNN_SET(g.conv, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2,
               c.pre_padding.data());
  TL_CUDNN_SET(g.conv, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2,
               c.post_padding.data());
  TL_CUDNN_SET(g.conv, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2,
               c.strides.data());
  TL_CUDNN_SET(g.conv, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, c.dilations.data());
  TL_RETURN_IF_ERROR(finalize(api, g.conv, "convolution"));
  auto op =
      create(api, CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, "forward operation");
  if (!op) return op.error();
  g.op = std::move(*op);
  // Alpha and beta as floats: the type of the FP32 compute type.
  const float alpha = 1.0f, beta = 0.0f;
  TL_CUDNN_SET(g.op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
               g.x.address());
  TL_CUDNN_SET(g.op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
               g.w.address());
  TL_CUDNN_SET(g.op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
               g.y.address());
  TL_CUDNN_SET(g.op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
               CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, g.conv.address());
  TL_CUDNN_SET(g.op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha);
  TL_CUDNN_SET(g.op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta);
  TL_RETURN_IF_ERROR(finalize(api, g.op, "forward operation"));
  return g;
}

// What one engine configuration says of itself; an attribute it does not answer stays unset (the
// row then says less, and nothing else changes).
struct EngineFacts {
  int64_t global_index = -1;
  lessons::CudnnEngineNotes notes;
  std::string knobs;  // "type=value ..." by cuDNN's cudnnBackendKnobType_t numbers
};

EngineFacts engine_facts(const CudnnApi& api, const Descriptor& config) {
  EngineFacts facts;
  auto engine = create(api, CUDNN_BACKEND_ENGINE_DESCRIPTOR, "engine");
  if (!engine) return facts;
  cudnnBackendDescriptor_t raw = engine->get();
  int64_t count = 0;
  if (api.backend_get(config.get(), CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                      &count, &raw) == CUDNN_STATUS_SUCCESS &&
      count == 1) {
    api.backend_get(raw, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &count,
                    &facts.global_index);
    std::array<cudnnBackendNumericalNote_t, CUDNN_NUMERICAL_NOTE_TYPE_COUNT> numerical{};
    if (api.backend_get(raw, CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                        numerical.size(), &count, numerical.data()) == CUDNN_STATUS_SUCCESS) {
      for (int64_t i = 0; i < std::min<int64_t>(count, numerical.size()); ++i) {
        lessons::CudnnEngineNotes& n = facts.notes;
        switch (numerical[static_cast<size_t>(i)]) {
          case CUDNN_NUMERICAL_NOTE_TENSOR_CORE:
            n.tensor_core = true;
            break;
          case CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS:
            n.down_convert_inputs = true;
            break;
          case CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION:
            n.reduced_precision_reduction = true;
            break;
          case CUDNN_NUMERICAL_NOTE_FFT:
            n.fft = true;
            break;
          case CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC:
            n.nondeterministic = true;
            break;
          case CUDNN_NUMERICAL_NOTE_WINOGRAD:
          case CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_4x4:
          case CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_6x6:
          case CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_13x13:
            n.winograd = true;
            break;
          default:
            break;
        }
      }
    }
    std::array<cudnnBackendBehaviorNote_t, CUDNN_BEHAVIOR_NOTE_TYPE_COUNT> behavior{};
    if (api.backend_get(raw, CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE,
                        behavior.size(), &count, behavior.data()) == CUDNN_STATUS_SUCCESS) {
      for (int64_t i = 0; i < std::min<int64_t>(count, behavior.size()); ++i) {
        if (behavior[static_cast<size_t>(i)] == CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION) {
          facts.notes.runtime_compiled = true;
        }
      }
    }
  }
  // The knob choices: descriptors made here, filled by the configuration.
  constexpr int64_t kMaxKnobs = 32;
  std::vector<Descriptor> knobs;
  std::vector<cudnnBackendDescriptor_t> raws;
  for (int64_t i = 0; i < kMaxKnobs; ++i) {
    auto knob = create(api, CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, "knob choice");
    if (!knob) return facts;
    raws.push_back(knob->get());
    knobs.push_back(std::move(*knob));
  }
  if (api.backend_get(config.get(), CUDNN_ATTR_ENGINECFG_KNOB_CHOICES,
                      CUDNN_TYPE_BACKEND_DESCRIPTOR, kMaxKnobs, &count,
                      raws.data()) == CUDNN_STATUS_SUCCESS) {
    for (int64_t i = 0; i < std::min(count, kMaxKnobs); ++i) {
      cudnnBackendKnobType_t type{};
      int64_t value = 0, one = 0;
      if (api.backend_get(raws[static_cast<size_t>(i)], CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE,
                          CUDNN_TYPE_KNOB_TYPE, 1, &one, &type) != CUDNN_STATUS_SUCCESS ||
          api.backend_get(raws[static_cast<size_t>(i)], CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE,
                          CUDNN_TYPE_INT64, 1, &one, &value) != CUDNN_STATUS_SUCCESS) {
        continue;
      }
      if (!facts.knobs.empty()) facts.knobs += ' ';
      facts.knobs += std::to_string(static_cast<int>(type)) + "=" + std::to_string(value);
    }
  }
  return facts;
}

// One execution plan that finalized, and what it came from.
struct GraphPlan {
  Descriptor config, plan;
  EngineFacts facts;
  std::string label;
  int64_t workspace = 0;
  double ms = 0;
};

// Engine configurations per heuristics mode, at most: mode A ranks them best first and the first
// few are where the fastest is; FALLBACK adds the engines that run anything, in case none of mode
// A's finalizes. Each plan costs its finalization (seconds for a runtime-compiled engine) and a
// few runs.
constexpr int64_t kConfigsPerMode = 24;
// Each plan's runs: warm-ups (the first run of a runtime-compiled kernel loads it), then the timed
// ones, whose median ranks it.
constexpr int kPlanWarmups = 2;
constexpr int kPlanRepeats = 5;

void count_left_out(std::vector<std::pair<std::string, int>>& counts, const std::string& why,
                    int how_many = 1) {
  for (auto& [reason, n] : counts) {
    if (reason == why) {
      n += how_many;
      return;
    }
  }
  counts.emplace_back(why, how_many);
}

std::string left_out_text(const std::vector<std::pair<std::string, int>>& counts) {
  std::string text;
  for (const auto& [reason, n] : counts) {
    if (!text.empty()) text += "; ";
    text += std::to_string(n) + " " + reason;
  }
  return text;
}

// Median milliseconds of `repeats` runs of `plan`, each between two events on the default stream.
Result<double> time_plan(const CudnnApi& api, cudnnHandle_t handle, const Descriptor& plan,
                         const Descriptor& pack) {
  for (int i = 0; i < kPlanWarmups; ++i) {
    TL_RETURN_IF_ERROR(cudnn_status(api, api.backend_execute(handle, plan.get(), pack.get()),
                                    "cudnnBackendExecute"));
  }
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    return Error{ErrorKind::kCudaError,
                 std::string("after cudnnBackendExecute: ") + cudaGetErrorString(e)};
  }
  cudaEvent_t start = nullptr, stop = nullptr;
  if (cudaEventCreate(&start) != cudaSuccess) {
    return Error{ErrorKind::kCudaError, "cudaEventCreate"};
  }
  if (cudaEventCreate(&stop) != cudaSuccess) {
    cudaEventDestroy(start);
    return Error{ErrorKind::kCudaError, "cudaEventCreate"};
  }
  std::vector<double> times;
  Status status = Status::ok();
  for (int i = 0; i < kPlanRepeats && status; ++i) {
    cudaEventRecord(start, nullptr);
    status = cudnn_status(api, api.backend_execute(handle, plan.get(), pack.get()),
                          "cudnnBackendExecute");
    cudaEventRecord(stop, nullptr);
    float ms = 0;
    if (const cudaError_t e = cudaEventSynchronize(stop); e != cudaSuccess) {
      status = Error{ErrorKind::kCudaError, cudaGetErrorString(e)};
    } else if (cudaEventElapsedTime(&ms, start, stop) == cudaSuccess) {
      times.push_back(ms);
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (!status) return status.error();
  if (times.empty()) return Error{ErrorKind::kCudaError, "no time from the events"};
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

Result<Descriptor> make_variant_pack(const CudnnApi& api, const void* in, const void* w, void* out,
                                     void* workspace) {
  auto pack = create(api, CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "variant pack");
  if (!pack) return pack.error();
  const int64_t uids[] = {lessons::kCudnnUidX, lessons::kCudnnUidW, lessons::kCudnnUidY};
  void* pointers[] = {const_cast<void*>(in), const_cast<void*>(w), out};
  TL_CUDNN_SET(*pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 3, uids);
  TL_CUDNN_SET(*pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 3, pointers);
  TL_CUDNN_SET(*pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace);
  TL_RETURN_IF_ERROR(finalize(api, *pack, "variant pack"));
  return pack;
}

}  // namespace

Result<std::string> cudnn_library() {
  const Loaded& l = loaded();
  if (l.api == nullptr) return Error{ErrorKind::kNoDevice, l.description};
  return l.description;
}

Result<std::string> cudnn_library_at(const std::string& path) {
  const Loaded l = load({path});
  if (l.api == nullptr) return Error{ErrorKind::kNoDevice, l.description};
  if (!l.api->graph_missing.empty()) {
    return l.description + "; this cuDNN lacks the graph API's functions: " + l.api->graph_missing;
  }
  return l.description;
}

Status cudnn_graph_api() {
  const Loaded& l = loaded();
  if (l.api == nullptr) return Error{ErrorKind::kNoDevice, l.description};
  if (!l.api->graph_missing.empty()) {
    return Error{ErrorKind::kNoDevice,
                 "this cuDNN lacks the graph API's functions: " + l.api->graph_missing};
  }
  return Status::ok();
}

Status cudnn_graph_check_descriptors(const lessons::ConvShape& shape, bool fp16) {
  TL_RETURN_IF_ERROR(cudnn_graph_api());
  auto operation = make_operation(*loaded().api, shape, fp16);
  if (!operation) return operation.error();
  return Status::ok();
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
  // The graph path: the operation, its graph, every plan timed (the chosen one at `chosen`) and the
  // variant pack of the pointers it was last given. Declared after the handle, so destroyed first.
  std::optional<GraphOperation> operation;
  Descriptor graph;
  std::vector<GraphPlan> plans;
  std::size_t chosen = 0;
  Descriptor pack;
  const void* pack_in = nullptr;
  const void* pack_w = nullptr;
  void* pack_out = nullptr;
  bool graph_prepared = false;
  ~State() {
    if (api == nullptr) return;
    pack = {};
    plans.clear();
    graph = {};
    operation.reset();
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
    s.choice = CudnnChoice{};
    s.choice.algorithm = algorithm_name(r.algo);
    s.choice.found_ms = static_cast<double>(r.time);
    s.choice.workspace_bytes = static_cast<double>(r.memory);
    s.choice.tensor_ops = tensor_ops;
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

Status CudnnConvolution::prepare_graph(const lessons::ConvShape& shape, bool fp16, const void* in,
                                       const void* w, void* out) {
  TL_RETURN_IF_ERROR(cudnn_graph_api());
  state_ = std::make_unique<State>();
  State& s = *state_;
  s.api = loaded().api;
  const CudnnApi& api = *s.api;
  TL_RETURN_IF_ERROR(cudnn_status(api, api.create(&s.handle), "cudnnCreate"));
  // The default stream: the one the lesson's device records its timing events on.
  TL_RETURN_IF_ERROR(cudnn_status(api, api.set_stream(s.handle, nullptr), "cudnnSetStream"));
  auto operation = make_operation(api, shape, fp16);
  if (!operation) return operation.error();
  s.operation.emplace(std::move(*operation));
  auto graph = create(api, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, "operation graph");
  if (!graph) return graph.error();
  s.graph = std::move(*graph);
  // cuDNN 9's header marks the handle attributes deprecated (a device-properties descriptor can
  // stand in); they are still accepted, and are what every cuDNN 9 takes.
  TL_CUDNN_SET(s.graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
               s.operation->op.address());
  TL_CUDNN_SET(s.graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &s.handle);
  TL_RETURN_IF_ERROR(finalize(api, s.graph, "operation graph"));

  std::vector<std::pair<std::string, int>> left_out;
  std::vector<std::string> seen;  // engine and knobs of every configuration planned
  std::string heuristics_failed;
  for (const auto& [mode, mode_name] :
       {std::pair{CUDNN_HEUR_MODE_A, "mode A"}, std::pair{CUDNN_HEUR_MODE_FALLBACK, "FALLBACK"}}) {
    auto heuristics = create(api, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, "engine heuristics");
    if (!heuristics) return heuristics.error();
    TL_CUDNN_SET(*heuristics, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                 1, s.graph.address());
    TL_CUDNN_SET(*heuristics, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
    // A mode that has nothing for this graph is no failure of the path: the other may.
    if (const Status done = finalize(api, *heuristics, "engine heuristics"); !done) {
      heuristics_failed +=
          std::string(heuristics_failed.empty() ? "" : "; ") + mode_name + ": " + done.message();
      continue;
    }
    int64_t offered = 0;
    TL_RETURN_IF_ERROR(
        cudnn_status(api,
                     api.backend_get(heuristics->get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                     CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &offered, nullptr),
                     "cudnnBackendGetAttribute (CUDNN_ATTR_ENGINEHEUR_RESULTS, count)"));
    const int64_t wanted = std::min(offered, kConfigsPerMode);
    if (offered > wanted) {
      count_left_out(
          left_out, "beyond the first " + std::to_string(kConfigsPerMode) + " of a heuristics mode",
          static_cast<int>(offered - wanted));
    }
    std::vector<Descriptor> configs;
    std::vector<cudnnBackendDescriptor_t> raws;
    for (int64_t i = 0; i < wanted; ++i) {
      auto config = create(api, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, "engine configuration");
      if (!config) return config.error();
      raws.push_back(config->get());
      configs.push_back(std::move(*config));
    }
    int64_t returned = 0;
    if (wanted > 0) {
      TL_RETURN_IF_ERROR(cudnn_status(
          api,
          api.backend_get(heuristics->get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                          CUDNN_TYPE_BACKEND_DESCRIPTOR, wanted, &returned, raws.data()),
          "cudnnBackendGetAttribute (CUDNN_ATTR_ENGINEHEUR_RESULTS)"));
    }
    returned = std::min(returned, wanted);
    for (int64_t i = 0; i < returned; ++i) {
      Descriptor& config = configs[static_cast<std::size_t>(i)];
      EngineFacts facts = engine_facts(api, config);
      // Mode A and FALLBACK may offer the same configuration: it is timed once.
      const std::string key = std::to_string(facts.global_index) + ":" + facts.knobs;
      if (facts.global_index >= 0 && std::find(seen.begin(), seen.end(), key) != seen.end()) {
        continue;
      }
      seen.push_back(key);
      if (const std::string why = lessons::cudnn_engine_excluded(facts.notes, fp16); !why.empty()) {
        count_left_out(left_out, fp16 ? "converting down or reducing in less than FP32"
                                      : "using TF32 tensor cores or narrower arithmetic");
        continue;
      }
      auto plan = create(api, CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "execution plan");
      if (!plan) return plan.error();
      TL_CUDNN_SET(*plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &s.handle);
      TL_CUDNN_SET(*plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                   config.address());
      // An engine configuration that does not finalize for this graph is skipped: heuristics
      // offer some that the shape or the GPU turns out not to support.
      if (api.backend_finalize(plan->get()) != CUDNN_STATUS_SUCCESS) {
        count_left_out(left_out, "whose plan did not finalize");
        continue;
      }
      int64_t workspace = 0, one = 0;
      TL_RETURN_IF_ERROR(
          cudnn_status(api,
                       api.backend_get(plan->get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                       CUDNN_TYPE_INT64, 1, &one, &workspace),
                       "cudnnBackendGetAttribute (CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE)"));
      if (static_cast<double>(workspace) > kCudnnGraphWorkspaceLimit) {
        count_left_out(left_out, "needing more than 256 MiB of workspace");
        continue;
      }
      GraphPlan p;
      p.label =
          lessons::describe_cudnn_engine(facts.global_index, mode_name, static_cast<int>(i + 1),
                                         static_cast<int>(offered), facts.notes);
      p.facts = std::move(facts);
      p.config = std::move(config);
      p.plan = std::move(*plan);
      p.workspace = workspace;
      s.plans.push_back(std::move(p));
    }
  }
  if (s.plans.empty()) {
    std::string why = "cuDNN's graph API finalized no execution plan for " + shape.describe() +
                      (fp16 ? " in FP16" : " in FP32");
    if (!left_out.empty()) why += " (" + left_out_text(left_out) + ")";
    if (!heuristics_failed.empty()) why += "; heuristics " + heuristics_failed;
    return Error{ErrorKind::kCudaError, why};
  }

  // One workspace, the largest plan's, serves every plan in turn.
  int64_t largest = 0;
  for (const GraphPlan& p : s.plans) largest = std::max(largest, p.workspace);
  if (largest > 0) {
    if (const cudaError_t e = cudaMalloc(&s.workspace, static_cast<size_t>(largest));
        e != cudaSuccess) {
      return Error{ErrorKind::kOutOfMemory, "cuDNN's workspace (" + std::to_string(largest) +
                                                " bytes): " + cudaGetErrorString(e)};
    }
    s.workspace_bytes = static_cast<size_t>(largest);
  }
  auto pack = make_variant_pack(api, in, w, out, s.workspace);
  if (!pack) return pack.error();
  s.pack = std::move(*pack);
  s.pack_in = in;
  s.pack_w = w;
  s.pack_out = out;

  int timed = 0;
  double best = 0;
  for (std::size_t at = 0; at < s.plans.size(); ++at) {
    auto ms = time_plan(api, s.handle, s.plans[at].plan, s.pack);
    if (!ms) {
      // A plan that finalized and then fails to run is left out like one that did not finalize;
      // an error CUDA keeps (the context lost) ends the path.
      if (cudaGetLastError() != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess) {
        return Error{ErrorKind::kCudaStickyError,
                     "cuDNN's graph plan '" + s.plans[at].label + "' failed: " + ms.message()};
      }
      count_left_out(left_out, "that failed to run");
      s.plans[at].ms = -1;
      continue;
    }
    s.plans[at].ms = *ms;
    if (timed == 0 || *ms < best) {
      best = *ms;
      s.chosen = at;
    }
    ++timed;
  }
  if (timed == 0) {
    return Error{ErrorKind::kCudaError, "no plan of cuDNN's graph API ran for " + shape.describe() +
                                            " (" + left_out_text(left_out) + ")"};
  }
  const GraphPlan& chosen = s.plans[s.chosen];
  s.choice = {chosen.label,
              best,
              static_cast<double>(chosen.workspace),
              chosen.facts.notes.tensor_core,
              timed,
              left_out_text(left_out),
              chosen.facts.knobs};
  s.graph_prepared = true;
  return Status::ok();
}

Status CudnnConvolution::forward(const void* in, const void* w, void* out) {
  State& s = *state_;
  if (s.graph_prepared) {
    const CudnnApi& api = *s.api;
    if (in != s.pack_in || w != s.pack_w || out != s.pack_out) {
      auto pack = make_variant_pack(api, in, w, out, s.workspace);
      if (!pack) return pack.error();
      s.pack = std::move(*pack);
      s.pack_in = in;
      s.pack_w = w;
      s.pack_out = out;
    }
    return cudnn_status(api,
                        api.backend_execute(s.handle, s.plans[s.chosen].plan.get(), s.pack.get()),
                        "cudnnBackendExecute");
  }
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
Status CudnnConvolution::prepare_graph(const lessons::ConvShape&, bool, const void*, const void*,
                                       void*) {
  return cudnn_library().error();
}
Status CudnnConvolution::forward(const void*, const void*, void*) {
  return cudnn_library().error();
}
Result<std::string> cudnn_library_at(const std::string&) {
  return cudnn_library().error();
}
Status cudnn_graph_api() {
  return cudnn_library().error();
}
Status cudnn_graph_check_descriptors(const lessons::ConvShape&, bool) {
  return cudnn_library().error();
}

#endif

}  // namespace tl::compute
