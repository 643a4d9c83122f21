// Lesson 5: a dense neural-network layer, Y = sigmoid(X · Wᵀ + b), for a batch of inputs.
//
// All matrices are float32 and row-major:
//   X  batch × in    one input vector per row
//   W  out × in      one row of weights per neuron
//   b  out           one bias per neuron
//   Y  batch × out   Y[r][o] = sigmoid(sum over i of W[o][i] * X[r][i], plus b[o])
// With batch = 1 this is the article's y = sigmoid(W x + b), a matrix-vector product. With a batch
// of inputs it becomes a matrix-matrix product: the same weights serve every row of X.
//
// Every kernel here gives each thread one element of Y, on a 2D grid laid over Y:
//   x → the neuron o (a column of Y), y → the batch row r (a row of Y).
// Consecutive threads of a warp (consecutive threadIdx.x) thus write consecutive elements of Y.
//
// The same source runs on the GPU (nvcc) and on ThreadLab's CPU emulator (the host compiler).
//
// The kernels that ThreadLab draws take a `trace`: `trace.wrote(i)` records which thread wrote
// element i of Y in the kernel that is drawn, and compiles to nothing in the kernel that is timed
// (kernels/trace.cuh). Both are the same code.

// The fast product at large batches: a tiled product, its tiles transposed into shared memory by
// asynchronous copies.
#include "kernels/matmul_tile_io.cuh"
#include "lessons/05_dense_layer/kernels/dense_gemm_pipelined.cuh"
// The activation and the element-wise kernel that applies it, in a file of their own so that
// dense_layer_fast_math_gpu.cu can compile them alone with --use_fast_math.
#include "lessons/05_dense_layer/kernels/dense_activation.cuh"

// ---------------------------------------------------------------------------------------------
// The product z = sum over i of W[o][i] * X[r][i], staged through shared memory.
//
// A block covers blockDim.x neurons (at most 32: one warp) and blockDim.y batch rows (at most 32),
// and walks along the inputs in chunks of kDenseTileIn. For each chunk, the whole block first
// copies a tile of W (its neurons' weights) and a tile of X (its rows' inputs) into shared memory,
// then every thread reads its row of each tile from there.
//
// Why not let thread o simply walk along its own row W[o][0..in)? Neighbouring threads would then
// read addresses `in` floats apart: one warp load touches 32 different 128-byte segments. In the
// tile load below, consecutive threads read consecutive weights of one neuron's row: a warp reads
// 32 neighbouring floats, one 128-byte transaction. The reads of W are coalesced.
//
// Batch 1 (a matrix-vector product): every weight is used exactly once, so the layer can only be as
// fast as W streams from memory; coalesced reads are what matter, and the kernel is memory bound.
// Only out / 32 blocks exist, which is too few to keep a large GPU's memory system busy: cuBLAS
// splits each long dot product over more threads for that case.
// Large batch (a matrix product): each weight is used by `batch` threads. A tile of W in shared
// memory serves blockDim.y rows of X and a tile of X serves blockDim.x neurons, so each global
// read is reused that many times and the arithmetic, not memory, sets the pace.
constexpr int kDenseTileIn = 32;
constexpr int kDenseMaxTileOut = 32;
constexpr int kDenseMaxTileRows = 32;

// Every thread of the block must call this, even a thread whose (r, o) is outside Y: it helps load
// the tiles, and all threads of a block must reach the same __syncthreads().
__device__ float dense_dot_tiled(const float* X, const float* W, int batch, int in, int out) {
  // +1 column: thread o reads w_tile[o][i] while its warp neighbours read w_tile[o + 1][i], ...;
  // with 33 floats per row those land in 32 different shared-memory banks instead of one.
  __shared__ float w_tile[kDenseMaxTileOut][kDenseTileIn + 1];
  __shared__ float x_tile[kDenseMaxTileRows][kDenseTileIn];

  const int neurons_in_block = blockDim.x;
  const int rows_in_block = blockDim.y;
  const int threads_in_block = neurons_in_block * rows_in_block;
  const int thread_in_block = threadIdx.y * blockDim.x + threadIdx.x;
  const int first_neuron = blockIdx.x * blockDim.x;
  const int first_row = blockIdx.y * blockDim.y;

  float sum = 0.0f;
  for (int chunk = 0; chunk < in; chunk += kDenseTileIn) {
    // Load the tiles: slot t is (neuron or row t / kDenseTileIn, input t % kDenseTileIn), so
    // consecutive threads take consecutive inputs. Outside the matrices, load 0: it adds nothing.
    for (int t = thread_in_block; t < neurons_in_block * kDenseTileIn; t += threads_in_block) {
      const int o = first_neuron + t / kDenseTileIn;
      const int i = chunk + t % kDenseTileIn;
      w_tile[t / kDenseTileIn][t % kDenseTileIn] = (o < out && i < in) ? W[o * in + i] : 0.0f;
    }
    for (int t = thread_in_block; t < rows_in_block * kDenseTileIn; t += threads_in_block) {
      const int r = first_row + t / kDenseTileIn;
      const int i = chunk + t % kDenseTileIn;
      x_tile[t / kDenseTileIn][t % kDenseTileIn] = (r < batch && i < in) ? X[r * in + i] : 0.0f;
    }
    __syncthreads();  // the tiles are complete before anyone reads them
    for (int i = 0; i < kDenseTileIn; ++i) {
      sum += w_tile[threadIdx.x][i] * x_tile[threadIdx.y][i];
    }
    __syncthreads();  // everyone is done reading before the next chunk overwrites the tiles
  }
  return sum;
}

