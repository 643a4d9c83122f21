#include "lab/emulator/learner_module.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <mutex>
#include <string>
#include <utility>

#include "core/launch_config.hpp"
#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/emulator/grid_executor.hpp"
#include "lab/emulator/runtime/learner_abi.hpp"

namespace tl::lab {
namespace {

namespace abi = emu::learner_abi;
using ThreadLocalSymbol = EmulatedLearnerModule::ThreadLocalSymbol;

// The thread-local variables of the object at `path` (its static __shared__ variables among
// them), from its ELF symbol table: their offsets in the thread-local block and demangled names.
std::vector<ThreadLocalSymbol> thread_local_symbols(const std::filesystem::path& path) {
  std::vector<ThreadLocalSymbol> symbols;
  std::ifstream in(path, std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (image.size() < sizeof(Elf64_Ehdr)) return symbols;
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_shoff + std::uint64_t{header.e_shnum} * sizeof(Elf64_Shdr) > image.size()) {
    return symbols;
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  std::memcpy(sections.data(), image.data() + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  for (const Elf64_Shdr& table : sections) {
    if (table.sh_type != SHT_SYMTAB || table.sh_link >= sections.size()) continue;
    const Elf64_Shdr& names = sections[table.sh_link];
    if (table.sh_offset + table.sh_size > image.size() ||
        names.sh_offset + names.sh_size > image.size()) {
      continue;
    }
    for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= table.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym symbol;
      std::memcpy(&symbol, image.data() + table.sh_offset + at, sizeof symbol);
      if (ELF64_ST_TYPE(symbol.st_info) != STT_TLS || symbol.st_size == 0 ||
          symbol.st_name >= names.sh_size) {
        continue;
      }
      const char* mangled = image.data() + names.sh_offset + symbol.st_name;
      int status = 0;
      char* demangled = ::abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
      symbols.push_back({symbol.st_value, symbol.st_size,
                         status == 0 && demangled != nullptr ? demangled : mangled});
      std::free(demangled);
    }
  }
  return symbols;
}

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
std::size_t hook_dynamic_shared_memory_bytes() {
  return emu::dynamic_shared_memory_bytes();
}

// Where the running launch keeps the first shared-memory race its blocks report (the worker runs
// one launch at a time; blocks report from any worker thread), and the names of the object's
// thread-local variables, which its static __shared__ variables are.
std::mutex g_race_mutex;
std::string* g_race_report = nullptr;
const std::vector<ThreadLocalSymbol>* g_race_symbols = nullptr;

std::string coordinates(const std::uint32_t at[3]) {
  return "(" + std::to_string(at[0]) + ", " + std::to_string(at[1]) + ", " + std::to_string(at[2]) +
         ")";
}

std::string describe_race(const abi::RaceReport& race,
                          const std::vector<ThreadLocalSymbol>& symbols) {
  std::string where;
  if (race.dynamic != 0) {
    where = "the dynamic shared memory (extern __shared__), byte " + std::to_string(race.offset) +
            " (word " + std::to_string(race.offset / 4) + ")";
  } else {
    where = "static __shared__ memory";
    for (const ThreadLocalSymbol& symbol : symbols) {
      if (race.offset >= symbol.offset && race.offset < symbol.offset + symbol.bytes) {
        const std::uint64_t byte = race.offset - symbol.offset;
        where = "__shared__ " + symbol.name + ", byte " + std::to_string(byte) + " (word " +
                std::to_string(byte / 4) + ")";
        break;
      }
    }
  }
  return "shared-memory race in block " + coordinates(race.block) + ": thread " +
         coordinates(race.thread) + (race.writing != 0 ? " writes " : " reads ") + where +
         ", which thread " + coordinates(race.other_thread) +
         (race.other_wrote != 0 ? " wrote" : " read") +
         " since the last __syncthreads(); a __syncthreads() between the two accesses would "
         "order them";
}

void hook_report_race(const abi::RaceReport* race) {
  std::lock_guard lock(g_race_mutex);
  if (g_race_report == nullptr || !g_race_report->empty()) return;
  static const std::vector<ThreadLocalSymbol> kNone;
  *g_race_report = describe_race(*race, g_race_symbols != nullptr ? *g_race_symbols : kNone);
}
void hook_current_thread_index(std::uint32_t thread[3]) {
  thread[0] = emu::threadIdx.x;
  thread[1] = emu::threadIdx.y;
  thread[2] = emu::threadIdx.z;
}

const abi::HostHooks kHooks = {abi::kVersion,
                               hook_syncthreads,
                               hook_warp_operation,
                               hook_dynamic_shared_memory,
                               hook_dynamic_shared_memory_bytes,
                               hook_current_thread_index,
                               hook_report_race};

template <class Function>
Function symbol(void* handle, const char* name) {
  return reinterpret_cast<Function>(::dlsym(handle, name));
}

}  // namespace

EmulatedLearnerModule::StaticShared EmulatedLearnerModule::static_shared(
    const std::filesystem::path& path) {
  StaticShared shared;
  for (const ThreadLocalSymbol& symbol : thread_local_symbols(path)) {
    // The shim's and the Lab's own thread-locals (threadIdx, the entry's state) are not the
    // kernel's shared memory.
    if (symbol.name.starts_with("tl::") || symbol.name.starts_with("std::") ||
        symbol.name.starts_with("__")) {
      continue;
    }
    shared.bytes += symbol.bytes;
    if (symbol.bytes > shared.largest_bytes) {
      shared.largest_bytes = symbol.bytes;
      shared.largest = symbol.name;
    }
  }
  return shared;
}

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
  module.thread_local_symbols_ = thread_local_symbols(path);
  return module;
}

EmulatedLearnerModule::EmulatedLearnerModule(EmulatedLearnerModule&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      run_thread_(std::exchange(other.run_thread_, nullptr)),
      parameter_count_(other.parameter_count_),
      uses_fibers_(other.uses_fibers_),
      thread_local_symbols_(std::move(other.thread_local_symbols_)) {}

EmulatedLearnerModule& EmulatedLearnerModule::operator=(EmulatedLearnerModule&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) ::dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    run_thread_ = std::exchange(other.run_thread_, nullptr);
    parameter_count_ = other.parameter_count_;
    uses_fibers_ = other.uses_fibers_;
    thread_local_symbols_ = std::move(other.thread_local_symbols_);
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

const std::string& EmulatedLearnerModule::last_shared_memory_race() const {
  return last_race_;
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
  last_race_.clear();
  {
    std::lock_guard lock(g_race_mutex);
    g_race_report = &last_race_;
    g_race_symbols = &thread_local_symbols_;
  }
  struct StopCollecting {
    ~StopCollecting() {
      std::lock_guard lock(g_race_mutex);
      g_race_report = nullptr;
      g_race_symbols = nullptr;
    }
  } stop_collecting;
  return emu::run_grid(LaunchConfig{grid, block}, options, [run_thread, args] {
    const abi::Indices at = {{emu::threadIdx.x, emu::threadIdx.y, emu::threadIdx.z},
                             {emu::blockIdx.x, emu::blockIdx.y, emu::blockIdx.z},
                             {emu::blockDim.x, emu::blockDim.y, emu::blockDim.z},
                             {emu::gridDim.x, emu::gridDim.y, emu::gridDim.z}};
    run_thread(&at, args);
  });
}

}  // namespace tl::lab
