#include "lab/gpu/cuda_libraries.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "lab/lab_prelude.hpp"

namespace tl::lab {
namespace {

// Where the toolkit's libraries usually are when the loader's path does not name them.
std::vector<std::string> candidates(const std::string& file) {
  std::vector<std::string> paths{file};
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"}) {
    if (const char* root = std::getenv(variable); root != nullptr && *root != '\0') {
      paths.push_back(std::string(root) + "/lib64/" + file);
    }
  }
  paths.push_back("/usr/local/cuda/lib64/" + file);
  paths.push_back("/usr/local/cuda/targets/x86_64-linux/lib/" + file);
  paths.push_back("/usr/lib/x86_64-linux-gnu/" + file);
  return paths;
}

void* open_first(const std::vector<std::string>& files, std::string& found, std::string& tried) {
  for (const std::string& file : files) {
    for (const std::string& path : candidates(file)) {
      if (void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
        found = path;
        return handle;
      }
      tried += (tried.empty() ? "" : ", ") + path;
    }
  }
  return nullptr;
}

template <typename F>
bool bind(void* handle, F& function, const char* name) {
  function = reinterpret_cast<F>(::dlsym(handle, name));
  return function != nullptr;
}

std::string program_log(const Nvrtc& nvrtc, NvrtcProgram program) {
  std::size_t size = 0;
  if (nvrtc.get_program_log_size(program, &size) != 0 || size <= 1) return {};
  std::string log(size, '\0');
  if (nvrtc.get_program_log(program, log.data()) != 0) return {};
  log.resize(size - 1);
  return log;
}

}  // namespace

