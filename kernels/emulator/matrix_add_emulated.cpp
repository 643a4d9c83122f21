// Lesson 3's kernels compiled by the host compiler for the CPU emulator.

#include "cuda_emulation.hpp"
#include "emulate.hpp"
#include "kernels/matrix_add_kernels.hpp"
#include "kernels/trace.cuh"

namespace tl::emulated {
#include "kernels/matrix_add.cuh"
}  // namespace tl::emulated

namespace tl::kernels {
namespace {

Status x_to_col(const LaunchConfig& config, const float* a, const float* b, float* c, int rows,
                int cols) {
  return emu::emulate("matrix_add_x_to_col", config, {},
                      [=] { emulated::matrix_add_x_to_col(a, b, c, rows, cols); });
}

Status x_to_row(const LaunchConfig& config, const float* a, const float* b, float* c, int rows,
                int cols) {
  return emu::emulate("matrix_add_x_to_row", config, {},
                      [=] { emulated::matrix_add_x_to_row(a, b, c, rows, cols); });
}

Status x_to_col_traced(const LaunchConfig& config, const float* a, const float* b, float* c,
                       int rows, int cols, TraceRecord* trace) {
  return emu::emulate("matrix_add_x_to_col_traced", config, {},
                      [=] { emulated::matrix_add_x_to_col_traced(a, b, c, rows, cols, trace); });
}

Status x_to_row_traced(const LaunchConfig& config, const float* a, const float* b, float* c,
                       int rows, int cols, TraceRecord* trace) {
  return emu::emulate("matrix_add_x_to_row_traced", config, {},
                      [=] { emulated::matrix_add_x_to_row_traced(a, b, c, rows, cols, trace); });
}

}  // namespace

MatrixAddKernels matrix_add_emulated() {
  return {x_to_col, x_to_row, x_to_col_traced, x_to_row_traced};
}

}  // namespace tl::kernels
