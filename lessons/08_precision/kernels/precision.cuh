// The precision lesson's kernels: the same dot product and matrix product stored in FP32, TF32,
// FP16 or BF16, accumulated in that format or in FP32. Every operation is one with a stated
// rounding: __fmaf_rn and __fadd_rn, which nvcc never contracts; __hfma, already fused; __hadd,
// which carries no such promise (cuda_fp16.h gives it to __hadd_rn), but no product feeds an
// __hadd here. So the CPU emulator, which performs each of them with the GPU's rounding
// (core/numeric/low_precision.cpp), computes the same bits.
//
// Storage types: float (FP32, and TF32, whose values are floats with the low 13 mantissa bits 0),
// __half (FP16) and __nv_bfloat16 (BF16). Accumulators: the storage type itself, or float.

// TF32 and BF16 arithmetic need compute capability 8.0 (Ampere) or later; the lesson's runner
// never launches them on older GPUs, whose builds of these functions only trap.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define TL_NEEDS_SM80_OR_TRAP() __trap()
#else
#define TL_NEEDS_SM80_OR_TRAP()
#endif

#if defined(__CUDACC__)
// TF32 is no storage type: it is what a tensor core reads of a float. This conversion keeps the top
// 10 of the 23 mantissa bits, rounding to nearest with ties away from zero: the instruction
// wmma::__float_to_tf32 emits. Tensor cores do not convert themselves (fed raw FP32 bits, they
// ignore the low 13 in practice), and libraries may round differently. The emulator's version is
// tl::numeric::round_to_tf32.
__device__ inline float float_to_tf32(float x) {
  TL_NEEDS_SM80_OR_TRAP();
  unsigned int bits = __float_as_uint(x);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
#endif
  return __uint_as_float(bits);
}
#endif

// Widening to float is exact: every FP16 and BF16 value is a float.
__device__ inline float widen(float x) {
  return x;
}
__device__ inline float widen(__half x) {
  return __half2float(x);
}
__device__ inline float widen(__nv_bfloat16 x) {
  return __bfloat162float(x);
}

// Narrowing rounds to nearest, ties to even; too large becomes infinity, too small a subnormal or
// 0.
template <class T>
__device__ T narrow(float x);
template <>
__device__ inline float narrow<float>(float x) {
  return x;
}
template <>
__device__ inline __half narrow<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__device__ inline __nv_bfloat16 narrow<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

// acc + a·b, rounded once, in the accumulator's format.
__device__ inline float multiply_add(float a, float b, float acc) {
  return __fmaf_rn(a, b, acc);
}
__device__ inline __half multiply_add(__half a, __half b, __half acc) {
  return __hfma(a, b, acc);  // an FP16 accumulator: 11 significant bits
}
__device__ inline __nv_bfloat16 multiply_add(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 acc) {
  TL_NEEDS_SM80_OR_TRAP();
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  acc = __hfma(a, b, acc);  // a BF16 accumulator: 8 significant bits
#endif
  return acc;
}
// 16-bit inputs, FP32 accumulator (what tensor cores and cuBLAS do by default): the widened product
// is exact, only the add rounds, at float's 24 bits.
__device__ inline float multiply_add(__half a, __half b, float acc) {
  return __fmaf_rn(widen(a), widen(b), acc);
}
__device__ inline float multiply_add(__nv_bfloat16 a, __nv_bfloat16 b, float acc) {
  return __fmaf_rn(widen(a), widen(b), acc);
}

__device__ inline float add(float a, float b) {
  return __fadd_rn(a, b);
}
__device__ inline __half add(__half a, __half b) {
  return __hadd(a, b);
}
__device__ inline __nv_bfloat16 add(__nv_bfloat16 a, __nv_bfloat16 b) {
  TL_NEEDS_SM80_OR_TRAP();
  return __hadd(a, b);
}

// ---- Rounding the inputs ----
template <class Out>
__global__ void round_floats(const float* in, Out* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = narrow<Out>(in[i]);
}
__global__ void round_floats_to_tf32(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = float_to_tf32(in[i]);
}

// One operation per element, for the tests that compare the emulator's bits with the GPU's.
template <class T>
__global__ void multiply_add_each(const T* a, const T* b, const T* c, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = multiply_add(a[i], b[i], c[i]);
}
template <class T>
__global__ void add_each(const T* a, const T* b, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = add(a[i], b[i]);
}

// ---- The dot product: sum of a[i]·b[i] ----
// Each thread runs its own chain of multiply-adds over a grid-stride loop, then the block adds
// its threads' sums in a tree and writes one partial sum; dot_finish adds the partial sums in
// order. The order is fixed by the launch, so every run (and the emulator) adds the same numbers
// in the same order.
constexpr int kDotMaxBlock = 1024;

template <class In, class Acc>
__global__ void dot_partials(const In* a, const In* b, int n, Acc* partials) {
  __shared__ Acc partial[kDotMaxBlock];
  Acc sum = narrow<Acc>(0.0f);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    sum = multiply_add(a[i], b[i], sum);
  }
  const int tid = threadIdx.x;
  partial[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] = add(partial[tid], partial[tid + s]);
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = partial[0];
}

// One thread: the partial sums in block order, in the accumulator's format.
template <class Acc>
__global__ void dot_finish(const Acc* partials, int count, float* out) {
  Acc sum = narrow<Acc>(0.0f);
  for (int i = 0; i < count; ++i) sum = add(sum, partials[i]);
  *out = widen(sum);
}

// ---- The matrix product C = A·B (A: m × k, B: k × n, row-major) ----
// The shared-memory tiled product of the matmul lesson, one thread per element of C, over each
// storage type. Each thread adds its k products in order 0, 1, ..., k-1, one rounding per step in
// the accumulator's format. C is written as float (widening is exact).
constexpr int kPrecisionTile = 16;

template <class In, class Acc, class Trace>
__global__ void matmul_in(const In* a, const In* b, float* c, int m, int n, int k, Trace trace) {
  __shared__ In a_tile[kPrecisionTile][kPrecisionTile];
  __shared__ In b_tile[kPrecisionTile][kPrecisionTile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * kPrecisionTile + ty;
  const int col = blockIdx.x * kPrecisionTile + tx;
  Acc acc = narrow<Acc>(0.0f);
  for (int t = 0; t < k; t += kPrecisionTile) {
    a_tile[ty][tx] = (row < m && t + tx < k) ? a[row * k + t + tx] : narrow<In>(0.0f);
    b_tile[ty][tx] = (t + ty < k && col < n) ? b[(t + ty) * n + col] : narrow<In>(0.0f);
    __syncthreads();
    // Only the k real products: padding zeros would add roundings no one asked for.
    const int steps = k - t < kPrecisionTile ? k - t : kPrecisionTile;
    for (int j = 0; j < steps; ++j) acc = multiply_add(a_tile[ty][j], b_tile[j][tx], acc);
    __syncthreads();
  }
  if (row < m && col < n) {
    c[row * n + col] = widen(acc);
    trace.wrote(static_cast<unsigned long long>(row) * n + col);
  }
}