Result<const Nvrtc*> Nvrtc::load() {
  static std::mutex mutex;
  static std::optional<Result<const Nvrtc*>> loaded;
  std::lock_guard lock(mutex);
  if (loaded) return *loaded;
  static Nvrtc nvrtc;
  std::string tried;
  void* handle = open_first({"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}, nvrtc.path, tried);
  if (handle == nullptr) {
    loaded =
        Error{ErrorKind::kNoDevice,
              "NVRTC (the CUDA runtime compiler, libnvrtc.so.13 from the CUDA toolkit) was not "
              "found (tried " +
                  tried +
                  "); the Lab's GPU path needs it. Install the toolkit "
                  "or set CUDA_PATH; the emulator still runs your kernels."};
    return *loaded;
  }
  const bool complete = bind(handle, nvrtc.version, "nvrtcVersion") &&
                        bind(handle, nvrtc.error_string, "nvrtcGetErrorString") &&
                        bind(handle, nvrtc.create_program, "nvrtcCreateProgram") &&
                        bind(handle, nvrtc.destroy_program, "nvrtcDestroyProgram") &&
                        bind(handle, nvrtc.compile_program, "nvrtcCompileProgram") &&
                        bind(handle, nvrtc.get_program_log_size, "nvrtcGetProgramLogSize") &&
                        bind(handle, nvrtc.get_program_log, "nvrtcGetProgramLog") &&
                        bind(handle, nvrtc.get_cubin_size, "nvrtcGetCUBINSize") &&
                        bind(handle, nvrtc.get_cubin, "nvrtcGetCUBIN") &&
                        bind(handle, nvrtc.add_name_expression, "nvrtcAddNameExpression") &&
                        bind(handle, nvrtc.get_lowered_name, "nvrtcGetLoweredName");
  if (!complete) {
    loaded = Error{ErrorKind::kNoDevice, nvrtc.path +
                                             " lacks an NVRTC function the Lab needs "
                                             "(an NVRTC older than 11.1?)"};
    return *loaded;
  }
  loaded = static_cast<const Nvrtc*>(&nvrtc);
  return *loaded;
}

Result<CompiledKernel> compile_with_nvrtc(const Nvrtc& nvrtc, const std::string& source,
                                          const std::string& kernel_name, int arch, bool traced) {
  // The prelude is a header; `#line` makes NVRTC count the learner's lines from 1 in kernel.cu.
  const std::string text = "#include \"threadlab_lab.cuh\"\n#line 1 \"kernel.cu\"\n" + source;
  const std::string prelude(lab_prelude_source());
  const char* headers[] = {prelude.c_str()};
  const char* header_names[] = {"threadlab_lab.cuh"};
  NvrtcProgram program = nullptr;
  if (int r = nvrtc.create_program(&program, text.c_str(), "kernel.cu", 1, headers, header_names);
      r != 0) {
    return Error{ErrorKind::kCudaError,
                 std::string("NVRTC could not create the program: ") + nvrtc.error_string(r)};
  }
  struct Destroy {
    const Nvrtc& nvrtc;
    NvrtcProgram& program;
    ~Destroy() { nvrtc.destroy_program(&program); }
  } destroy{nvrtc, program};

  nvrtc.add_name_expression(program, kernel_name.c_str());
  const std::string architecture = "--gpu-architecture=sm_" + std::to_string(arch);
  std::vector<const char*> options{architecture.c_str(), "--std=c++17", "-lineinfo"};
  if (traced) options.push_back("-DTL_LAB_TRACED");
  const int compiled =
      nvrtc.compile_program(program, static_cast<int>(options.size()), options.data());
  CompiledKernel kernel;
  kernel.log = program_log(nvrtc, program);
  if (compiled != 0) {
    return Error{ErrorKind::kParseError,
                 kernel.log.empty() ? std::string(nvrtc.error_string(compiled)) : kernel.log};
  }
  const char* lowered = nullptr;
  if (nvrtc.get_lowered_name(program, kernel_name.c_str(), &lowered) != 0 || lowered == nullptr) {
    return Error{ErrorKind::kParseError,
                 "kernel.cu: no __global__ function named '" + kernel_name + "' was compiled"};
  }
  kernel.lowered_name = lowered;
  std::size_t size = 0;
  if (int r = nvrtc.get_cubin_size(program, &size); r != 0 || size == 0) {
    return Error{ErrorKind::kCudaError, "NVRTC produced no cubin for sm_" + std::to_string(arch)};
  }
  kernel.cubin.resize(size);
  if (int r = nvrtc.get_cubin(program, kernel.cubin.data()); r != 0) {
    return Error{ErrorKind::kCudaError,
                 std::string("NVRTC could not hand over the cubin: ") + nvrtc.error_string(r)};
  }
  return kernel;
}

Result<const CudaDriver*> CudaDriver::load() {
  static std::mutex mutex;
  static std::optional<Result<const CudaDriver*>> loaded;
  std::lock_guard lock(mutex);
  if (loaded) return *loaded;
  static CudaDriver driver;
  std::string found;
  std::string tried;
  void* handle = open_first({"libcuda.so.1", "libcuda.so"}, found, tried);
  if (handle == nullptr) {
    loaded = Error{ErrorKind::kNoDevice,
                   "the NVIDIA driver (libcuda.so.1) was not found: no GPU to run on"};
    return *loaded;
  }
  const bool complete = bind(handle, driver.init, "cuInit") &&
                        bind(handle, driver.device_get_count, "cuDeviceGetCount") &&
                        bind(handle, driver.device_get, "cuDeviceGet") &&
                        bind(handle, driver.device_get_name, "cuDeviceGetName") &&
                        bind(handle, driver.device_get_attribute, "cuDeviceGetAttribute") &&
                        bind(handle, driver.primary_context_retain, "cuDevicePrimaryCtxRetain") &&
                        bind(handle, driver.context_set_current, "cuCtxSetCurrent") &&
                        bind(handle, driver.context_synchronize, "cuCtxSynchronize") &&
                        bind(handle, driver.module_load_data, "cuModuleLoadData") &&
                        bind(handle, driver.module_unload, "cuModuleUnload") &&
                        bind(handle, driver.module_get_function, "cuModuleGetFunction") &&
                        bind(handle, driver.function_get_attribute, "cuFuncGetAttribute") &&
                        bind(handle, driver.function_set_attribute, "cuFuncSetAttribute") &&
                        bind(handle, driver.mem_alloc, "cuMemAlloc_v2") &&
                        bind(handle, driver.mem_free, "cuMemFree_v2") &&
                        bind(handle, driver.memcpy_htod, "cuMemcpyHtoD_v2") &&
                        bind(handle, driver.memcpy_dtoh, "cuMemcpyDtoH_v2") &&
                        bind(handle, driver.memcpy_dtod, "cuMemcpyDtoD_v2") &&
                        bind(handle, driver.memset_d8, "cuMemsetD8_v2") &&
                        bind(handle, driver.launch_kernel, "cuLaunchKernel") &&
                        bind(handle, driver.event_create, "cuEventCreate") &&
                        bind(handle, driver.event_record, "cuEventRecord") &&
                        bind(handle, driver.event_synchronize, "cuEventSynchronize") &&
                        bind(handle, driver.event_destroy, "cuEventDestroy_v2") &&
                        bind(handle, driver.get_error_name, "cuGetErrorName") &&
                        bind(handle, driver.get_error_string, "cuGetErrorString");
  if (complete && !bind(handle, driver.event_elapsed_time, "cuEventElapsedTime_v2")) {
    bind(handle, driver.event_elapsed_time, "cuEventElapsedTime");
  }
  if (!complete || driver.event_elapsed_time == nullptr) {
    loaded = Error{ErrorKind::kNoDevice, found + " lacks a driver function the Lab needs"};
    return *loaded;
  }
  loaded = static_cast<const CudaDriver*>(&driver);
  return *loaded;
}

std::string CudaDriver::describe(int result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  get_error_name(result, &name);
  get_error_string(result, &text);
  return std::string(name ? name : "CUDA_ERROR_UNKNOWN") + (text ? std::string(": ") + text : "");
}

}  // namespace tl::lab
