// Built when the CUDA toolkit at hand has no CUPTI Range Profiler headers (before CUDA 12.6):
// counters are then never read, and say why.

#include "cupti_counters.hpp"

namespace tl::compute {

Status cupti_library_status() {
  return Error{ErrorKind::kNoDevice,
               "hardware counters need CUPTI's Range Profiler (CUDA 12.6 or later), and this "
               "ThreadLab was built with an older CUDA toolkit"};
}

Result<KernelCounters> count_kernel_with_cupti(const std::function<Status()>& /*launch_once*/) {
  return cupti_library_status().error();
}

}  // namespace tl::compute