// ---------------------------------------------------------------------------------------------
// Unfused: three kernels, as the formula reads. Each one reads its input from global memory and
// writes its result back there, so Z makes three round trips through memory between the product
// and the final Y.

// 1. Z = X · Wᵀ
__global__ void dense_product(const float* X, const float* W, float* Z, int batch, int in,
                              int out) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const float z = dense_dot_tiled(X, W, batch, in, out);
  if (r < batch && o < out) {
    Z[r * out + o] = z;
  }
}

// 2. Z = Z + b, the bias of neuron o added to every row
__global__ void dense_add_bias(float* Z, const float* b, int batch, int out) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < batch && o < out) {
    Z[r * out + o] += b[o];
  }
}

// 3. Y = sigmoid(Z), element-wise: dense_sigmoid, in dense_activation.cuh

// ---------------------------------------------------------------------------------------------
// Fused: the same product, then bias and sigmoid applied while z is still in a register. One
// launch, and Y is the only thing written: no Z in memory at all.
template <class Trace>
__global__ void dense_fused(const float* X, const float* W, const float* b, float* Y, int batch,
                            int in, int out, Trace trace) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const float z = dense_dot_tiled(X, W, batch, in, out);
  if (r < batch && o < out) {
    Y[r * out + o] = sigmoid(z + b[o]);
    trace.wrote(r * out + o);
  }
}

// ---------------------------------------------------------------------------------------------
// The fast product ("product = fast" in the lesson): the structure the shape calls for, instead of
// one thread per element of Y. Both come unfused (the product alone, writing Z, for the
// three-launch chain) and fused (bias and sigmoid applied before the single write of Y), from the
// same code: only the last step differs, so comparing them measures fusion and nothing else.
//
// What to do with z: store it (unfused), or finish the layer (fused).
struct DenseStoreZ {
  float* z;
  int out;
  __device__ __forceinline__ void operator()(int r, int o, float value) const {
    z[r * out + o] = value;
  }
};
template <class Trace>
struct DenseStoreY {
  float* y;
  const float* b;
  int out;
  Trace trace;
  __device__ __forceinline__ void operator()(int r, int o, float value) const {
    y[r * out + o] = sigmoid(value + b[o]);
    trace.wrote(static_cast<unsigned long long>(r) * out + o);
  }
};

// Small batches: a matrix-vector product per batch row (GEMV). Each weight is used once per batch
// row, so the layer can go no faster than W streams from memory: 64 MiB for 4096 × 4096. What
// matters is keeping the memory system busy. One warp per neuron reads that neuron's row of W, the
// 32 lanes side by side, 16 bytes (a float4) each per step: every warp load is 512 contiguous
// bytes. A block of 8 warps covers 8 neurons, and out / 8 blocks per batch row keep every SM busy
// (the tiled product above has only out / 32 blocks of 32 threads at batch 1).
//
// W is read exactly once, so its loads use __ldcg ("cache global": in L2, not in L1). x, which
// every warp reads again, then keeps L1 to itself. Each lane has 8 loads of W in flight before the
// first is needed, so memory latency overlaps. On the H100 both together took the kernel from
// 31.3 to 29.8 µs at 4096 × 4096, where a bare read of the 64 MiB of W, timed the same way, takes
// 29.5 µs: the kernel streams W as fast as the GPU reads anything (tools/dense_tune).
//
// The 32 partial sums of a warp meet in shared memory, and after one barrier lane 0 of each warp
// adds its warp's 32 and writes the neuron's result. A tree (halving the active lanes each step)
// would need a barrier per step, five more for the whole block, and on a kernel this short those
// barriers cost more than 31 additions (on the H100: 29.7 against 31.6 µs at 4096 × 4096,
// tools/dense_tune). Grid: (ceil(out / 8), batch); block: 256 threads.
constexpr int kDenseGemvNeuronsPerBlock = 8;
constexpr int kDenseGemvThreads = kDenseGemvNeuronsPerBlock * 32;
constexpr int kDenseGemvLoadsInFlight = 8;

