#include "kernels/kernel_registry.hpp"

#include <cstdio>
#include <cstdlib>

namespace tl::kernels {

const void* KernelRegistry::find(const void* identity) const {
  for (const KernelSetEntry& entry : sets_) {
    if (entry.identity == identity) return entry.launch_functions;
  }
  return nullptr;
}

const void* KernelRegistry::find_or_stop(const void* identity) const {
  if (const void* table = find(identity)) return table;
  // Not an input a user can give: a kernel-set header used by code whose lesson does not declare
  // the set in lessons/CMakeLists.txt. Stop loudly rather than launch through a null table.
  std::fprintf(stderr,
               "threadlab: internal error: a kernel set is used that the %.*s registry does not "
               "list; declare it with threadlab_lesson(... KERNEL_SET ...) in "
               "lessons/CMakeLists.txt\n",
               static_cast<int>(executor_.size()), executor_.data());
  std::abort();
}

}  // namespace tl::kernels
