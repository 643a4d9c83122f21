// Lesson 4: C = A · B, with A of M×K, B of K×N and C of M×N floats, all stored row by row
// (row-major: element (row, col) of a matrix with `cols` columns lives at row * cols + col).
//
// The same source runs on the GPU (compiled by nvcc) and on ThreadLab's CPU emulator (compiled by
// the host compiler), and the lesson shows it to you exactly as it is here.
//
// `trace.wrote(i)` is how ThreadLab learns which thread wrote element i of C: it records it in the
// kernel that is drawn and compiles to nothing in the kernel that is timed (kernels/trace.cuh), so
// the picture always shows the mapping that was timed.

// ---------------------------------------------------------------------------------------------
// 0. Uncoalesced: one thread per element of C, with x picking the ROW. It computes exactly what the
// naive kernel below computes; only the mapping of threads to elements is turned around, and that
// alone makes it several times slower. The 32 threads of a warp (consecutive threadIdx.x) now take
// 32 consecutive rows: in each step of the loop they read a[row * k + i] for 32 rows, addresses K
// floats apart, 32 separate memory transactions where one would do, and they write C the same way.
// (They all read the same b[i * n + col], which the hardware broadcasts.) This is the first rung of
// the ladder, the mistake to see once: the grid is (ceil(M / block x), ceil(N / block y)).
template <class Trace>
__global__ void matmul_uncoalesced(const float* a, const float* b, float* c, int m, int n, int k,
                                   Trace trace) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) {
      sum += a[row * k + i] * b[i * n + col];
    }
    c[row * n + col] = sum;
    trace.wrote(row * n + col);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Naive (coalesced): one thread per element of C.
//
// The grid is 2D: x picks the column, y the row. Threads next to each other in x (the same warp)
// then read neighbouring columns of B, B[i * n + col], B[i * n + col + 1], ..., which the hardware
// merges into a few wide memory transactions ("coalesced"). Each thread walks a whole row of A and
// a whole column of B: every element of A is read N times and every element of B M times, straight
// from global memory.
template <class Trace>
__global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k,
                             Trace trace) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {  // the grid is rounded up to whole blocks: skip threads past the edge
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) {
      sum += a[row * k + i] * b[i * n + col];
    }
    c[row * n + col] = sum;
    trace.wrote(row * n + col);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Tiled: a block of TILE×TILE threads computes a TILE×TILE tile of C and walks along K one tile
// at a time. In each phase the block copies one TILE×TILE tile of A and one of B into __shared__
// memory, fast on-chip memory seen by every thread of the block, each thread copying one element of
// each. Then every thread reads TILE values of each tile from shared memory instead of global
// memory: global reads drop by a factor of TILE.
//
// __syncthreads() is a barrier for the threads of one block. The first one makes sure the tiles
// are completely loaded before anyone reads them; the second makes sure everyone has finished
// reading before the next phase overwrites them.
//
// Launch with blocks of exactly TILE×TILE threads: one thread per element of a tile.
template <int TILE, class Trace>
__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k,
                             Trace trace) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];

  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;

  int phases = (k + TILE - 1) / TILE;  // K rounded up to whole tiles
  for (int phase = 0; phase < phases; ++phase) {
    // Each thread loads one element of each tile. Outside the matrices it stores 0, which adds
    // nothing to the sum: partial tiles at the edges need no special case below.
    int a_col = phase * TILE + threadIdx.x;
    int b_row = phase * TILE + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
    __syncthreads();  // the tiles are complete

    for (int i = 0; i < TILE; ++i) {
      sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];
    }
    __syncthreads();  // everyone is done with the tiles: the next phase may overwrite them
  }

  // Threads past the edge could not return early: they had to load their share of the tiles and
  // reach every __syncthreads(). Only now do they skip the write.
  if (row < m && col < n) {
    c[row * n + col] = sum;
    trace.wrote(row * n + col);
  }
}
