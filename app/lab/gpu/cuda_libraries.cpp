#include "lab/gpu/cuda_libraries.hpp"

#include <cstdlib>
#include <mutex>

#include "core/dynamic_library.hpp"
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

// Each file under each of the usual folders, in that order.
DynamicLibrary open_first(const std::vector<std::string>& files) {
  std::vector<std::string> paths;
  for (const std::string& file : files) {
    for (std::string& path : candidates(file)) paths.push_back(std::move(path));
  }
  return DynamicLibrary::open_first(paths);
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
  DynamicLibrary library = open_first({"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"});
  nvrtc.path = library.path();
  const std::string& tried = library.tried();
  if (!library.loaded()) {
    loaded =
        Error{ErrorKind::kNoDevice,
              "NVRTC (the CUDA runtime compiler, libnvrtc.so.13 from the CUDA toolkit) was not "
              "found (tried " +
                  tried +
                  "); the Lab's GPU path needs it. Install the toolkit "
                  "or set CUDA_PATH; the emulator still runs your kernels."};
    return *loaded;
  }
  const bool complete = library.bind(nvrtc.version, "nvrtcVersion") &&
                        library.bind(nvrtc.error_string, "nvrtcGetErrorString") &&
                        library.bind(nvrtc.create_program, "nvrtcCreateProgram") &&
                        library.bind(nvrtc.destroy_program, "nvrtcDestroyProgram") &&
                        library.bind(nvrtc.compile_program, "nvrtcCompileProgram") &&
                        library.bind(nvrtc.get_program_log_size, "nvrtcGetProgramLogSize") &&
                        library.bind(nvrtc.get_program_log, "nvrtcGetProgramLog") &&
                        library.bind(nvrtc.get_cubin_size, "nvrtcGetCUBINSize") &&
                        library.bind(nvrtc.get_cubin, "nvrtcGetCUBIN") &&
                        library.bind(nvrtc.get_ptx_size, "nvrtcGetPTXSize") &&
                        library.bind(nvrtc.get_ptx, "nvrtcGetPTX") &&
                        library.bind(nvrtc.add_name_expression, "nvrtcAddNameExpression") &&
                        library.bind(nvrtc.get_lowered_name, "nvrtcGetLoweredName");
  if (!complete) {
    loaded = Error{ErrorKind::kNoDevice, nvrtc.path + " lacks an NVRTC function the Lab needs (" +
                                             library.missing() + ": an NVRTC older than 11.1?)"};
    return *loaded;
  }
  loaded = static_cast<const Nvrtc*>(&nvrtc);
  return *loaded;
}

Result<CompiledKernel> compile_with_nvrtc(const Nvrtc& nvrtc, const std::string& source,
                                          const std::string& kernel_name, int arch, bool traced,
                                          NvrtcPurpose purpose) {
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
  // ptxas's report (registers, spills, stack, shared memory) goes into the program log.
  if (purpose == NvrtcPurpose::kInspect) options.push_back("--ptxas-options=-v");
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
  if (purpose == NvrtcPurpose::kInspect) {
    std::size_t ptx_size = 0;
    if (nvrtc.get_ptx_size(program, &ptx_size) == 0 && ptx_size > 1) {
      kernel.ptx.resize(ptx_size);
      if (nvrtc.get_ptx(program, kernel.ptx.data()) != 0) kernel.ptx.clear();
      if (!kernel.ptx.empty()) kernel.ptx.resize(ptx_size - 1);  // its terminating zero
    }
  }
  return kernel;
}

Result<const CudaDriver*> CudaDriver::load() {
  static std::mutex mutex;
  static std::optional<Result<const CudaDriver*>> loaded;
  std::lock_guard lock(mutex);
  if (loaded) return *loaded;
  static CudaDriver driver;
  DynamicLibrary library = open_first({"libcuda.so.1", "libcuda.so"});
  if (!library.loaded()) {
    loaded = Error{ErrorKind::kNoDevice,
                   "the NVIDIA driver (libcuda.so.1) was not found: no GPU to run on"};
    return *loaded;
  }
  const bool complete = library.bind(driver.init, "cuInit") &&
                        library.bind(driver.device_get_count, "cuDeviceGetCount") &&
                        library.bind(driver.device_get, "cuDeviceGet") &&
                        library.bind(driver.device_get_name, "cuDeviceGetName") &&
                        library.bind(driver.device_get_attribute, "cuDeviceGetAttribute") &&
                        library.bind(driver.primary_context_retain, "cuDevicePrimaryCtxRetain") &&
                        library.bind(driver.context_set_current, "cuCtxSetCurrent") &&
                        library.bind(driver.context_synchronize, "cuCtxSynchronize") &&
                        library.bind(driver.module_load_data, "cuModuleLoadData") &&
                        library.bind(driver.module_unload, "cuModuleUnload") &&
                        library.bind(driver.module_get_function, "cuModuleGetFunction") &&
                        library.bind(driver.function_get_attribute, "cuFuncGetAttribute") &&
                        library.bind(driver.function_set_attribute, "cuFuncSetAttribute") &&
                        library.bind(driver.mem_alloc, "cuMemAlloc_v2") &&
                        library.bind(driver.mem_free, "cuMemFree_v2") &&
                        library.bind(driver.memcpy_htod, "cuMemcpyHtoD_v2") &&
                        library.bind(driver.memcpy_dtoh, "cuMemcpyDtoH_v2") &&
                        library.bind(driver.memcpy_dtod, "cuMemcpyDtoD_v2") &&
                        library.bind(driver.memset_d8, "cuMemsetD8_v2") &&
                        library.bind(driver.launch_kernel, "cuLaunchKernel") &&
                        library.bind(driver.event_create, "cuEventCreate") &&
                        library.bind(driver.event_record, "cuEventRecord") &&
                        library.bind(driver.event_synchronize, "cuEventSynchronize") &&
                        library.bind(driver.event_destroy, "cuEventDestroy_v2") &&
                        library.bind(driver.get_error_name, "cuGetErrorName") &&
                        library.bind(driver.get_error_string, "cuGetErrorString");
  if (complete && !library.bind(driver.event_elapsed_time, "cuEventElapsedTime_v2")) {
    library.bind(driver.event_elapsed_time, "cuEventElapsedTime");
  }
  if (!complete || driver.event_elapsed_time == nullptr) {
    loaded =
        Error{ErrorKind::kNoDevice, library.path() + " lacks a driver function the Lab needs (" +
                                        library.missing() + ")"};
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
