#include "hardware_counters.hpp"

#ifdef THREADLAB_HAVE_CUDA
#include "compute/cuda/cupti_counters.hpp"
#endif

namespace tl::compute {

Result<KernelCounters> count_kernel(Device& device, const std::function<Status()>& launch_once) {
  if (!device.is_gpu()) return Error{ErrorKind::kNoDevice, std::string(kEmulatorHasNoCounters)};
#ifdef THREADLAB_HAVE_CUDA
  return count_kernel_with_cupti(launch_once);
#else
  (void)launch_once;
  return Error{ErrorKind::kNoDevice,
               "hardware counters need CUPTI, and this ThreadLab was built without CUDA"};
#endif
}

}  // namespace tl::compute
