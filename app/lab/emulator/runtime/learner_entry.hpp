#pragma once
// Compiled only into a learner's kernel built for the emulator (learner_compiler.cpp generates the
// translation unit: this, the Lab's preludes, the learner's kernel.cu, then
// THREADLAB_LEARNER_ENTRY). It gives the shim's waits to ThreadLab's executor through the hooks
// and calls the kernel with its parameters taken from a void** array, their types deduced from
// the kernel's own declaration, so nothing of the learner's source needs parsing.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "learner_abi.hpp"
#include "threadlab_emulator/cuda_emulation.hpp"

namespace tl::emu::learner {
inline const learner_abi::HostHooks* hooks = nullptr;
}  // namespace tl::emu::learner

#if defined(THREADLAB_RACE_CHECK) || defined(THREADLAB_MEMORY_RECORD)
#include <dlfcn.h>
#include <link.h>

namespace tl::emu::learner::instrumented {

// Where this OS thread's copy of this object's thread-local block lies (the learner's __shared__
// variables live there: each OS thread has its own), found through the loaded objects' program
// headers. {0, 0} where it cannot be found. Not instrumented itself: the race check and the
// recording call it from their callbacks.
struct ThreadLocalBlock {
  std::uintptr_t low = 0;
  std::uintptr_t bytes = 0;
};

struct ModuleSearch {
  std::uintptr_t base;
  ThreadLocalBlock found;
};

__attribute__((no_sanitize("thread"), noinline)) inline int find_own_tls(dl_phdr_info* info,
                                                                         std::size_t, void* data) {
  auto* search = static_cast<ModuleSearch*>(data);
  if (info->dlpi_addr != search->base) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type == PT_TLS) {
      search->found.low = reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data);
      search->found.bytes = info->dlpi_phdr[i].p_memsz;
    }
  }
  return 1;
}

__attribute__((no_sanitize("thread"), noinline)) inline ThreadLocalBlock own_thread_local_block() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&find_own_tls), &info) == 0) return {};
  ModuleSearch search{reinterpret_cast<std::uintptr_t>(info.dli_fbase), {}};
  dl_iterate_phdr(find_own_tls, &search);
  return search.found;
}

}  // namespace tl::emu::learner::instrumented
#endif

#if defined(THREADLAB_RACE_CHECK)
// ---------------------------------------------------------------------------------------------
// The shared-memory race check. The kernel is compiled with -fsanitize=thread, which makes the
// compiler call __tsan_read4(address), __tsan_write8(address), ... around every memory access; no
// ThreadSanitizer runtime is linked: the functions below are those callbacks. An access that falls
// in the block's shared memory (this object's thread-local block, where `__shared__` variables
// live, or the launch's dynamic shared memory) is checked against the word's last writer and
// readers: two different threads of the block touching one word between the same two
// __syncthreads(), at least one writing, is a race (for two lanes of one warp, only when no warp
// operation such as __syncwarp() came between). The first race of each block is reported through
// the hooks. Nothing here is itself instrumented (no_sanitize), and it uses no instrumented code.

#include <cstdlib>

#define TL_RACE_UNCHECKED __attribute__((no_sanitize("thread"), noinline))

