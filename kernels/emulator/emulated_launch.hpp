#pragma once
// The emulator's half of the kernel descriptions (kernels/kernel_description.hpp): `launch` runs a
// described kernel on the CPU with emu::emulate, as fibers when it calls __syncthreads(). A kernel
// set's emulator/<set>_emulated.cpp includes its kernels and its description after this, inside
// namespace tl::emulated.

#include <tuple>
#include <type_traits>

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

// The launch function of `kernel`, its parameters those of the table entry it is assigned to
// (deduced from the function pointer type there). The host compiler has no launch-time shared
// memory size: kernels with dynamic shared memory size it themselves on the emulator.
template <const auto& kernel, class... Args>
Status launch(const LaunchConfig& config, Args... args) {
  using Function = std::remove_cvref_t<decltype(kernel.function)>;
  const auto params = kernels::KernelArguments<Function>::from(args...);
  emu::GridOptions options;
  options.barriers = kernel.barriers ? emu::Barriers::kUsed : emu::Barriers::kNone;
  return emu::emulate(kernel.name, config, options,
                      [&params] { std::apply(kernel.function, params); });
}

}  // namespace tl::emulated
