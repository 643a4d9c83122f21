// What the register-tiled matrix-multiply kernels (matmul_regtile_*.cuh, matmul_vectorized.cuh,
// matmul_warptile.cuh) share: where a result goes, and how four neighbouring floats are read.
//
// The same source runs on the GPU (nvcc) and on ThreadLab's CPU emulator (the host compiler).
#pragma once

// ---------------------------------------------------------------------------------------------
// Where a result goes. The kernels take the store as a template parameter: the lesson's kernels
// write C and say so to their trace policy (kernels/trace.cuh), which records the writer in the
// kernel that is drawn and compiles to nothing in the kernel that is timed; the dense layer applies
// its bias and sigmoid on the way out. Each is compiled into its own kernel, so a timed kernel
// contains no trace code at all.
template <class Trace>
struct StoreToC {
  float* c;
  int n;  // columns of C
  Trace trace;
  __device__ __forceinline__ void operator()(int row, int col, float value) const {
    c[row * n + col] = value;
    trace.wrote(static_cast<unsigned long long>(row) * n + col);
  }
};

// ---------------------------------------------------------------------------------------------
// The four neighbouring floats (row, col) to (row, col + 3) of a row-major matrix of rows × cols;
// those outside the matrix read as 0, which adds nothing to any sum.
//
// One float4 load moves 16 bytes in a single instruction instead of four. The hardware only does
// that at an address that is a multiple of 16 bytes: `vector_ok` (float4_rows_ok) says the matrix's
// start and row length allow it, and `col` is always a multiple of 4 here. At the matrix's edges,
// or where alignment does not allow it, the floats are read one by one.
__device__ __forceinline__ float4 load_four(const float* base, int rows, int cols, int row, int col,
                                            bool vector_ok) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (row >= rows || col >= cols) return v;
  const float* src = base + row * cols + col;
  if (vector_ok && col + 4 <= cols) return *reinterpret_cast<const float4*>(src);
  v.x = src[0];
  if (col + 1 < cols) v.y = src[1];
  if (col + 2 < cols) v.z = src[2];
  if (col + 3 < cols) v.w = src[3];
  return v;
}

// Every row of a matrix with `cols` columns starting at `base` begins on a 16-byte boundary when
// the base does and the row length is a multiple of 4 floats: then every float4 load at a column
// that is a multiple of 4 is aligned.
__device__ __forceinline__ bool float4_rows_ok(const float* base, int cols) {
  return cols % 4 == 0 && reinterpret_cast<unsigned long long>(base) % 16 == 0;
}
