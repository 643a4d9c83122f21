#include "dense_layer.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <thread>

#include "core/format.hpp"
#include "core/lessons/random_inputs.hpp"

namespace tl::lessons {

std::string_view to_string(DenseProduct product) {
  return product == DenseProduct::kFast ? "fast" : "tiled";
}

Result<DenseProduct> parse_dense_product(std::string_view text) {
  if (text == "tiled") return DenseProduct::kTiled;
  if (text == "fast") return DenseProduct::kFast;
  return invalid_argument("unknown product '" + std::string(text) +
                          "': choose tiled (one thread per element of Y) or fast (a warp per "
                          "neuron at small batches, a pipelined tiled matrix product otherwise).");
}

namespace {

unsigned hardware_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

// Splits [0, count) into `parts` contiguous ranges and runs `work(begin, end, part)` for each on
// its own thread (the calling thread takes part 0).
template <typename Work>
void for_each_range(std::uint64_t count, unsigned parts, Work&& work) {
  const std::uint64_t chunk = (count + parts - 1) / parts;
  std::vector<std::jthread> workers;
  workers.reserve(parts);
  for (unsigned part = 1; part < parts; ++part) {
    const std::uint64_t begin = std::min(count, part * chunk);
    const std::uint64_t end = std::min(count, begin + chunk);
    workers.emplace_back([&work, begin, end, part] { work(begin, end, part); });
  }
  work(0, std::min(count, chunk), 0u);
}

// Threads worth starting for `multiply_adds` of work: below about 2^18 per thread, starting one
// costs more than it saves.
unsigned useful_threads(std::uint64_t multiply_adds, unsigned available) {
  constexpr std::uint64_t kMinPerThread = std::uint64_t{1} << 18;
  return static_cast<unsigned>(
      std::clamp<std::uint64_t>(multiply_adds / kMinPerThread, 1, std::max(1u, available)));
}

// One output element, as the beginner's loop computes it: in input order, in float.
float dense_output(const DenseLayerParams& params, const DenseLayerData& data, std::uint64_t r,
                   std::uint64_t o) {
  const float* w = data.weights.data() + o * params.in;
  const float* x = data.inputs.data() + r * params.in;
  float sum = 0.0f;
  for (std::uint64_t i = 0; i < params.in; ++i) sum += w[i] * x[i];
  return sigmoid_reference(sum + data.bias[o]);
}

double sigmoid_exact(double x) {
  if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

}  // namespace

std::string_view to_string(DenseLayerPath path) {
  switch (path) {
    case DenseLayerPath::kUnfused:
      return "unfused";
    case DenseLayerPath::kFused:
      return "fused";
    case DenseLayerPath::kCublas:
      return "cublas";
  }
  return "unknown";
}

Result<DenseLayerPath> parse_dense_layer_path(std::string_view text) {
  for (DenseLayerPath path :
       {DenseLayerPath::kUnfused, DenseLayerPath::kFused, DenseLayerPath::kCublas}) {
    if (text == to_string(path)) return path;
  }
  return invalid_argument("unknown dense-layer path '" + std::string(text) +
                          "': choose unfused (three kernels), fused (one kernel) or cublas "
                          "(cuBLAS SGEMM + a fused epilogue)");
}

double dense_layer_flops(const DenseLayerParams& params) {
  return 2.0 * static_cast<double>(params.multiply_adds()) + static_cast<double>(params.outputs());
}

double dense_layer_bytes(const DenseLayerParams& params, DenseLayerPath path) {
  const double w = static_cast<double>(params.out * params.in);
  const double x = static_cast<double>(params.batch * params.in);
  const double b = static_cast<double>(params.out);
  const double y = static_cast<double>(params.outputs());
  double z_passes = 0;
  switch (path) {
    case DenseLayerPath::kUnfused:
      z_passes = 4;  // written, read + written by the bias kernel, read by the sigmoid kernel
      break;
    case DenseLayerPath::kCublas:
      z_passes = 2;  // written by SGEMM, read by the epilogue
      break;
    case DenseLayerPath::kFused:
      z_passes = 0;
      break;
  }
  return 4.0 * (w + x + b + y + z_passes * y);
}

std::uint64_t dense_layer_device_bytes(const DenseLayerParams& params) {
  return 4 *
         (params.out * params.in + params.batch * params.in + params.out + 2 * params.outputs());
}

Status validate_dense_layer(const DenseLayerParams& params, std::uint64_t max_bytes) {
  if (params.batch == 0 || params.in == 0 || params.out == 0) {
    return invalid_argument(
        "batch, in and out must all be at least 1 (got batch = " + std::to_string(params.batch) +
        ", in = " + std::to_string(params.in) + ", out = " + std::to_string(params.out) +
        "): a layer needs inputs, " + "neurons and at least one input vector.");
  }
  // Checked one factor at a time so that the products below cannot overflow 64 bits.
  const std::uint64_t limit = kDenseLayerMaxElements;
  auto too_big = [&](std::uint64_t a, std::uint64_t b) { return a > limit / b; };
  if (too_big(params.out, params.in) || too_big(params.batch, params.in) ||
      too_big(params.batch, params.out)) {
    return invalid_argument(
        "batch = " + std::to_string(params.batch) + ", in = " + std::to_string(params.in) +
        ", out = " + std::to_string(params.out) +
        " makes W (out × in), X (batch × in) or Y (batch × out) larger than the kernels' int "
        "index allows (" +
        format_count(limit) + " elements per matrix).");
  }
  const std::uint64_t needed = dense_layer_device_bytes(params);
  if (max_bytes > 0 && needed > max_bytes) {
    return Error{ErrorKind::kOutOfMemory,
                 "this layer needs " + format_bytes(static_cast<double>(needed)) +
                     " for W, X, b, Z and Y, but only " +
                     format_bytes(static_cast<double>(max_bytes)) +
                     " is available: make it smaller (W alone is out × in × 4 bytes)."};
  }
  return Status::ok();
}

LaunchConfig dense_layer_config(const DenseLayerParams& params, Dim3 block) {
  LaunchConfig config;
  config.block = block;
  config.grid = {blocks_to_cover(params.out, block.x), blocks_to_cover(params.batch, block.y), 1};
  return config;
}

Status check_emulator_size(const DenseLayerParams& params) {
  if (params.multiply_adds() <= kDenseLayerEmulatorMaxMultiplyAdds) return Status::ok();
  return Error{
      ErrorKind::kTooSlow,
      "batch × in × out = " + format_count(params.multiply_adds()) +
          " multiply-adds is more than the CPU emulator takes (" +
          format_count(kDenseLayerEmulatorMaxMultiplyAdds) +
          "): it runs every GPU thread on the CPU, the product's threads as fibers that meet at "
          "every __syncthreads(), and this layer would hold it for far too long. Make the layer "
          "smaller (for example in = out = 1024 with batch 8), or run it on a GPU."};
}

DenseLayerData make_dense_layer_data(const DenseLayerParams& params, std::uint32_t seed) {
  DenseLayerData data;
  data.weights.resize(params.out * params.in);
  data.bias.resize(params.out);
  data.inputs.resize(params.batch * params.in);
  fill_random(data.weights, seed);
  fill_random(data.bias, seed * 2654435761u + 1);
  fill_random(data.inputs, seed * 2246822519u + 2);
  // Uniform in [-a, a) has variance a² / 3: a = sqrt(3 / in) gives variance 1 / in.
  const float weight_scale = static_cast<float>(std::sqrt(3.0 / static_cast<double>(params.in)));
  for (float& w : data.weights) w *= weight_scale;
  for (float& b : data.bias) b *= 0.5f;
  return data;
}

float sigmoid_reference(float x) {
  if (x >= 0.0f) return 1.0f / (1.0f + std::exp(-x));
  const float e = std::exp(x);
  return e / (1.0f + e);
}

void dense_layer_reference(const DenseLayerParams& params, const DenseLayerData& data,
                           std::span<float> y) {
  for (std::uint64_t r = 0; r < params.batch; ++r) {
    for (std::uint64_t o = 0; o < params.out; ++o) {
      y[r * params.out + o] = dense_output(params, data, r, o);
    }
  }
}

unsigned dense_layer_reference_parallel(const DenseLayerParams& params, const DenseLayerData& data,
                                        std::span<float> y, unsigned threads) {
  if (threads == 0) threads = hardware_threads();
  threads = useful_threads(params.multiply_adds(), threads);
  // Each thread takes a run of output elements; every element is computed exactly as the
  // single-threaded loop does, so the results are identical.
  for_each_range(params.outputs(), threads, [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    for (std::uint64_t e = begin; e < end; ++e) {
      y[e] = dense_output(params, data, e / params.out, e % params.out);
    }
  });
  return threads;
}

double predicted_cpu_reference_ms(const DenseLayerParams& params, unsigned threads) {
  const unsigned used = useful_threads(params.multiply_adds(), std::max(1u, threads));
  return static_cast<double>(params.multiply_adds()) * kCpuNanosecondsPerMultiplyAdd * 1e-6 / used;
}

std::string cpu_reference_skip_reason(const DenseLayerParams& params, unsigned threads, int runs) {
  const double per_run = predicted_cpu_reference_ms(params, threads);
  if (per_run * std::max(1, runs) <= kCpuReferenceBudgetMs) return {};
  return "not timed: about " + format_milliseconds(per_run) + " per run is predicted on " +
         std::to_string(useful_threads(params.multiply_adds(), std::max(1u, threads))) +
         " thread(s) for " + format_count(params.multiply_adds()) +
         " multiply-adds, and the CPU timing budget is " +
         format_milliseconds(kCpuReferenceBudgetMs) + " for " + std::to_string(runs) +
         " runs. Make the layer smaller to see the CPU time.";
}

// Why a tolerance at all: float addition is not associative, and the executors do not add in the
// same order. The CPU loop adds in input order; the GPU compiler fuses each multiply and add into
// one FMA (one rounding instead of two); cuBLAS splits the sum into pieces and adds the partial
// sums. None of them is wrong. The classic bound for a sum of n products in float, in ANY order,
// with or without FMA, is |computed - exact| <= gamma_n * sum |w_i x_i|, gamma_n = n u / (1 - n u),
// u = 2^-24 (half a float ulp of 1). The bias add makes it n + 1 terms.
// The sigmoid then scales an error in z by its slope, at most 1/4, and adds its own rounding: expf
// is within 2 ulp on CUDA, and the add and the division round once more each, a few float
// epsilons of the result (at most 1) in all; 4 FLT_EPSILON covers it.
// This is a guaranteed bound, never exceeded by a correct kernel; a wrong index (a wrong weight,
// input or bias) moves an output by far more on these well-scaled inputs.
double dense_layer_tolerance(std::uint64_t in, double abs_sum) {
  const double u = std::ldexp(1.0, -24);
  const double n = static_cast<double>(in + 1);
  const double gamma = n * u / (1.0 - n * u);
  return 0.25 * gamma * abs_sum + 4.0 * FLT_EPSILON;
}

std::string DenseCheckResult::describe() const {
  std::string scope = checked == total ? "every element"
                                       : format_count(checked) + " of " + format_count(total) +
                                             " elements (a spread of rows)";
  if (passed) {
    return "check passed: " + scope + " within tolerance of the exact layer; largest error " +
           std::to_string(max_error) + " (tolerance there " + std::to_string(tolerance_at_max) +
           ")";
  }
  return "check FAILED on " + scope + ": " + format_count(wrong_count) +
         " wrong element(s); first at Y[" + std::to_string(first_wrong_row) + "][" +
         std::to_string(first_wrong_col) + "] (element " + std::to_string(first_wrong) +
         "): expected " + std::to_string(expected) + ", got " + std::to_string(actual) +
         "; largest error " + std::to_string(max_error);
}

DenseCheckResult check_dense_layer(const DenseLayerParams& params, const DenseLayerData& data,
                                   std::span<const float> y, std::uint64_t max_multiply_adds) {
  const std::uint64_t per_row = std::max<std::uint64_t>(1, params.in * params.out);
  const std::uint64_t rows =
      std::clamp<std::uint64_t>(max_multiply_adds / per_row, 1, params.batch);
  // Row k of the checked spread: the first, the last and evenly in between.
  auto checked_row = [&](std::uint64_t k) {
    return rows == 1 ? 0 : k * (params.batch - 1) / (rows - 1);
  };

  const std::uint64_t elements = rows * params.out;
  const unsigned threads = useful_threads(rows * per_row, hardware_threads());
  std::vector<DenseCheckResult> parts(threads);
  for_each_range(elements, threads, [&](std::uint64_t begin, std::uint64_t end, unsigned part) {
    DenseCheckResult& result = parts[part];
    for (std::uint64_t e = begin; e < end; ++e) {
      const std::uint64_t r = checked_row(e / params.out);
      const std::uint64_t o = e % params.out;
      const float* w = data.weights.data() + o * params.in;
      const float* x = data.inputs.data() + r * params.in;
      double z = data.bias[o];
      double abs_sum = std::abs(z);
      for (std::uint64_t i = 0; i < params.in; ++i) {
        const double product = static_cast<double>(w[i]) * static_cast<double>(x[i]);
        z += product;
        abs_sum += std::abs(product);
      }
      const double expected = sigmoid_exact(z);
      const std::uint64_t index = r * params.out + o;
      const float actual = y[index];
      const double tolerance = dense_layer_tolerance(params.in, abs_sum);
      const double error = std::abs(static_cast<double>(actual) - expected);
      ++result.checked;
      if (error > result.max_error || std::isnan(error)) {
        result.max_error = std::isnan(error) ? std::numeric_limits<double>::infinity() : error;
        result.tolerance_at_max = tolerance;
      }
      if (!(error <= tolerance)) {  // NaN fails too
        if (result.passed) {
          result.passed = false;
          result.first_wrong = index;
          result.first_wrong_row = r;
          result.first_wrong_col = o;
          result.expected = expected;
          result.actual = actual;
        }
        ++result.wrong_count;
      }
    }
  });

  // Parts cover increasing element ranges, so the first failing part holds the first wrong element.
  DenseCheckResult merged;
  merged.total = params.outputs();
  for (const DenseCheckResult& part : parts) {
    merged.checked += part.checked;
    merged.wrong_count += part.wrong_count;
    if (part.max_error > merged.max_error) {
      merged.max_error = part.max_error;
      merged.tolerance_at_max = part.tolerance_at_max;
    }
    if (!part.passed && merged.passed) {
      merged.passed = false;
      merged.first_wrong = part.first_wrong;
      merged.first_wrong_row = part.first_wrong_row;
      merged.first_wrong_col = part.first_wrong_col;
      merged.expected = part.expected;
      merged.actual = part.actual;
    }
  }
  return merged;
}

}  // namespace tl::lessons
