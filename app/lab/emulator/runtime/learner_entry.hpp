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

namespace tl::emu {
namespace learner {

inline const learner_abi::HostHooks* hooks = nullptr;

// After a wait this OS thread may run another emulated thread: take its index from the executor.
inline void reload_thread_index() {
  std::uint32_t thread[3];
  hooks->current_thread_index(thread);
  threadIdx = {thread[0], thread[1], thread[2]};
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

inline void enter(const learner_abi::Indices* at) {
  threadIdx = {at->thread[0], at->thread[1], at->thread[2]};
  blockIdx = {at->block[0], at->block[1], at->block[2]};
  blockDim = dim3(at->block_dim[0], at->block_dim[1], at->block_dim[2]);
  gridDim = dim3(at->grid_dim[0], at->grid_dim[1], at->grid_dim[2]);
}

}  // namespace learner

void syncthreads() {
  learner::hooks->syncthreads();
  learner::reload_thread_index();
}

std::uint64_t warp_operation(WarpOp op, unsigned mask, std::uint64_t value, int lane_arg,
                             int width) {
  const std::uint64_t result =
      learner::hooks->warp_operation(static_cast<int>(op), mask, value, lane_arg, width);
  learner::reload_thread_index();
  return result;
}

unsigned char* dynamic_shared_memory() {
  return learner::hooks->dynamic_shared_memory();
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
