#pragma once
// A kernel that faults on purpose, compiled into the GPU tests only: it writes to an address no
// allocation owns, which leaves the CUDA context with a sticky error (cudaErrorIllegalAddress)
// that every later call reports until the device is reset.

#include "core/result.hpp"

namespace tl::testing {

// Launches the faulting kernel; the fault itself surfaces at the next synchronisation.
Status launch_faulting_kernel();

}  // namespace tl::testing
