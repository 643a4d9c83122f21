#include "lab/emulator/learner_module.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "core/launch_config.hpp"
#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/emulator/grid_executor.hpp"
#include "lab/emulator/access_lines.hpp"
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

// A __shared__ variable as the learner wrote it: the symbol table names a function's static
// "matmul_tiled(tl::Matrix<float const>, ..., int)::a_tile", which buries the name in the
// signature; "a_tile (in matmul_tiled)" reads as their code does.
std::string shared_variable_name(const std::string& symbol) {
  const std::size_t scope = symbol.rfind(")::");
  if (scope == std::string::npos) return symbol;
  const std::size_t open = symbol.find('(');
  return symbol.substr(scope + 3) + " (in " + symbol.substr(0, open) + ")";
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
        where = "__shared__ " + shared_variable_name(symbol.name) + ", byte " +
                std::to_string(byte) + " (word " + std::to_string(byte / 4) + ")";
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

// The recording launch running now (one at a time): the blocks it records, each with the accesses
// its threads reported. A block runs on one worker from start to end, so each buffer has one
// writer; the worker finds its block's buffer once, as the block's thread 0 starts.
struct RawAccess {
  std::uint64_t pc;
  std::uint64_t address;
  std::uint32_t bytes;
  std::uint32_t flags;
  std::uint32_t thread;
};
struct RecordingSession {
  std::vector<std::uint64_t> blocks;             // sorted
  std::vector<std::vector<RawAccess>> accesses;  // per block, in the order above
};
std::mutex g_recording_mutex;  // one recording launch at a time
std::atomic<RecordingSession*> g_recording{nullptr};
thread_local std::vector<RawAccess>* t_block_accesses = nullptr;

std::uint32_t hook_memory_recording_block() {
  t_block_accesses = nullptr;
  RecordingSession* session = g_recording.load(std::memory_order_acquire);
  if (session == nullptr) return 0;
  const std::uint64_t linear =
      emu::blockIdx.x + std::uint64_t{emu::gridDim.x} *
                            (emu::blockIdx.y + std::uint64_t{emu::gridDim.y} * emu::blockIdx.z);
  const auto at = std::lower_bound(session->blocks.begin(), session->blocks.end(), linear);
  if (at == session->blocks.end() || *at != linear) return 0;
  t_block_accesses = &session->accesses[static_cast<std::size_t>(at - session->blocks.begin())];
  return 1;
}

void hook_record_memory_access(std::uint64_t pc, std::uint64_t address, std::uint32_t bytes,
                               std::uint32_t flags) {
  std::vector<RawAccess>* accesses = t_block_accesses;
  if (accesses == nullptr) return;
  const std::uint32_t thread =
      emu::threadIdx.x + emu::blockDim.x * (emu::threadIdx.y + emu::blockDim.y * emu::threadIdx.z);
  accesses->push_back(RawAccess{pc, address, bytes, flags, thread});
}

const abi::HostHooks kHooks = {abi::kVersion,
                               hook_syncthreads,
                               hook_warp_operation,
                               hook_dynamic_shared_memory,
                               hook_dynamic_shared_memory_bytes,
                               hook_current_thread_index,
                               hook_report_race,
                               hook_memory_recording_block,
                               hook_record_memory_access};

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
  module.records_memory_ = ::dlsym(handle, "threadlab_learner_records_memory") != nullptr;
  module.path_ = path;
  return module;
}

