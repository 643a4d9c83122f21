#include "kernels/kernel_table.hpp"

namespace tl::kernels {

const KernelTable& emulator_kernels() {
  static const KernelTable table{vector_add_emulated()};
  return table;
}

}  // namespace tl::kernels
