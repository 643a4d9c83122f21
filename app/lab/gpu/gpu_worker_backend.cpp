// The worker's GPU path: NVRTC compiles the learner's source for this device's own sm_XX (a cubin
// loads in well under a millisecond, where PTX would cost the driver's JIT ~185 ms per load on an
// H100), cached by source hash; the driver API loads it and launches it with the learner's grid,
// block and shared memory. Runs only inside `threadlab worker`.

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/dynamic_library.hpp"
#include "core/user_files.hpp"
#include "lab/gpu/cuda_libraries.hpp"
#include "lab/lab_prelude.hpp"
#include "lab/worker/kernel_parameters.hpp"
#include "lab/worker/lab_worker.hpp"

namespace tl::lab {
namespace {

struct LoadedKernel {
  CuModule module = nullptr;
  CuFunction function = nullptr;
};

// cuBLAS, loaded on first use, for the exercises whose reference is a library routine.
struct Cublas {
  int (*create)(void**) = nullptr;
  int (*sgemm)(void*, int, int, int, int, int, const float*, const float*, int, const float*, int,
               const float*, float*, int) = nullptr;
  void* handle = nullptr;

  static Cublas* load() {
    static Cublas cublas;
    static bool tried = false;
    if (!tried) {
      tried = true;
      DynamicLibrary library =
          DynamicLibrary::open_first({"libcublas.so.13", "libcublas.so.12", "libcublas.so",
                                      "/usr/local/cuda/lib64/libcublas.so.13"});
      if (library.bind(cublas.create, "cublasCreate_v2") &&
          library.bind(cublas.sgemm, "cublasSgemm_v2") && cublas.create(&cublas.handle) != 0) {
        cublas.handle = nullptr;
      }
    }
    return cublas.handle != nullptr ? &cublas : nullptr;
  }
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class GpuWorkerBackend final : public WorkerBackend {
 public:
  CompileReply compile(const CompileRequest& request) override {
    CompileReply reply;
    if (Status ready = open_device(); !ready) {
      reply.error = ready.message();
      return reply;
    }
    reply.device = device_name_ + " (sm_" + std::to_string(arch_) + ")";
    const auto start = std::chrono::steady_clock::now();
    bool all_cached = true;
    for (bool traced : {true, false}) {
      Result<CompiledKernel> compiled = cached_or_compiled(request, traced, all_cached);
      if (!compiled) {
        reply.error = compiled.error().kind == ErrorKind::kParseError ? "kernel.cu does not compile"
                                                                      : compiled.error().message;
        reply.log = compiled.error().message;
        return reply;
      }
      if (traced) reply.log = compiled->log;
      LoadedKernel& kernel = traced ? traced_ : untraced_;
      if (int r = driver_->module_load_data(&kernel.module, compiled->cubin.data()); r != 0) {
        reply.error = "the driver could not load the compiled kernel: " + driver_->describe(r);
        return reply;
      }
      if (int r = driver_->module_get_function(&kernel.function, kernel.module,
                                               compiled->lowered_name.c_str());
          r != 0) {
        reply.error =
            "the compiled kernel has no '" + request.kernel_name + "': " + driver_->describe(r);
        return reply;
      }
    }
    driver_->function_get_attribute(&reply.registers, kCuFunctionNumRegisters, untraced_.function);
    reply.compile_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    reply.from_cache = all_cached;
    reply.ok = true;
    return reply;
  }

  RunReply run(const RunRequest& request, std::byte* region) override {
    RunReply reply;
    if (traced_.function == nullptr) {
      reply.error = "nothing was compiled before the run";
      return reply;
    }
    std::vector<CuDevicePointer> allocations;
    struct Free {
      const CudaDriver* driver;
      std::vector<CuDevicePointer>& allocations;
      ~Free() {
        for (CuDevicePointer p : allocations) driver->mem_free(p);
      }
    } free_all{driver_, allocations};
    auto device_copy = [&](const std::byte* host, std::size_t bytes,
                           CuDevicePointer& device) -> int {
      if (int r = driver_->mem_alloc(&device, std::max<std::size_t>(bytes, 4)); r != 0) return r;
      allocations.push_back(device);
      return driver_->memcpy_htod(device, host, bytes);
    };

    CuDevicePointer fault = 0;
    if (request.traced) {
      // The fault record and, after it, the per-thread flags (WireFault::thread_flags).
      if (int r = device_copy(region + request.fault_offset,
                              static_cast<std::size_t>(request.fault_bytes), fault);
          r != 0) {
        return failed(reply, r, "copying the arguments");
      }
    }
    // Kernel parameters live in `storage`; `pointers` point into it, as cuLaunchKernel wants.
    std::vector<ParameterSlot> storage(request.arguments.size());
    std::vector<void*> pointers;
    std::vector<std::pair<CuDevicePointer, const WireArgument*>> outputs;
    std::vector<std::pair<CuDevicePointer, const WireArgument*>> traces;
    std::vector<CuDevicePointer> device_data(request.arguments.size(), 0);
    for (std::size_t i = 0; i < request.arguments.size(); ++i) {
      const WireArgument& a = request.arguments[i];
      pointers.push_back(storage[i].data());
      if (a.form == ArgumentForm::kScalar) {
        write_parameter(a, i, 0, 0, 0, storage[i]);
        continue;
      }
      const std::size_t elements = static_cast<std::size_t>(a.rows * a.cols);
      CuDevicePointer data = 0;
      // The guard zone past the end travels too (lab_protocol.hpp): the traced views send
      // out-of-range accesses to its first element, and the app reads its canaries back.
      if (int r = device_copy(region + a.offset, (elements + a.guard_elements) * 4, data); r != 0) {
        return failed(reply, r, "copying the arguments");
      }
      device_data[i] = data;
      if (a.copy_back) outputs.emplace_back(data, &a);
      CuDevicePointer trace = 0;
      if (request.traced && a.trace_offset >= 0) {
        if (int r = device_copy(region + a.trace_offset, elements * 16, trace); r != 0) {
          return failed(reply, r, "copying the arguments");
        }
        traces.emplace_back(trace, &a);
      }
      write_parameter(a, i, data, trace, fault, storage[i]);
    }

    const LoadedKernel& kernel = request.traced ? traced_ : untraced_;
    if (request.dynamic_shared_bytes > 48 * 1024) {
      driver_->function_set_attribute(kernel.function, kCuFunctionMaxDynamicShared,
                                      static_cast<int>(request.dynamic_shared_bytes));
    }
    Cublas* cublas = nullptr;
    if (!request.library.empty()) {
      if (request.library != "cublas-sgemm" || request.arguments.size() < 6) {
        reply.error = "unknown library reference '" + request.library + "'";
        return reply;
      }
      cublas = Cublas::load();
      if (cublas == nullptr) {
        reply.error = "cuBLAS (libcublas.so.13) is not available";
        return reply;
      }
    }
    auto launch = [&]() {
      if (cublas != nullptr) {
        // Row-major C = A · B is column-major Cᵀ = Bᵀ · Aᵀ: cuBLAS gets B first.
        const int m = request.arguments[3].int_value;
        const int n = request.arguments[4].int_value;
        const int k = request.arguments[5].int_value;
        const float one = 1.0f;
        const float zero = 0.0f;
        return cublas->sgemm(cublas->handle, 0, 0, n, m, k, &one,
                             reinterpret_cast<const float*>(device_data[1]), n,
                             reinterpret_cast<const float*>(device_data[0]), k, &zero,
                             reinterpret_cast<float*>(device_data[2]), n);
      }
      return driver_->launch_kernel(kernel.function, request.grid.x, request.grid.y, request.grid.z,
                                    request.block.x, request.block.y, request.block.z,
                                    request.dynamic_shared_bytes, nullptr, pointers.data(),
                                    nullptr);
    };
    // A refused launch (a bad configuration) leaves the context healthy; a fault while the
    // kernel runs (seen at the synchronisation) poisons it for good.
    if (int r = launch(); r != 0) {
      reply.error = "the launch was refused: " + driver_->describe(r);
      return reply;
    }
    if (int r = driver_->context_synchronize(); r != 0) {
      reply.fatal = true;
      return failed(reply, r, "while the kernel ran");
    }
    // The outputs of this one launch are what the app judges: copied back before any timed
    // repeat runs again (a sum through atomics would keep adding).
    for (const auto& [data, a] : outputs) {
      if (int r = driver_->memcpy_dtoh(
              region + a->offset, data,
              (static_cast<std::size_t>(a->rows * a->cols) + a->guard_elements) * 4);
          r != 0) {
        reply.fatal = true;
        return failed(reply, r, "copying the results back");
      }
    }
    for (const auto& [trace, a] : traces) {
      driver_->memcpy_dtoh(region + a->trace_offset, trace,
                           static_cast<std::size_t>(a->rows * a->cols) * 16);
    }
    if (fault != 0) {
      driver_->memcpy_dtoh(region + request.fault_offset, fault,
                           static_cast<std::size_t>(request.fault_bytes));
    }
    if (request.timed_repeats > 0 &&
        !time_repeats(request.timed_repeats, launch, reply, "while the kernel ran")) {
      return reply;
    }
    reply.ok = true;
    return reply;
  }

  RunReply time_copy(const CopyRequest& request) override {
    RunReply reply;
    if (context_ == nullptr) {
      reply.error = "nothing was compiled before the copy";
      return reply;
    }
    // Half the traffic is read from one buffer, half written to the other, as a kernel that
    // reads its inputs once and writes its outputs once would.
    const std::size_t half = std::max<std::size_t>(request.bytes / 2, 4);
    CuDevicePointer source = 0;
    CuDevicePointer target = 0;
    struct Free {
      const CudaDriver* driver;
      CuDevicePointer& a;
      CuDevicePointer& b;
      ~Free() {
        if (a != 0) driver->mem_free(a);
        if (b != 0) driver->mem_free(b);
      }
    } free_both{driver_, source, target};
    if (int r = driver_->mem_alloc(&source, half); r != 0) return failed(reply, r, "allocating");
    if (int r = driver_->mem_alloc(&target, half); r != 0) return failed(reply, r, "allocating");
    if (int r = driver_->memset_d8(source, 0x3f, half); r != 0) {
      return failed(reply, r, "filling the copy's source");
    }
    // One copy untimed first: the first touch of fresh allocations maps their pages.
    if (int r = driver_->memcpy_dtod(target, source, half); r != 0) {
      return failed(reply, r, "copying");
    }
    const auto copy = [&] { return driver_->memcpy_dtod(target, source, half); };
    if (!time_repeats(std::max(request.repeats, 1), copy, reply, "while copying")) return reply;
    reply.ok = true;
    return reply;
  }

 private:
  // Times `repeats` runs of `work` on the device's clock, one entry each in reply.milliseconds.
  // False, with the reply saying why, when one fails: a fault has poisoned the context for good.
  template <typename Work>
  bool time_repeats(int repeats, Work&& work, RunReply& reply, const char* when) {
    CuEvent start = nullptr;
    CuEvent stop = nullptr;
    driver_->event_create(&start, 0);
    driver_->event_create(&stop, 0);
    bool ok = true;
    for (int repeat = 0; repeat < repeats && ok; ++repeat) {
      driver_->event_record(start, nullptr);
      work();
      driver_->event_record(stop, nullptr);
      if (int r = driver_->event_synchronize(stop); r != 0) {
        reply.fatal = true;
        failed(reply, r, when);
        ok = false;
      } else {
        float ms = 0;
        driver_->event_elapsed_time(&ms, start, stop);
        reply.milliseconds.push_back(ms);
      }
    }
    driver_->event_destroy(start);
    driver_->event_destroy(stop);
    return ok;
  }

  RunReply& failed(RunReply& reply, int result, const char* when) {
    reply.ok = false;
    reply.error = driver_->describe(result) + " (" + when + ")";
    return reply;
  }

  Status open_device() {
    if (context_ != nullptr) return Status::ok();
    Result<const CudaDriver*> driver = CudaDriver::load();
    if (!driver) return driver.error();
    driver_ = *driver;
    if (int r = driver_->init(0); r != 0) {
      return Error{ErrorKind::kNoDevice, "the CUDA driver did not start: " + driver_->describe(r)};
    }
    int count = 0;
    if (driver_->device_get_count(&count) != 0 || count == 0) {
      return Error{ErrorKind::kNoDevice, "no CUDA device"};
    }
    if (int r = driver_->device_get(&device_, 0); r != 0) {
      return Error{ErrorKind::kNoDevice, driver_->describe(r)};
    }
    char name[256] = {};
    driver_->device_get_name(name, sizeof name, device_);
    device_name_ = name;
    int major = 0;
    int minor = 0;
    driver_->device_get_attribute(&major, kCuAttributeComputeMajor, device_);
    driver_->device_get_attribute(&minor, kCuAttributeComputeMinor, device_);
    arch_ = major * 10 + minor;
    if (int r = driver_->primary_context_retain(&context_, device_); r != 0) {
      return Error{ErrorKind::kNoDevice, "no CUDA context: " + driver_->describe(r)};
    }
    driver_->context_set_current(context_);
    return Status::ok();
  }

  Result<CompiledKernel> cached_or_compiled(const CompileRequest& request, bool traced,
                                            bool& all_cached) {
    Result<const Nvrtc*> nvrtc = Nvrtc::load();
    int nvrtc_major = 0;
    int nvrtc_minor = 0;
    if (nvrtc) (*nvrtc)->version(&nvrtc_major, &nvrtc_minor);
    std::uint64_t key = fnv1a(lab_prelude_source());
    key = fnv1a(request.source, key);
    key = fnv1a(request.kernel_name + "|sm_" + std::to_string(arch_) + (traced ? "|traced" : "") +
                    "|nvrtc " + std::to_string(nvrtc_major) + "." + std::to_string(nvrtc_minor),
                key);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
    std::filesystem::path cubin_path;
    if (!request.cache_dir.empty()) {
      cubin_path = std::filesystem::path(request.cache_dir) / (std::string(hex) + ".cubin");
      std::error_code error;
      if (std::filesystem::exists(cubin_path, error)) {
        CompiledKernel kernel;
        const std::string cubin = read_file(cubin_path);
        kernel.cubin.assign(cubin.begin(), cubin.end());
        kernel.lowered_name = read_file(cubin_path.string() + ".name");
        if (!kernel.cubin.empty() && !kernel.lowered_name.empty()) return kernel;
      }
    }
    all_cached = false;
    if (!nvrtc) return nvrtc.error();
    Result<CompiledKernel> compiled =
        compile_with_nvrtc(**nvrtc, request.source, request.kernel_name, arch_, traced);
    if (compiled && !cubin_path.empty()) {
      // Through the one atomic write (core/user_files.hpp): a worker killed mid-write, or a full
      // disk, leaves no half a cubin behind for the next one to load. The name first, since a
      // cubin found in the cache is used only with its name; a failed save only costs the next
      // check a compile, so it is not an error of this one.
      const Status named =
          write_file_atomically(cubin_path.string() + ".name", compiled->lowered_name);
      if (named) {
        (void)write_file_atomically(
            cubin_path, std::string_view(compiled->cubin.data(), compiled->cubin.size()));
      }
    }
    return compiled;
  }

  const CudaDriver* driver_ = nullptr;
  CuDevice device_ = 0;
  CuContext context_ = nullptr;
  std::string device_name_;
  int arch_ = 0;
  LoadedKernel traced_;
  LoadedKernel untraced_;
};

}  // namespace

std::unique_ptr<WorkerBackend> make_gpu_worker_backend() {
  return std::make_unique<GpuWorkerBackend>();
}

}  // namespace tl::lab
