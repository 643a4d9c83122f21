#pragma once
// Lesson 3's launch functions (lessons/03_2d_blocks/kernels/matrix_add.cuh), one set per executor:
// C = A + B on a row-major rows × cols matrix, with x → column (coalesced) or x → row (strided)
// indexing.

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct MatrixAddKernels {
  Status (*x_to_col)(const LaunchConfig& config, const float* a, const float* b, float* c, int rows,
                     int cols);
  Status (*x_to_row)(const LaunchConfig& config, const float* a, const float* b, float* c, int rows,
                     int cols);
  // Traced variants: one TraceRecord per element, at row * cols + col.
  Status (*x_to_col_traced)(const LaunchConfig& config, const float* a, const float* b, float* c,
                            int rows, int cols, TraceRecord* trace);
  Status (*x_to_row_traced)(const LaunchConfig& config, const float* a, const float* b, float* c,
                            int rows, int cols, TraceRecord* trace);
};

}  // namespace tl::kernels
