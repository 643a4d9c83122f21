#include "kernels/kernel_table.hpp"

namespace tl::kernels {

const KernelTable& gpu_kernels() {
  static const KernelTable table{vector_add_gpu()};
  return table;
}

}  // namespace tl::kernels
