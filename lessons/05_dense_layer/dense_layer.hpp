#pragma once
// Lesson 5, a dense layer Y = sigmoid(X · Wᵀ + b): the parameters, their validation, the inputs,
// the CPU references and the check. No CUDA here: the kernels live in
// lessons/05_dense_layer/kernels/dense_layer.cuh and run through app/compute.
//
// Shapes, all float32 and row-major: W is out × in, b has out entries, X is batch × in (one input
// vector per row) and Y is batch × out, Y[r][o] = sigmoid(sum_i W[o][i] * X[r][i] + b[o]).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/launch_config.hpp"
#include "core/lessons/catalog.hpp"
#include "core/result.hpp"
#include "core/trace.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_shapes.hpp"

namespace tl::lessons {

// Who this lesson is, as its module registers it (module.cpp).
inline constexpr LessonInfo kDenseLayerInfo{5, "dense-layer", "Dense layer",
                                            "y = sigmoid(Wx + b): unfused, fused and cuBLAS",
                                            "05_dense_layer"};
inline constexpr std::string_view kDenseLayerId = kDenseLayerInfo.id;

// The three ways the lesson computes the layer.
enum class DenseLayerPath {
  kUnfused,  // three kernels: product, add bias, sigmoid
  kFused,    // one kernel: product, bias and sigmoid in one pass
  kCublas,   // cuBLAS's SGEMM for the product, then one fused bias + sigmoid kernel (GPU only)
};
[[nodiscard]] std::string_view to_string(DenseLayerPath path);  // "unfused", "fused", "cublas"
Result<DenseLayerPath> parse_dense_layer_path(std::string_view text);

// How the product X · Wᵀ is computed, on the unfused and the fused path alike.
enum class DenseProduct {
  kTiled,  // one thread per element of Y, tiles of W and X in shared memory (any 2D block)
  kFast,   // GEMV (a warp per neuron, float4 loads) for small batches, a pipelined GEMM above
};
[[nodiscard]] std::string_view to_string(DenseProduct product);  // "tiled", "fast"
Result<DenseProduct> parse_dense_product(std::string_view text);

// Below kDenseGemvMaxBatch the fast product is a matrix-vector product per batch row; from it on,
// a tiled matrix product fed by asynchronous copies. The kernels own that threshold, the largest
// block their tiles hold and the launch rules
// (lessons/05_dense_layer/kernels/dense_layer_shapes.hpp).
using kernels::kDenseGemvMaxBatch;
using kernels::kDenseLayerMaxBlockX;
using kernels::kDenseLayerMaxBlockY;
using kernels::validate_dense_layer_launch;

// The CLI and UI names: --batch --inputs --neurons --path --product.
struct DenseLayerParams {
  std::uint64_t batch = 1;   // input vectors per launch: 1 is a matrix-vector product
  std::uint64_t in = 1024;   // inputs per vector (columns of W)
  std::uint64_t out = 1024;  // neurons (rows of W)
  DenseLayerPath path = DenseLayerPath::kFused;
  DenseProduct product = DenseProduct::kTiled;

