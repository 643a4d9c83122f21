#pragma once
// Hardware counters through CUPTI's Range Profiler and Profiler Host APIs (CUDA 12.6 and later),
// loaded at run time with dlopen: ThreadLab starts, and everything else works, where CUPTI is not
// installed, and the counters then say why they are missing. Only CudaDevice::count_kernel calls
// this; everything that needs no GPU (the metric names, their values as numbers and words, why
// counters cannot be read) is in core/kernel_counters.hpp.

#include <functional>
#include <string>

#include "core/kernel_counters.hpp"
#include "core/result.hpp"

namespace tl::compute {

// The environment variable that names the CUPTI library to load instead of looking for it (its
// full path): for a CUPTI installed elsewhere, and for tests that point it at a file that does not
// exist.
inline constexpr const char* kCuptiLibraryVariable = "THREADLAB_CUPTI_LIBRARY";

// Whether CUPTI can be loaded (as THREADLAB_CUPTI_LIBRARY says now), and if not, why. Loaded once
// per path.
Status cupti_library_status();

// Counts the one kernel `launch_once` launches on the CUDA device current on this thread (the one
// its kernels launch on): DRAM bytes, L2 traffic and hit rate, achieved occupancy. CUPTI replays
// the kernel as many times as its metrics need passes (kernel replay, saving and restoring the
// memory it writes); `launch_once` itself may be called again when CUPTI asks for another pass. One
// counting at a time per process. Errors are the reason counters cannot be read, in words.
Result<KernelCounters> count_kernel_with_cupti(const std::function<Status()>& launch_once);

}  // namespace tl::compute
