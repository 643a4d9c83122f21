// Lesson 3: C = A + B on a rows × cols matrix of floats, stored row after row (row-major): element
// (row, col) lives at index row * cols + col, so the elements of one row are neighbours in memory.
//
// Two kernels, one per way of mapping a 2D grid of 2D blocks onto the matrix. They compute exactly
// the same C; only the order in which threads touch memory differs, and that order decides the
// speed.
//
// The same source runs on the GPU (compiled by nvcc) and on ThreadLab's CPU emulator (compiled by
// the host compiler), and the lesson shows it to you exactly as it is here. `trace.wrote(i)` is how
// ThreadLab learns which thread wrote element i: it records it in the kernel that is drawn and
// compiles to nothing in the kernel that is timed, so what you see is what was timed.

// x → column. The 32 threads of a warp have consecutive threadIdx.x (x varies fastest), so they
// take 32 consecutive columns of one row: 32 neighbouring floats, 128 bytes in a row. The GPU
// serves the whole warp with a few wide memory transactions: the accesses are *coalesced*.
template <class Trace>
__global__ void matrix_add_x_to_col(const float* a, const float* b, float* c, int rows, int cols,
                                    Trace trace) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  // The grid is rounded up to whole blocks, so the last blocks hang over the matrix's edge.
  if (row < rows && col < cols) {
    const size_t i = static_cast<size_t>(row) * cols + col;  // 64-bit: big matrices exceed 2^31
    c[i] = a[i] + b[i];
    trace.wrote(i);
  }
}

// x → row: the source article's `row = threadIdx.x, col = threadIdx.y`, extended to many blocks.
// Now the 32 threads of a warp take 32 consecutive *rows* of one column: addresses `cols` floats
// apart. Every thread needs its own memory transaction, and most of each transaction's bytes are
// fetched for nothing. Same result, several times slower on a large matrix.
template <class Trace>
__global__ void matrix_add_x_to_row(const float* a, const float* b, float* c, int rows, int cols,
                                    Trace trace) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    const size_t i = static_cast<size_t>(row) * cols + col;
    c[i] = a[i] + b[i];
    trace.wrote(i);
  }
}