  [[nodiscard]] std::uint64_t multiply_adds() const { return batch * in * out; }
  [[nodiscard]] std::uint64_t outputs() const { return batch * out; }  // elements of Y
};

// A traced launch records one element per element of Y: rows = batch, cols = out, element
// r * out + o.
[[nodiscard]] inline DataShape dense_layer_trace_shape(const DenseLayerParams& params) {
  return {params.batch, params.out};
}

// Every element of Y costs `in` multiply-adds (2 flops each) and one bias add. The sigmoid is not
// counted: by convention an exponential is not a flop, and it is cheap next to the product.
[[nodiscard]] double dense_layer_flops(const DenseLayerParams& params);

// Bytes a path must move through device memory at the least: W, X and b read once and Y written,
// plus each round trip of the intermediate Z. Unfused: the product writes Z, the bias kernel reads
// and writes it, the sigmoid kernel reads it (4 passes over Z). cuBLAS + epilogue: 2 passes. Fused:
// none, which is the point of fusing.
[[nodiscard]] double dense_layer_bytes(const DenseLayerParams& params, DenseLayerPath path);

// Device memory the runner allocates: W, X, b, Z and Y.
[[nodiscard]] std::uint64_t dense_layer_device_bytes(const DenseLayerParams& params);

// The kernels index with 32-bit ints, as the source article writes them, so each of X, W and Y
// holds fewer than 2^31 elements.
inline constexpr std::uint64_t kDenseLayerMaxElements = 0x7FFFFFFFull;

// Every dimension at least 1, every matrix within the int index, and everything within `max_bytes`
// of memory (0 skips that check).
Status validate_dense_layer(const DenseLayerParams& params, std::uint64_t max_bytes);

inline constexpr Dim3 kDenseLayerDefaultBlock{32, 8, 1};

// Enough blocks of `block` to give every element of Y its own thread.
[[nodiscard]] LaunchConfig dense_layer_config(const DenseLayerParams& params,
                                              Dim3 block = kDenseLayerDefaultBlock);

// The launch of the fast product, fixed by its kernels
// (lessons/05_dense_layer/kernels/dense_layer.cuh, and
// lessons/05_dense_layer/kernels/dense_gemm_pipelined.cuh for the GEMM, with 33 KiB of dynamic
// shared memory): blocks of 256 threads, over (ceil(out / 8), batch) for the GEMV, over 128×128
// tiles of Y for the GEMM. The bias and sigmoid kernels of the unfused chain and the cuBLAS
// epilogue keep the lesson's configuration.
[[nodiscard]] inline LaunchConfig dense_layer_fast_config(const DenseLayerParams& params) {
  return kernels::dense_layer_fast_config(params.batch, params.out);
}

// The CPU emulator runs every GPU thread on the CPU, and the product's threads as fibers that
// switch at every __syncthreads(): about 20 ns per multiply-add, where the plain CPU loop needs 1.
// Beyond this many multiply-adds a timed run (several launches of each path) would hold the
// emulator for many seconds, so it refuses with ErrorKind::kTooSlow and says what to do instead.
inline constexpr std::uint64_t kDenseLayerEmulatorMaxMultiplyAdds = std::uint64_t{1} << 23;
Status check_emulator_size(const DenseLayerParams& params);

// The layer's inputs, deterministic for a seed. X is uniform in [-1, 1). W is uniform with
// variance 1 / in ("LeCun" scaling), so z = W x keeps a standard deviation near 0.6 whatever `in`
// is: with unscaled weights z would grow like sqrt(in), the sigmoid would answer 0 or 1 almost
// everywhere, and a wrong index could pass unnoticed. b is uniform in [-0.5, 0.5).
struct DenseLayerData {
  std::vector<float> weights;  // W, out × in
  std::vector<float> bias;     // b, out
  std::vector<float> inputs;   // X, batch × in
};
DenseLayerData make_dense_layer_data(const DenseLayerParams& params, std::uint32_t seed);

// The activation of the CPU references: the same numerically safe form as the kernel's __device__
// sigmoid (see lessons/05_dense_layer/kernels/dense_layer.cuh for why it branches on the sign).
[[nodiscard]] float sigmoid_reference(float x);

// The plain loops a beginner writes: one thread, one output after another, summing in input order.
void dense_layer_reference(const DenseLayerParams& params, const DenseLayerData& data,
                           std::span<float> y);
// The same work split over `threads` std::threads (0: all hardware threads); small layers use
// fewer. Returns how many were used. The result equals the single-threaded one exactly.
unsigned dense_layer_reference_parallel(const DenseLayerParams& params, const DenseLayerData& data,
                                        std::span<float> y, unsigned threads = 0);

// How long the reference loops take, predicted from the multiply-add count: the plain loop does
// about one multiply-add per nanosecond on one core (each add waits for the previous one).
inline constexpr double kCpuNanosecondsPerMultiplyAdd = 1.0;
[[nodiscard]] double predicted_cpu_reference_ms(const DenseLayerParams& params, unsigned threads);
// The most a CPU reference may spend over all its timed runs before it is skipped.
inline constexpr double kCpuReferenceBudgetMs = 5000.0;
// Empty when the reference may run `runs` times on `threads` threads within the budget; otherwise
// why it is skipped, for the student.
[[nodiscard]] std::string cpu_reference_skip_reason(const DenseLayerParams& params,
                                                    unsigned threads, int runs);

// How far a float result may be from the exact one (see dense_layer.cpp for the reasoning).
// `in` products are summed; abs_sum is sum_i |W[o][i] * X[r][i]| + |b[o]|.
[[nodiscard]] double dense_layer_tolerance(std::uint64_t in, double abs_sum);

struct DenseCheckResult {
  bool passed = true;
  std::uint64_t checked = 0;  // elements of Y compared
  std::uint64_t total = 0;    // elements of Y
  std::uint64_t wrong_count = 0;
  std::uint64_t first_wrong = 0;  // element r * out + o, meaningful when !passed
  std::uint64_t first_wrong_row = 0;
  std::uint64_t first_wrong_col = 0;
  double expected = 0;
  float actual = 0;
  double max_error = 0;         // largest |actual - exact| over the checked elements
  double tolerance_at_max = 0;  // the tolerance of that element
  [[nodiscard]] std::string describe() const;
};

// Checking costs as much as the layer itself on the CPU: beyond this many multiply-adds only a
// spread of batch rows (the first, the last and evenly between) is checked, and `checked` says so.
inline constexpr std::uint64_t kDenseCheckMaxMultiplyAdds = std::uint64_t{1} << 28;

// Compares every checked element of y with the exact layer computed in double precision, within
// dense_layer_tolerance. NaN (an element no thread wrote) is always wrong.
DenseCheckResult check_dense_layer(const DenseLayerParams& params, const DenseLayerData& data,
                                   std::span<const float> y,
                                   std::uint64_t max_multiply_adds = kDenseCheckMaxMultiplyAdds);

}  // namespace tl::lessons