namespace tl::emu::learner::race {

inline constexpr std::uint16_t kNobody = 0xffff;

struct Access {
  std::uint32_t generation = 0;  // which block (per OS thread); 0: never
  std::uint32_t barrier = 0;     // the thread's __syncthreads() count at the access
  std::uint32_t warp_sync = 0;   // its warp-operation count
  std::uint16_t thread = kNobody;
};
struct WordShadow {
  Access writer;
  Access reader[2];
};
struct ThreadClock {
  std::uint32_t barrier = 0;
  std::uint32_t warp_sync = 0;
};

struct State {
  bool ready = false;
  bool reported = false;  // this block's race is reported
  std::uintptr_t tls_low = 0, tls_bytes = 0;
  std::uintptr_t dynamic_low = 0, dynamic_bytes = 0;
  WordShadow* tls_shadow = nullptr;
  WordShadow* dynamic_shadow = nullptr;
  std::size_t dynamic_shadow_words = 0;
  ThreadClock* clocks = nullptr;
  std::size_t clock_count = 0;
  std::uint32_t generation = 0;
  std::uint32_t current = 0;  // linear index of the emulated thread running now
};
inline thread_local State state;

// Called as each emulated thread starts: thread 0 starts every block.
TL_RACE_UNCHECKED inline void begin_thread(std::uint32_t linear, std::uint32_t block_threads) {
  State& s = state;
  s.current = linear;
  if (linear != 0) return;
  if (s.tls_shadow == nullptr) {
    const instrumented::ThreadLocalBlock block = instrumented::own_thread_local_block();
    if (block.low == 0 || block.bytes == 0) return;
    s.tls_low = block.low;
    s.tls_bytes = block.bytes;
    s.tls_shadow = static_cast<WordShadow*>(std::calloc(s.tls_bytes / 4 + 1, sizeof(WordShadow)));
    if (s.tls_shadow == nullptr) return;
  }
  s.dynamic_low = reinterpret_cast<std::uintptr_t>(hooks->dynamic_shared_memory());
  s.dynamic_bytes = s.dynamic_low == 0 ? 0 : hooks->dynamic_shared_memory_bytes();
  if (s.dynamic_bytes / 4 + 1 > s.dynamic_shadow_words) {
    std::free(s.dynamic_shadow);
    s.dynamic_shadow_words = s.dynamic_bytes / 4 + 1;
    s.dynamic_shadow =
        static_cast<WordShadow*>(std::calloc(s.dynamic_shadow_words, sizeof(WordShadow)));
    if (s.dynamic_shadow == nullptr) s.dynamic_bytes = s.dynamic_shadow_words = 0;
  }
  if (block_threads > s.clock_count) {
    std::free(s.clocks);
    s.clocks = static_cast<ThreadClock*>(std::calloc(block_threads, sizeof(ThreadClock)));
    s.clock_count = s.clocks == nullptr ? 0 : block_threads;
  }
  for (std::size_t i = 0; i < s.clock_count; ++i) s.clocks[i] = ThreadClock{};
  ++s.generation;
  s.reported = false;
  s.ready = s.clocks != nullptr;
}

// After a wait (a barrier, a warp operation) this OS thread may go on with another emulated
// thread than the one that waited: the accesses that follow are that thread's. Without this, every
// access after a kernel's first __syncthreads() counted as the last thread started, and no race
// past a barrier (a missing second __syncthreads() in a tiled loop) could be seen.
TL_RACE_UNCHECKED inline void resumed_thread(std::uint32_t linear) {
  if (state.ready) state.current = linear;
}

TL_RACE_UNCHECKED inline void passed_barrier() {
  if (state.ready && state.current < state.clock_count) ++state.clocks[state.current].barrier;
}
TL_RACE_UNCHECKED inline void passed_warp_operation() {
  if (state.ready && state.current < state.clock_count) ++state.clocks[state.current].warp_sync;
}

TL_RACE_UNCHECKED inline void coordinates(std::uint32_t linear, std::uint32_t out[3]) {
  out[0] = linear % blockDim.x;
  out[1] = (linear / blockDim.x) % blockDim.y;
  out[2] = linear / (blockDim.x * blockDim.y);
}

TL_RACE_UNCHECKED inline void report(bool dynamic, std::uintptr_t offset, bool writing,
                                     const Access& other, bool other_wrote) {
  State& s = state;
  if (s.reported) return;
  s.reported = true;
  learner_abi::RaceReport found{};
  found.block[0] = blockIdx.x;
  found.block[1] = blockIdx.y;
  found.block[2] = blockIdx.z;
  coordinates(s.current, found.thread);
  coordinates(other.thread, found.other_thread);
  found.writing = writing ? 1 : 0;
  found.other_wrote = other_wrote ? 1 : 0;
  found.dynamic = dynamic ? 1 : 0;
  found.offset = offset;
  hooks->report_race(&found);
}

TL_RACE_UNCHECKED inline void check(void* address, std::size_t bytes, bool writing) {
  State& s = state;
  if (!s.ready || s.current >= s.clock_count) return;
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  WordShadow* shadow = nullptr;
  std::uintptr_t offset = 0;
  bool dynamic = false;
  if (at - s.tls_low < s.tls_bytes) {
    shadow = s.tls_shadow;
    offset = at - s.tls_low;
  } else if (at - s.dynamic_low < s.dynamic_bytes) {
    shadow = s.dynamic_shadow;
    offset = at - s.dynamic_low;
    dynamic = true;
  } else {
    return;
  }
  const ThreadClock& mine = s.clocks[s.current];
  const Access now{s.generation, mine.barrier, mine.warp_sync,
                   static_cast<std::uint16_t>(s.current)};
  auto live = [&](const Access& a) TL_RACE_UNCHECKED {
    return a.thread != kNobody && a.generation == now.generation && a.barrier == now.barrier;
  };
  auto conflicts = [&](const Access& a) TL_RACE_UNCHECKED {
    return live(a) && a.thread != now.thread &&
           (a.thread / 32 != now.thread / 32 || a.warp_sync == now.warp_sync);
  };
  for (std::uintptr_t word = offset / 4; word <= (offset + bytes - 1) / 4; ++word) {
    WordShadow& w = shadow[word];
    if (conflicts(w.writer)) report(dynamic, word * 4, writing, w.writer, true);
    if (writing) {
      for (const Access& r : w.reader) {
        if (conflicts(r)) report(dynamic, word * 4, true, r, false);
      }
      w.writer = now;
      w.reader[0] = w.reader[1] = Access{};
    } else if (!live(w.reader[0]) || w.reader[0].thread == now.thread) {
      w.reader[0] = now;
    } else if (!live(w.reader[1]) || w.reader[1].thread == now.thread) {
      w.reader[1] = now;
    }
  }
}

}  // namespace tl::emu::learner::race

