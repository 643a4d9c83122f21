#pragma once
// The boundary between ThreadLab and a learner's kernel built for the emulator (a shared object,
// learner_compiler.hpp). Both sides compile this same text: ThreadLab from the source tree, the
// learner's object from the copy ThreadLab writes beside it. Plain C types only, so the two
// compilers need not agree on anything else.
//
// The shared object keeps its own copies of threadIdx, blockIdx, blockDim and gridDim (the shim's
// thread-local variables, hidden inside it). ThreadLab's grid executor runs each emulated thread by
// calling threadlab_learner_run_thread with the indices it set for that thread; whenever the
// kernel waits (__syncthreads(), a warp operation) it calls back into ThreadLab through the hooks,
// where the executor switches fibers, and on return re-reads its thread index, since the OS thread
// now runs another emulated thread.

#include <cstddef>
#include <cstdint>

namespace tl::emu::learner_abi {

// Bumped whenever anything below changes; a shared object of another version is refused.
inline constexpr std::uint32_t kVersion = 3;

struct Indices {
  std::uint32_t thread[3];
  std::uint32_t block[3];
  std::uint32_t block_dim[3];
  std::uint32_t grid_dim[3];
};

// ThreadLab's executor, as the shared object calls it. `op` is a tl::emu::WarpOp.
struct HostHooks {
  std::uint32_t version;
  void (*syncthreads)();
  std::uint64_t (*warp_operation)(int op, unsigned mask, std::uint64_t value, int lane_arg,
                                  int width);
  unsigned char* (*dynamic_shared_memory)();
  std::size_t (*dynamic_shared_memory_bytes)();
  void (*current_thread_index)(std::uint32_t thread[3]);
  // A build with the shared-memory race check (THREADLAB_RACE_CHECK) reports the first race of a
  // block here (ThreadLab words it, naming the variable from the object's symbols).
  void (*report_race)(const struct RaceReport* report);
  // A build that records memory accesses (THREADLAB_MEMORY_RECORD) asks, as each emulated thread
  // starts, whether the block it belongs to is recorded (1) or not (0), and reports each access of
  // a recorded block: `pc` the instruction after the access's callback (its site), `address` the
  // byte address, or for shared memory the offset in its region (`flags`: kAccess*).
  std::uint32_t (*memory_recording_block)();
  void (*record_memory_access)(std::uint64_t pc, std::uint64_t address, std::uint32_t bytes,
                               std::uint32_t flags);
};

inline constexpr std::uint32_t kAccessStore = 1;
inline constexpr std::uint32_t kAccessStaticShared = 2;   // offset in the object's thread-locals
inline constexpr std::uint32_t kAccessDynamicShared = 4;  // offset in the dynamic shared memory

struct RaceReport {
  std::uint32_t block[3];
  std::uint32_t thread[3];        // the access that completed the race
  std::uint32_t other_thread[3];  // the earlier access since the same barrier
  std::uint32_t writing;          // 1: this access writes
  std::uint32_t other_wrote;      // 1: the earlier one wrote
  std::uint32_t dynamic;          // 1: dynamic shared memory; 0: a static __shared__ variable
  std::uint64_t offset;  // bytes into the dynamic memory, or into the object's thread-local block
};

}  // namespace tl::emu::learner_abi

// What the shared object exports (learner_entry.hpp defines them).
extern "C" {
using ThreadlabLearnerAbiVersion = std::uint32_t (*)();
using ThreadlabLearnerBind = void (*)(const tl::emu::learner_abi::HostHooks* hooks);
using ThreadlabLearnerParameterCount = std::uint32_t (*)();
// 1 when the kernel's source waits for other threads (barriers, warp operations): run as fibers.
using ThreadlabLearnerNeedsFibers = std::uint32_t (*)();
// Runs the kernel once as the thread `at`, its parameters read from args[i] as cuLaunchKernel's.
using ThreadlabLearnerRunThread = void (*)(const tl::emu::learner_abi::Indices* at, void** args);
}
