#include "kernels/kernel_table.hpp"

namespace tl::kernels {

const KernelTable& emulator_kernels() {
  static const KernelTable table{
      vector_add_emulated(),  matmul_emulated(),      thread_hierarchy_emulated(),
      matrix_add_emulated(),  dense_layer_emulated(), reductions_emulated(),
      moving_data_emulated(), precision_emulated(),   mlp_emulated()};
  return table;
}

}  // namespace tl::kernels