extern "C" {
TL_RACE_UNCHECKED void __tsan_init() {}
TL_RACE_UNCHECKED void __tsan_func_entry(void*) {}
TL_RACE_UNCHECKED void __tsan_func_exit() {}
TL_RACE_UNCHECKED void __tsan_vptr_update(void**, void*) {}
TL_RACE_UNCHECKED void __tsan_vptr_read(void**) {}
TL_RACE_UNCHECKED void __tsan_read_range(void* a, std::size_t n) {
  if (n != 0) ::tl::emu::learner::race::check(a, n, false);
}
TL_RACE_UNCHECKED void __tsan_write_range(void* a, std::size_t n) {
  if (n != 0) ::tl::emu::learner::race::check(a, n, true);
}
#define THREADLAB_TSAN_ACCESS(bytes)                              \
  TL_RACE_UNCHECKED void __tsan_read##bytes(void* a) {            \
    ::tl::emu::learner::race::check(a, bytes, false);             \
  }                                                               \
  TL_RACE_UNCHECKED void __tsan_write##bytes(void* a) {           \
    ::tl::emu::learner::race::check(a, bytes, true);              \
  }                                                               \
  TL_RACE_UNCHECKED void __tsan_unaligned_read##bytes(void* a) {  \
    ::tl::emu::learner::race::check(a, bytes, false);             \
  }                                                               \
  TL_RACE_UNCHECKED void __tsan_unaligned_write##bytes(void* a) { \
    ::tl::emu::learner::race::check(a, bytes, true);              \
  }
