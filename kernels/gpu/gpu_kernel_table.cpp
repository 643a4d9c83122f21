#include "kernels/kernel_table.hpp"

namespace tl::kernels {

const KernelTable& gpu_kernels() {
  static const KernelTable table{vector_add_gpu(),  matmul_gpu(),      thread_hierarchy_gpu(),
                                 matrix_add_gpu(),  dense_layer_gpu(), reductions_gpu(),
                                 moving_data_gpu(), precision_gpu(),   mlp_gpu()};
  return table;
}

}  // namespace tl::kernels
