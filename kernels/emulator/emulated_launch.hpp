#pragma once
// The emulator's half of the kernel descriptions (kernels/kernel_description.hpp): `launch` runs a
// described kernel on the CPU with emu::emulate, as fibers when it calls __syncthreads(). A kernel
// set's emulator/<set>_emulated.cpp includes its kernels and its description after this, inside
// namespace tl::emulated.

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "cuda_emulation.hpp"
#include "emulate.hpp"
#include "kernels/kernel_description.hpp"
#include "kernels/trace.cuh"

namespace tl::emulated {

using kernels::describe;
using kernels::kBarriers;
using kernels::symbol;

// Calls `function` with the elements of `params`, as std::apply does, but as a direct call.
template <auto function, class Params, std::size_t... index>
inline void call_kernel(const Params& params, std::index_sequence<index...>) {
  function(std::get<index>(params)...);
}

// The launch function of `kernel`, its parameters those of the table entry it is assigned to
// (deduced from the function pointer type there). The host compiler has no launch-time shared
// memory size: kernels with dynamic shared memory size it themselves on the emulator.
template <const auto& kernel, class... Args>
Status launch(const LaunchConfig& config, Args... args) {
  using Function = std::remove_cvref_t<decltype(kernel.function)>;
  const auto params = kernels::KernelArguments<Function>::from(args...);
  emu::GridOptions options;
  options.barriers = kernel.barriers ? emu::Barriers::kUsed : emu::Barriers::kNone;
  const auto thread = [&params] { std::apply(kernel.function, params); };
  if (kernel.barriers) return emu::emulate(kernel.name, config, options, thread);
  // Barrier-free: one call per block, with the kernel inlined into the loop over its threads. The
  // kernel is named as a template argument, a direct call that flatten can inline: GCC at -O2
  // otherwise keeps even lesson 1's three-line kernel a call of its own per thread.
  return emu::emulate(
      kernel.name, config, options, thread, [&params]() __attribute__((flatten)) {
        // A copy of its own: the kernel's stores (an unsigned threadIdx may alias an int parameter)
        // cannot change it, so the compiler may keep its values across the loop rather than read
        // them again through `params` for every thread.
        const auto block_params = params;
        emu::for_each_thread_of_block([&block_params] {
          call_kernel<kernel.function>(
              block_params, std::make_index_sequence<std::tuple_size_v<decltype(block_params)>>{});
        });
      });
}

}  // namespace tl::emulated