THREADLAB_TSAN_ACCESS(1)
THREADLAB_TSAN_ACCESS(2)
THREADLAB_TSAN_ACCESS(4)
THREADLAB_TSAN_ACCESS(8)
THREADLAB_TSAN_ACCESS(16)
#undef THREADLAB_TSAN_ACCESS
}
#define TL_LEARNER_UNCHECKED TL_RACE_UNCHECKED
#define TL_LEARNER_BEGIN_THREAD(linear, count) ::tl::emu::learner::race::begin_thread(linear, count)
#define TL_LEARNER_RESUMED_THREAD(linear) ::tl::emu::learner::race::resumed_thread(linear)
#define TL_LEARNER_PASSED_BARRIER() ::tl::emu::learner::race::passed_barrier()
#define TL_LEARNER_PASSED_WARP_OPERATION() ::tl::emu::learner::race::passed_warp_operation()
#elif defined(THREADLAB_MEMORY_RECORD)
// ---------------------------------------------------------------------------------------------
// Memory recording (the Memory tab's figures). Built like the race check: -fsanitize=thread makes
// the compiler call __tsan_read4(address), __tsan_write16(address), ... at every memory access,
// and these functions are those callbacks. In a block the host records, each access goes to the
// host with its site, the return address into the instrumented code (one per access instruction:
// the host names its line from the object's debug information), and its address: for shared
// memory (this object's thread-local block, where `__shared__` variables live, or the launch's
// dynamic shared memory) the offset in that region, since the banks depend on the offset. The
// host keeps the accesses to the kernel's arrays and its shared variables, and drops the rest
// (its own thread-locals such as threadIdx, parameters read from the argument array). Atomics are
// not instrumented (TL_EMU_NOT_RACE_CHECKED): they are not recorded.

#define TL_RECORD_UNCHECKED __attribute__((no_sanitize("thread"), noinline))

namespace tl::emu::learner::recording {

// How many recorded blocks run now, over all OS threads: while none does (most of a launch, when a
// few blocks of many are recorded) an access costs its callback's call and one load of this plain
// global, not a thread-local lookup (__tls_get_addr in a shared object). The host sets the
// generation before and after each recording launch (threadlab_learner_recording_generation), so a
// thread's flag from an earlier launch counts for nothing and the count starts from zero.
inline std::uint32_t recorded_blocks_running = 0;
inline std::uint32_t generation = 0;

struct State {
  bool searched = false;
  bool on = false;               // this block is recorded
  std::uint32_t generation = 0;  // of the launch that set `on`
  std::uintptr_t tls_low = 0, tls_bytes = 0;
  std::uintptr_t dynamic_low = 0, dynamic_bytes = 0;
};
inline thread_local State state;

// Called as each emulated thread starts; thread 0 starts every block.
TL_RECORD_UNCHECKED inline void begin_thread(std::uint32_t linear) {
  State& s = state;
  if (!s.searched) {
    // This OS thread's copy of the thread-local block (where the learner's __shared__ variables
    // are): found once per OS thread, since each has its own.
    s.searched = true;
    const instrumented::ThreadLocalBlock block = instrumented::own_thread_local_block();
    s.tls_low = block.low;
    s.tls_bytes = block.bytes;
  }
  if (linear != 0) return;
  const std::uint32_t now = __atomic_load_n(&generation, __ATOMIC_RELAXED);
  const bool was = s.on && s.generation == now;
  s.on = hooks->memory_recording_block() != 0;
  s.generation = now;
  if (was != s.on) {
    if (s.on) {
      __atomic_add_fetch(&recorded_blocks_running, 1u, __ATOMIC_RELAXED);
    } else {
      __atomic_sub_fetch(&recorded_blocks_running, 1u, __ATOMIC_RELAXED);
    }
  }
  s.dynamic_low = reinterpret_cast<std::uintptr_t>(hooks->dynamic_shared_memory());
  s.dynamic_bytes = s.dynamic_low == 0 ? 0 : hooks->dynamic_shared_memory_bytes();
}

TL_RECORD_UNCHECKED inline void record(void* address, std::size_t bytes, bool writing, void* pc) {
  if (__atomic_load_n(&recorded_blocks_running, __ATOMIC_RELAXED) == 0) return;
  const State& s = state;
  if (!s.on || s.generation != __atomic_load_n(&generation, __ATOMIC_RELAXED)) return;
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::uint32_t flags = writing ? learner_abi::kAccessStore : 0;
  std::uint64_t where = at;
  if (at - s.tls_low < s.tls_bytes) {
    flags |= learner_abi::kAccessStaticShared;
    where = at - s.tls_low;
  } else if (at - s.dynamic_low < s.dynamic_bytes) {
    flags |= learner_abi::kAccessDynamicShared;
    where = at - s.dynamic_low;
  }
  hooks->record_memory_access(reinterpret_cast<std::uintptr_t>(pc), where,
                              static_cast<std::uint32_t>(bytes), flags);
}

// Whether the emulated thread running now belongs to a block the host records. The lessons' own
// kernels (lab/lesson_memory.cpp) skip the other blocks entirely: their memory pattern does not
// depend on what other blocks computed, so a large launch costs only the blocks recorded.
TL_RECORD_UNCHECKED inline bool block_is_recorded() {
  return state.on && state.generation == __atomic_load_n(&generation, __ATOMIC_RELAXED);
}

}  // namespace tl::emu::learner::recording

