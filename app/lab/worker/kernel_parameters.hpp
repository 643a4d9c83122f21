#pragma once
// The kernel parameters a learner's kernel receives, laid out once for both backends: a scalar's
// value, a plain pointer, or the prelude's Array<T> / Matrix<T> view (app/lab/prelude). Addresses
// are device pointers on the GPU and host pointers on the emulator, both 64 bits.

#include <array>
#include <cstddef>
#include <cstdint>

#include "lab/worker/lab_protocol.hpp"

namespace tl::lab {

// One parameter's bytes, as cuLaunchKernel and the emulator's entry read them (via a void* each).
using ParameterSlot = std::array<std::byte, 40>;

// Writes argument `index` into `slot`. For arrays, `data` holds its elements (and the spare one
// past the end), `trace` its TraceRecords and `fault` the run's fault record; 0 where there is
// none.
void write_parameter(const WireArgument& argument, std::size_t index, std::uint64_t data,
                     std::uint64_t trace, std::uint64_t fault, ParameterSlot& slot);

}  // namespace tl::lab