EmulatedLearnerModule::EmulatedLearnerModule(EmulatedLearnerModule&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      run_thread_(std::exchange(other.run_thread_, nullptr)),
      parameter_count_(other.parameter_count_),
      uses_fibers_(other.uses_fibers_),
      records_memory_(other.records_memory_),
      path_(std::move(other.path_)),
      thread_local_symbols_(std::move(other.thread_local_symbols_)) {}

EmulatedLearnerModule& EmulatedLearnerModule::operator=(EmulatedLearnerModule&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) ::dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    run_thread_ = std::exchange(other.run_thread_, nullptr);
    parameter_count_ = other.parameter_count_;
    uses_fibers_ = other.uses_fibers_;
    records_memory_ = other.records_memory_;
    path_ = std::move(other.path_);
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

Result<EmulatedLearnerModule::MemoryRecording> EmulatedLearnerModule::launch_recording_memory(
    const Dim3& grid, const Dim3& block, std::size_t dynamic_shared_bytes, void** args,
    const MemoryRecordingOptions& recording, unsigned workers) const {
  if (!records_memory_) {
    return Error{ErrorKind::kInvalidArgument,
                 "this build of the kernel does not record memory accesses (build it with "
                 "record_memory)"};
  }
  const std::uint64_t grid_blocks = std::uint64_t{grid.x} * grid.y * grid.z;
  RecordingSession session;
  session.blocks =
      recording.blocks.empty() ? memory::blocks_to_record(grid_blocks, 4) : recording.blocks;
  std::sort(session.blocks.begin(), session.blocks.end());
  session.blocks.erase(std::unique(session.blocks.begin(), session.blocks.end()),
                       session.blocks.end());
  std::erase_if(session.blocks, [&](std::uint64_t b) { return b >= grid_blocks; });
  session.accesses.resize(session.blocks.size());

  std::unique_lock lock(g_recording_mutex, std::try_to_lock);
  if (!lock.owns_lock()) {
    return Error{ErrorKind::kInvalidArgument, "another launch is recording memory accesses"};
  }
  using NewGeneration = void (*)();
  const auto new_generation =
      reinterpret_cast<NewGeneration>(::dlsym(handle_, "threadlab_learner_recording_generation"));
  if (new_generation == nullptr) {
    return Error{ErrorKind::kIoError, "the recording build lacks its generation entry; rebuild it"};
  }
  new_generation();
  g_recording.store(&session, std::memory_order_release);
  const Status status = launch(grid, block, dynamic_shared_bytes, args, workers);
  g_recording.store(nullptr, std::memory_order_release);
  new_generation();
  if (!status) return Error{status.error()};

  // The learner's static __shared__ variables (not ThreadLab's own thread-locals, threadIdx and
  // the like, which live in the same block); the dynamic shared memory follows them.
  std::vector<const ThreadLocalSymbol*> shared_variables;
  std::uint64_t static_end = 0;
  for (const ThreadLocalSymbol& symbol : thread_local_symbols_) {
    if (symbol.name.starts_with("tl::") || symbol.name.starts_with("std::") ||
        symbol.name.starts_with("__")) {
      continue;
    }
    shared_variables.push_back(&symbol);
    static_end = std::max(static_end, symbol.offset + symbol.bytes);
  }
  const std::uint64_t dynamic_base = (static_end + 127) / 128 * 128;

  MemoryRecording result;
  result.grid_blocks = grid_blocks;
  result.recorded_blocks = session.blocks.size();
  std::map<std::uint64_t, std::uint32_t> site_of_pc;
  Dl_info info{};
  const std::uintptr_t base =
      ::dladdr(run_thread_, &info) != 0 ? reinterpret_cast<std::uintptr_t>(info.dli_fbase) : 0;
  for (std::size_t i = 0; i < session.blocks.size(); ++i) {
    for (const RawAccess& a : session.accesses[i]) {
      memory::LaneRecord r;
      r.block = session.blocks[i];
      r.thread = a.thread;
      r.bytes = a.bytes;
      r.kind = (a.flags & abi::kAccessStore) != 0 ? memory::AccessKind::kStore
                                                  : memory::AccessKind::kLoad;
      if ((a.flags & abi::kAccessStaticShared) != 0) {
        const bool learners = std::any_of(
            shared_variables.begin(), shared_variables.end(), [&](const ThreadLocalSymbol* v) {
              return a.address >= v->offset && a.address < v->offset + v->bytes;
            });
        if (!learners) {
          ++result.dropped_accesses;
          continue;
        }
        r.space = memory::MemorySpace::kShared;
        r.address = a.address;
      } else if ((a.flags & abi::kAccessDynamicShared) != 0) {
        r.space = memory::MemorySpace::kShared;
        r.address = dynamic_base + a.address;
      } else {
        const bool in_arrays =
            std::any_of(recording.global.begin(), recording.global.end(),
                        [&](const MemoryRange& g) { return a.address - g.address < g.bytes; });
        if (!in_arrays) {
          ++result.dropped_accesses;
          continue;
        }
        r.space = memory::MemorySpace::kGlobal;
        r.address = a.address;
      }
      const auto [at, inserted] =
          site_of_pc.try_emplace(a.pc, static_cast<std::uint32_t>(result.site_offsets.size()));
      if (inserted) result.site_offsets.push_back(a.pc - base);
      r.site = at->second;
      result.records.push_back(r);
    }
  }
  Result<std::vector<int>> lines = kernel_lines_of_sites(path_, result.site_offsets);
  if (lines) {
    result.site_lines = std::move(*lines);
  } else {
    result.site_lines.assign(result.site_offsets.size(), 0);
    result.lines_note = lines.error().message;
  }
  return result;
}

}  // namespace tl::lab