// The host launches only a build that records (EmulatedLearnerModule::launch_recording_memory).
extern "C" __attribute__((visibility("default"))) std::uint32_t threadlab_learner_records_memory() {
  return 1;
}
// Before and after each recording launch: a new generation, no recorded block running.
extern "C" __attribute__((visibility("default"))) TL_RECORD_UNCHECKED void
threadlab_learner_recording_generation() {
  using namespace ::tl::emu::learner::recording;
  __atomic_add_fetch(&generation, 1u, __ATOMIC_RELAXED);
  __atomic_store_n(&recorded_blocks_running, 0u, __ATOMIC_RELAXED);
}

extern "C" {
TL_RECORD_UNCHECKED void __tsan_init() {}
TL_RECORD_UNCHECKED void __tsan_func_entry(void*) {}
TL_RECORD_UNCHECKED void __tsan_func_exit() {}
TL_RECORD_UNCHECKED void __tsan_vptr_update(void**, void*) {}
TL_RECORD_UNCHECKED void __tsan_vptr_read(void**) {}
TL_RECORD_UNCHECKED void __tsan_read_range(void* a, std::size_t n) {
  if (n != 0) ::tl::emu::learner::recording::record(a, n, false, __builtin_return_address(0));
}
TL_RECORD_UNCHECKED void __tsan_write_range(void* a, std::size_t n) {
  if (n != 0) ::tl::emu::learner::recording::record(a, n, true, __builtin_return_address(0));
}
#define THREADLAB_TSAN_ACCESS(bytes)                                                     \
  TL_RECORD_UNCHECKED void __tsan_read##bytes(void* a) {                                 \
    ::tl::emu::learner::recording::record(a, bytes, false, __builtin_return_address(0)); \
  }                                                                                      \
  TL_RECORD_UNCHECKED void __tsan_write##bytes(void* a) {                                \
    ::tl::emu::learner::recording::record(a, bytes, true, __builtin_return_address(0));  \
  }                                                                                      \
  TL_RECORD_UNCHECKED void __tsan_unaligned_read##bytes(void* a) {                       \
    ::tl::emu::learner::recording::record(a, bytes, false, __builtin_return_address(0)); \
  }                                                                                      \
  TL_RECORD_UNCHECKED void __tsan_unaligned_write##bytes(void* a) {                      \
    ::tl::emu::learner::recording::record(a, bytes, true, __builtin_return_address(0));  \
  }
THREADLAB_TSAN_ACCESS(1)
THREADLAB_TSAN_ACCESS(2)
THREADLAB_TSAN_ACCESS(4)
THREADLAB_TSAN_ACCESS(8)
THREADLAB_TSAN_ACCESS(16)
#undef THREADLAB_TSAN_ACCESS
}
#define TL_LEARNER_UNCHECKED TL_RECORD_UNCHECKED
#define TL_LEARNER_BEGIN_THREAD(linear, count) ::tl::emu::learner::recording::begin_thread(linear)
#define TL_LEARNER_RESUMED_THREAD(linear)
#define TL_LEARNER_PASSED_BARRIER()
#define TL_LEARNER_PASSED_WARP_OPERATION()
#else
#define TL_LEARNER_UNCHECKED
#define TL_LEARNER_BEGIN_THREAD(linear, count)
#define TL_LEARNER_RESUMED_THREAD(linear)
#define TL_LEARNER_PASSED_BARRIER()
#define TL_LEARNER_PASSED_WARP_OPERATION()
#endif

