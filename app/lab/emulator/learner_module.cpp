#include "lab/emulator/learner_module.hpp"

#include <dlfcn.h>

#include <string>
#include <utility>

#include "core/launch_config.hpp"
#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/emulator/grid_executor.hpp"
#include "lab/emulator/runtime/learner_abi.hpp"

namespace tl::lab {
namespace {

namespace abi = emu::learner_abi;

// The executor's side of the hooks: the kernel's waits and this OS thread's current thread index.
void hook_syncthreads() {
  emu::syncthreads();
}
std::uint64_t hook_warp_operation(int op, unsigned mask, std::uint64_t value, int lane_arg,
                                  int width) {
  return emu::warp_operation(static_cast<emu::WarpOp>(op), mask, value, lane_arg, width);
}
unsigned char* hook_dynamic_shared_memory() {
  return emu::dynamic_shared_memory();
}
void hook_current_thread_index(std::uint32_t thread[3]) {
  thread[0] = emu::threadIdx.x;
  thread[1] = emu::threadIdx.y;
  thread[2] = emu::threadIdx.z;
}

const abi::HostHooks kHooks = {abi::kVersion, hook_syncthreads, hook_warp_operation,
                               hook_dynamic_shared_memory, hook_current_thread_index};

template <class Function>
Function symbol(void* handle, const char* name) {
  return reinterpret_cast<Function>(::dlsym(handle, name));
}

}  // namespace

Result<EmulatedLearnerModule> EmulatedLearnerModule::load(const std::filesystem::path& path) {
  ::dlerror();
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return Error{ErrorKind::kIoError, "cannot load the emulated kernel " + path.string() + ": " +
                                          (why != nullptr ? why : "unknown reason")};
  }
  EmulatedLearnerModule module;
  module.handle_ = handle;  // closed by the destructor from here on
  const auto version = symbol<ThreadlabLearnerAbiVersion>(handle, "threadlab_learner_abi_version");
  const auto bind = symbol<ThreadlabLearnerBind>(handle, "threadlab_learner_bind");
  const auto count =
      symbol<ThreadlabLearnerParameterCount>(handle, "threadlab_learner_parameter_count");
  const auto needs_fibers =
      symbol<ThreadlabLearnerNeedsFibers>(handle, "threadlab_learner_needs_fibers");
  const auto run_thread = symbol<ThreadlabLearnerRunThread>(handle, "threadlab_learner_run_thread");
  if (version == nullptr || bind == nullptr || count == nullptr || needs_fibers == nullptr ||
      run_thread == nullptr) {
    return Error{ErrorKind::kIoError,
                 path.string() + " is not a learner's kernel built by ThreadLab's emulator"};
  }
  if (version() != abi::kVersion) {
    return Error{ErrorKind::kIoError, path.string() + " was built for executor interface " +
                                          std::to_string(version()) + ", this ThreadLab speaks " +
                                          std::to_string(abi::kVersion) + "; rebuild it"};
  }
  bind(&kHooks);
  module.run_thread_ = reinterpret_cast<void*>(run_thread);
  module.parameter_count_ = count();
  module.uses_fibers_ = needs_fibers() != 0;
  return module;
}

EmulatedLearnerModule::EmulatedLearnerModule(EmulatedLearnerModule&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      run_thread_(std::exchange(other.run_thread_, nullptr)),
      parameter_count_(other.parameter_count_),
      uses_fibers_(other.uses_fibers_) {}

EmulatedLearnerModule& EmulatedLearnerModule::operator=(EmulatedLearnerModule&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) ::dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    run_thread_ = std::exchange(other.run_thread_, nullptr);
    parameter_count_ = other.parameter_count_;
    uses_fibers_ = other.uses_fibers_;
  }
  return *this;
}

EmulatedLearnerModule::~EmulatedLearnerModule() {
  if (handle_ != nullptr) ::dlclose(handle_);
}

std::uint32_t EmulatedLearnerModule::parameter_count() const {
  return parameter_count_;
}

bool EmulatedLearnerModule::uses_fibers() const {
  return uses_fibers_;
}

Status EmulatedLearnerModule::launch(const Dim3& grid, const Dim3& block,
                                     std::size_t dynamic_shared_bytes, void** args,
                                     unsigned workers) const {
  if (run_thread_ == nullptr) return invalid_argument("the emulated kernel is not loaded");
  emu::GridOptions options;
  options.barriers = uses_fibers_ ? emu::Barriers::kUsed : emu::Barriers::kNone;
  options.dynamic_shared_bytes = dynamic_shared_bytes;
  options.workers = workers;
  const auto run_thread = reinterpret_cast<ThreadlabLearnerRunThread>(run_thread_);
  return emu::run_grid(LaunchConfig{grid, block}, options, [run_thread, args] {
    const abi::Indices at = {{emu::threadIdx.x, emu::threadIdx.y, emu::threadIdx.z},
                             {emu::blockIdx.x, emu::blockIdx.y, emu::blockIdx.z},
                             {emu::blockDim.x, emu::blockDim.y, emu::blockDim.z},
                             {emu::gridDim.x, emu::gridDim.y, emu::gridDim.z}};
    run_thread(&at, args);
  });
}

}  // namespace tl::lab