template <class Store>
__device__ void dense_gemv_body(const float* X, const float* W, int in, int out, Store store) {
  __shared__ float partial[kDenseGemvNeuronsPerBlock][32];  // [warp][lane]
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int o = blockIdx.x * kDenseGemvNeuronsPerBlock + warp;
  const int r = blockIdx.y;

  float sum = 0.0f;
  if (o < out) {
    const float* w_row = W + o * in;
    const float* x_row = X + r * in;
    if (float4_rows_ok(W, in) && float4_rows_ok(X, in)) {
      const float4* w4 = reinterpret_cast<const float4*>(w_row);
      const float4* x4 = reinterpret_cast<const float4*>(x_row);
      const int count = in / 4;
      int i = lane;
      for (; i + (kDenseGemvLoadsInFlight - 1) * 32 < count; i += kDenseGemvLoadsInFlight * 32) {
        float4 w[kDenseGemvLoadsInFlight];
        for (int u = 0; u < kDenseGemvLoadsInFlight; ++u) w[u] = __ldcg(w4 + i + u * 32);
        for (int u = 0; u < kDenseGemvLoadsInFlight; ++u) {
          const float4 x = x4[i + u * 32];
          sum += w[u].x * x.x + w[u].y * x.y + w[u].z * x.z + w[u].w * x.w;
        }
      }
      for (; i < count; i += 32) {
        const float4 w = __ldcg(w4 + i), x = x4[i];
        sum += w.x * x.x + w.y * x.y + w.z * x.z + w.w * x.w;
      }
    } else {  // rows not float4-aligned: one float at a time, still side by side
      for (int i = lane; i < in; i += 32) sum += w_row[i] * x_row[i];
    }
  }
  partial[warp][lane] = sum;
  __syncthreads();  // every thread reaches it, also those of neurons past `out`
  if (lane == 0 && o < out) {
    float z = 0.0f;
    for (int l = 0; l < 32; ++l) z += partial[warp][l];
    store(r, o, z);
  }
}

// Larger batches: a matrix product, Y = X · Wᵀ (dense_gemm_pipelined.cuh), the store doing the
// rest. Grid: (ceil(out / 128), ceil(batch / 128)); block: 256 threads; dynamic shared memory:
// dense_gemm_shared_bytes() (33 KiB).

__global__ void __launch_bounds__(kDenseGemvThreads)
    dense_gemv_product(const float* X, const float* W, float* Z, int in, int out) {
  dense_gemv_body(X, W, in, out, DenseStoreZ{Z, out});
}
template <class Trace>
__global__ void __launch_bounds__(kDenseGemvThreads)
    dense_gemv_fused(const float* X, const float* W, const float* b, float* Y, int in, int out,
                     Trace trace) {
  dense_gemv_body(X, W, in, out, DenseStoreY<Trace>{Y, b, out, trace});
}

// kWholeTiles: see dense_gemm_whole_tiles; the launch picks the kernel.
template <bool kWholeTiles>
__global__ void __launch_bounds__(DenseGemmShape::THREADS, 2)
    dense_gemm_product(const float* X, const float* W, float* Z, int batch, int in, int out) {
  dense_gemm_pipelined<kWholeTiles>(X, W, batch, in, out, DenseStoreZ{Z, out});
}
template <bool kWholeTiles, class Trace>
__global__ void __launch_bounds__(DenseGemmShape::THREADS, 2)
    dense_gemm_fused(const float* X, const float* W, const float* b, float* Y, int batch, int in,
                     int out, Trace trace) {
  dense_gemm_pipelined<kWholeTiles>(X, W, batch, in, out, DenseStoreY<Trace>{Y, b, out, trace});
}

// ---------------------------------------------------------------------------------------------
// The epilogue after a cuBLAS product: Y = sigmoid(Z + b) in one pass. cuBLAS computes the
// product; what comes after it is ours, fused into a single kernel.
template <class Trace>
__global__ void dense_bias_sigmoid(const float* Z, const float* b, float* Y, int batch, int out,
                                   Trace trace) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < batch && o < out) {
    Y[r * out + o] = sigmoid(Z[r * out + o] + b[o]);
    trace.wrote(r * out + o);
  }
}