namespace tl::emu {
namespace learner {

// After a wait this OS thread may run another emulated thread: take its index from the executor.
TL_LEARNER_UNCHECKED inline void reload_thread_index() {
  std::uint32_t thread[3];
  hooks->current_thread_index(thread);
  threadIdx = {thread[0], thread[1], thread[2]};
  TL_LEARNER_RESUMED_THREAD(thread[0] + blockDim.x * (thread[1] + blockDim.y * thread[2]));
}

template <class... Parameters, std::size_t... I>
void call(void (*kernel)(Parameters...), void** args, std::index_sequence<I...>) {
  kernel(*static_cast<std::remove_cvref_t<Parameters>*>(args[I])...);
}

template <class... Parameters>
void call(void (*kernel)(Parameters...), void** args) {
  call(kernel, args, std::index_sequence_for<Parameters...>{});
}

template <class... Parameters>
constexpr std::uint32_t parameter_count(void (*)(Parameters...)) {
  return sizeof...(Parameters);
}

TL_LEARNER_UNCHECKED inline void enter(const learner_abi::Indices* at) {
  threadIdx = {at->thread[0], at->thread[1], at->thread[2]};
  blockIdx = {at->block[0], at->block[1], at->block[2]};
  blockDim = dim3(at->block_dim[0], at->block_dim[1], at->block_dim[2]);
  gridDim = dim3(at->grid_dim[0], at->grid_dim[1], at->grid_dim[2]);
  TL_LEARNER_BEGIN_THREAD(
      at->thread[0] + at->block_dim[0] * (at->thread[1] + at->block_dim[1] * at->thread[2]),
      at->block_dim[0] * at->block_dim[1] * at->block_dim[2]);
}

}  // namespace learner

TL_LEARNER_UNCHECKED void syncthreads() {
  learner::hooks->syncthreads();
  learner::reload_thread_index();
  TL_LEARNER_PASSED_BARRIER();
}

TL_LEARNER_UNCHECKED std::uint64_t warp_operation(WarpOp op, unsigned mask, std::uint64_t value,
                                                  int lane_arg, int width) {
  const std::uint64_t result =
      learner::hooks->warp_operation(static_cast<int>(op), mask, value, lane_arg, width);
  learner::reload_thread_index();
  TL_LEARNER_PASSED_WARP_OPERATION();
  return result;
}

unsigned char* dynamic_shared_memory() {
  return learner::hooks->dynamic_shared_memory();
}

std::size_t dynamic_shared_memory_bytes() {
  return learner::hooks->dynamic_shared_memory_bytes();
}

}  // namespace tl::emu

#define THREADLAB_LEARNER_EXPORT extern "C" __attribute__((visibility("default")))

// The exported entry points for the `__global__` function `kernel` (which must not be overloaded
// or a template: its address names one function).
#define THREADLAB_LEARNER_ENTRY(kernel, needs_fibers)                          \
  THREADLAB_LEARNER_EXPORT std::uint32_t threadlab_learner_abi_version() {     \
    return ::tl::emu::learner_abi::kVersion;                                   \
  }                                                                            \
  THREADLAB_LEARNER_EXPORT void threadlab_learner_bind(                        \
      const ::tl::emu::learner_abi::HostHooks* hooks) {                        \
    ::tl::emu::learner::hooks = hooks;                                         \
  }                                                                            \
  THREADLAB_LEARNER_EXPORT std::uint32_t threadlab_learner_parameter_count() { \
    return ::tl::emu::learner::parameter_count(&kernel);                       \
  }                                                                            \
  THREADLAB_LEARNER_EXPORT std::uint32_t threadlab_learner_needs_fibers() {    \
    return needs_fibers;                                                       \
  }                                                                            \
  THREADLAB_LEARNER_EXPORT void threadlab_learner_run_thread(                  \
      const ::tl::emu::learner_abi::Indices* at, void** args) {                \
    ::tl::emu::learner::enter(at);                                             \
    ::tl::emu::learner::call(&kernel, args);                                   \
  }
