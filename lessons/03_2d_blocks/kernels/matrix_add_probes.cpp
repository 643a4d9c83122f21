// Lesson 3's timed/traced pairs under the mapping probe (kernels/mapping_probe.hpp): the pair whose
// drawn mapping is the lesson's point, coalesced against strided.

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/03_2d_blocks/kernels/matrix_add_kernels.hpp"

namespace tl::kernels {

std::vector<MappingProbe> matrix_add_mapping_probes() {
  const MatrixAddKernels& k = emulator_kernels().get<kernels::MatrixAddKernels>();
  const int rows = 37, cols = 29;  // neither a multiple of the block's 8 × 4
  auto a = probe_inputs(rows * cols, 1), b = probe_inputs(rows * cols, 2);
  const LaunchConfig col_config{{4, 10, 1}, {8, 4, 1}};  // x over 29 columns, y over 37 rows
  const LaunchConfig row_config{{5, 8, 1}, {8, 4, 1}};   // x over 37 rows, y over 29 columns
  std::vector<MappingProbe> probes;
  probes.push_back(
      {"matrix_add_x_to_col 37 × 29 on " + col_config.to_string(), col_config, rows, cols,
       [=, &k](float* c) { return k.x_to_col(col_config, a->data(), b->data(), c, rows, cols); },
       [=, &k](float* c, TraceRecord* trace) {
         return k.x_to_col_traced(col_config, a->data(), b->data(), c, rows, cols, trace);
       }});
  probes.push_back(
      {"matrix_add_x_to_row 37 × 29 on " + row_config.to_string(), row_config, rows, cols,
       [=, &k](float* c) { return k.x_to_row(row_config, a->data(), b->data(), c, rows, cols); },
       [=, &k](float* c, TraceRecord* trace) {
         return k.x_to_row_traced(row_config, a->data(), b->data(), c, rows, cols, trace);
       }});
  return probes;
}

}  // namespace tl::kernels
