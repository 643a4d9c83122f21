#include "matmul_runner.hpp"

#include "compute/lessons/run_support.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <utility>

#include "compute/hardware_counters.hpp"
#include "compute/optional_cublas.hpp"
#include "core/lessons/random_inputs.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/04_matmul/matmul_reference.hpp"
#include "lessons/04_matmul/matmul_tensor.hpp"

namespace tl::compute {
namespace {

using lessons::MatmulKernel;
using lessons::MatmulSize;
using lessons::MatmulVariant;

struct HostMatrices {
  std::vector<float> a, b;
  std::vector<float>
      poison;  // C before a kernel runs: NaN, so an unwritten element fails the check
};

HostMatrices make_inputs(const MatmulSize& size, std::uint32_t seed) {
  HostMatrices host;
  host.a.resize(size.a_elements());
  host.b.resize(size.b_elements());
  lessons::fill_random(host.a, seed);
  lessons::fill_random(host.b, seed * 2654435761u + 1);
  host.poison.assign(size.c_elements(), std::numeric_limits<float>::quiet_NaN());
  return host;
}

struct DeviceMatrices {
  DeviceArray<float> a, b, c;
  // The FP16 and BF16 copies of A and B the tensor rungs read, made only when one runs.
  DeviceArray<std::uint16_t> a_fp16, b_fp16, a_bf16, b_bf16;
};

bool uses_input(const std::vector<MatmulVariant>& variants, lessons::MatmulInput input) {
  return std::any_of(variants.begin(), variants.end(), [input](const MatmulVariant& variant) {
    return lessons::matmul_input(variant.kernel) == input;
  });
}

// Rounds A and B on the host (lessons/04_matmul/matmul_tensor.hpp, as the GPU's conversions do)
// and uploads the 16-bit copies the FP16 and BF16 rungs need. Not timed: frameworks keep their
// weights in the lower precision, and cuBLAS is timed on the same copies.
Status upload_sixteen_bit_inputs(Device& device, const MatmulSize& size, const HostMatrices& host,
                                 const std::vector<MatmulVariant>& variants, DeviceMatrices& d) {
  struct Copy {
    lessons::MatmulInput input;
    DeviceArray<std::uint16_t>* a;
    DeviceArray<std::uint16_t>* b;
  };
  for (const Copy& copy : {Copy{lessons::MatmulInput::kFp16, &d.a_fp16, &d.b_fp16},
                           Copy{lessons::MatmulInput::kBf16, &d.a_bf16, &d.b_bf16}}) {
    if (!uses_input(variants, copy.input)) continue;
    auto a = allocate_array<std::uint16_t>(device, size.a_elements());
    if (!a) return a.error();
    auto b = allocate_array<std::uint16_t>(device, size.b_elements());
    if (!b) return b.error();
    const std::vector<std::uint16_t> a_words = lessons::sixteen_bit_inputs(host.a, copy.input);
    const std::vector<std::uint16_t> b_words = lessons::sixteen_bit_inputs(host.b, copy.input);
    TL_RETURN_IF_ERROR(device.copy_to_device(a->data(), a_words.data(), a->bytes()));
    TL_RETURN_IF_ERROR(device.copy_to_device(b->data(), b_words.data(), b->bytes()));
    *copy.a = std::move(*a);
    *copy.b = std::move(*b);
  }
  return Status::ok();
}

// The inputs a kernel of `input` precision reads on the device.
std::pair<const void*, const void*> device_inputs(const DeviceMatrices& d,
                                                  lessons::MatmulInput input) {
  switch (input) {
    case lessons::MatmulInput::kFp16:
      return {d.a_fp16.data(), d.b_fp16.data()};
    case lessons::MatmulInput::kBf16:
      return {d.a_bf16.data(), d.b_bf16.data()};
    default:
      return {d.a.data(), d.b.data()};  // FP32, and TF32, which the kernel rounds itself
  }
}

Result<DeviceMatrices> allocate_matrices(Device& device, const MatmulSize& size) {
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(lessons::validate_matmul_size(size, memory->free_bytes));
  DeviceMatrices d;
  auto a = allocate_array<float>(device, size.a_elements());
  if (!a) return a.error();
  auto b = allocate_array<float>(device, size.b_elements());
  if (!b) return b.error();
  auto c = allocate_array<float>(device, size.c_elements());
  if (!c) return c.error();
  d.a = std::move(*a);
  d.b = std::move(*b);
  d.c = std::move(*c);
  return d;
}

// Validation shared by the timed and the traced run; `config` is the launch of `variant`.
Status check_launchable(const Device& device, const MatmulSize& size, const MatmulVariant& variant,
                        const LaunchConfig& config) {
  TL_RETURN_IF_ERROR(lessons::validate_matmul_variant(variant));
  if (lessons::is_tensor_rung(variant.kernel)) {
    TL_RETURN_IF_ERROR(lessons::tensor_rung_available(device.info(), variant.kernel));
  }
  if (device.is_gpu()) return Status::ok();
  return lessons::check_emulator_budget(size, variant, config,
                                        static_cast<unsigned>(device.info().multiprocessors));
}

Status launch(Device& device, const MatmulVariant& variant, const LaunchConfig& config,
              const DeviceMatrices& d, const MatmulSize& size, TraceRecord* trace = nullptr) {
  const auto& kernels = device.kernels().get<kernels::MatmulKernels>();
  const int m = static_cast<int>(size.m), n = static_cast<int>(size.n),
            k = static_cast<int>(size.k);
  const int tile = static_cast<int>(variant.tile);
  float* c = d.c.data();
  const float* a = d.a.data();
  const float* b = d.b.data();
  switch (variant.kernel) {
    case MatmulKernel::kUncoalesced:
      return trace == nullptr ? kernels.uncoalesced(config, a, b, c, m, n, k)
                              : kernels.uncoalesced_traced(config, a, b, c, m, n, k, trace);
    case MatmulKernel::kNaive:
      return trace == nullptr ? kernels.naive(config, a, b, c, m, n, k)
                              : kernels.naive_traced(config, a, b, c, m, n, k, trace);
    case MatmulKernel::kTiled:
      return trace == nullptr ? kernels.tiled(config, tile, a, b, c, m, n, k)
                              : kernels.tiled_traced(config, tile, a, b, c, m, n, k, trace);
    default:
      if (lessons::is_tensor_rung(variant.kernel)) {
        const auto [a_in, b_in] = device_inputs(d, lessons::matmul_input(variant.kernel));
        return kernels.tensor(config, variant.kernel, a_in, b_in, c, m, n, k, trace);
      }
      return trace == nullptr
                 ? kernels.block_tiled(config, variant.kernel, a, b, c, m, n, k)
                 : kernels.block_tiled_traced(config, variant.kernel, a, b, c, m, n, k, trace);
  }
}

// What results are checked against: empty `values` when nothing could be.
struct Reference {
  enum class Source { kNone, kCpu, kCublas };
  Source kind = Source::kNone;
  std::vector<float> values;
  std::string source;  // for the report
  // The inputs it multiplied: the lesson's A and B, or for a tensor rung their rounded values.
  std::span<const float> a, b;
  double tolerance_scale = 1.0;
  std::string allowance = "float32 rounding";
};

// A tensor rung's reference: the product of A and B rounded to its input format, computed as the
// FP32 reference is (the CPU's blocked loop, or cuBLAS SGEMM on the rounded values when the CPU
// would take too long). What remains between it and a correct rung is float32 accumulation.
struct TensorReference {
  std::vector<float> a, b;  // rounded
  Reference reference;
};

Result<TensorReference> make_tensor_reference(Device& device, const MatmulSize& size,
                                              const HostMatrices& host, lessons::MatmulInput input,
                                              const DeviceMatrices& d, OptionalCublas& cublas) {
  TensorReference made;
  made.a = lessons::rounded_inputs(host.a, input);
  made.b = lessons::rounded_inputs(host.b, input);
  Reference& reference = made.reference;
  const std::string format(lessons::to_string(input));
  const unsigned threads = lessons::matmul_reference_threads(size);
  const std::string cpu_too_slow =
      lessons::cpu_reference_skip_reason(size, lessons::CpuReference::kBlocked, threads);
  if (cpu_too_slow.empty()) {
    reference.values.resize(size.c_elements());
    lessons::matmul_reference_blocked(made.a, made.b, reference.values, size);
    reference.kind = Reference::Source::kCpu;
    reference.source = "CPU cache-blocked reference of the " + format + "-rounded inputs";
  } else if (cublas.available()) {
    auto a = allocate_array<float>(device, size.a_elements());
    if (!a) return a.error();
    auto b = allocate_array<float>(device, size.b_elements());
    if (!b) return b.error();
    TL_RETURN_IF_ERROR(device.copy_to_device(a->data(), made.a.data(), a->bytes()));
    TL_RETURN_IF_ERROR(device.copy_to_device(b->data(), made.b.data(), b->bytes()));
    TL_RETURN_IF_ERROR(cublas.multiply(a->data(), b->data(), d.c.data(), size.m, size.n, size.k));
    TL_RETURN_IF_ERROR(device.synchronize());
    reference.values.resize(size.c_elements());
    TL_RETURN_IF_ERROR(device.copy_to_host(reference.values.data(), d.c.data(), d.c.bytes()));
    reference.kind = Reference::Source::kCublas;
    reference.source =
        "cuBLAS SGEMM of the " + format + "-rounded inputs (the CPU reference would take too long)";
  } else {
    reference.source = "nothing checked: " + cpu_too_slow;
  }
  reference.tolerance_scale = lessons::kTensorToleranceScale;
  reference.allowance = "float32 accumulation of the " + format + "-rounded inputs";
  reference.a = made.a;  // the vectors' storage moves with `made`, so the spans stay valid
  reference.b = made.b;
  return made;
}

// The CPU's cache-blocked result when it fits the time budget; otherwise, on a GPU, cuBLAS's (run
// into d.c, which the caller must overwrite before using it again).
Result<Reference> make_reference(Device& device, const MatmulSize& size, const HostMatrices& host,
                                 const DeviceMatrices& d, OptionalCublas& cublas) {
  Reference reference;
  reference.a = host.a;
  reference.b = host.b;
  const unsigned threads = lessons::matmul_reference_threads(size);
  const std::string cpu_too_slow =
      lessons::cpu_reference_skip_reason(size, lessons::CpuReference::kBlocked, threads);
  if (cpu_too_slow.empty()) {
    reference.values.resize(size.c_elements());
    lessons::matmul_reference_blocked(host.a, host.b, reference.values, size);
    reference.kind = Reference::Source::kCpu;
    reference.source = "CPU cache-blocked reference";
    return reference;
  }
  if (cublas.available()) {
    TL_RETURN_IF_ERROR(cublas.multiply(d.a.data(), d.b.data(), d.c.data(), size.m, size.n, size.k));
    TL_RETURN_IF_ERROR(device.synchronize());
    reference.values.resize(size.c_elements());
    TL_RETURN_IF_ERROR(device.copy_to_host(reference.values.data(), d.c.data(), d.c.bytes()));
    reference.kind = Reference::Source::kCublas;
    reference.source = "cuBLAS SGEMM (the CPU reference would take too long)";
    return reference;
  }
  reference.source = "nothing checked: " + cpu_too_slow;
  return reference;
}

std::optional<lessons::MatmulCheckResult> check_against(const Reference& reference,
                                                        const HostMatrices& host,
                                                        std::span<const float> c,
                                                        const MatmulSize& size) {
  if (reference.values.empty()) return std::nullopt;
  (void)host;
  lessons::MatmulCheckResult result = lessons::check_matmul(
      reference.a, reference.b, c, reference.values, size, reference.tolerance_scale);
  result.allowance = reference.allowance;
  return result;
}

// A CPU reference timed on the steady clock. A single run may take up to the budget, so the runs
// are cut to what fits in it (at least one), and a slow run needs no warm-up to fill caches.
template <typename F>
TimingStats time_on_host(F&& work, double predicted_seconds, int warmup, int repeats) {
  const bool slow = predicted_seconds > 0.1;
  if (!slow) {
    for (int i = 0; i < warmup; ++i) work();
  }
  const int fitting =
      static_cast<int>(lessons::kCpuReferenceBudgetSeconds / std::max(predicted_seconds, 1e-9));
  repeats = std::clamp(fitting, 1, std::max(1, repeats));
  std::vector<double> samples;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const auto end = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return summarize_timings(samples);
}

void set_time(MatmulTiming& row, const TimingStats& time, const MatmulSize& size) {
  row.time = time;
  row.gflops = gigaflops(lessons::matmul_flops(size), time.median_ms);
}

Status time_cpu_references(const MatmulRequest& request, const HostMatrices& host,
                           const Reference& reference, MatmulReport& report) {
  const MatmulSize& size = request.size;
  const unsigned threads = lessons::matmul_reference_threads(size);
  report.cpu_naive.name = "CPU naive, 1 thread";
  report.cpu_blocked.name =
      "CPU cache-blocked, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  if (!request.time_cpu) {
    report.cpu_naive.skipped = report.cpu_blocked.skipped = "CPU references not requested";
    return Status::ok();
  }
  std::vector<float> c(size.c_elements());
  struct Job {
    MatmulTiming* row;
    lessons::CpuReference kind;
    unsigned threads;
    bool is_the_reference;
  };
  const bool blocked_is_reference = reference.kind == Reference::Source::kCpu;
  for (const Job& job :
       {Job{&report.cpu_naive, lessons::CpuReference::kNaive, 1, false},
        Job{&report.cpu_blocked, lessons::CpuReference::kBlocked, threads, blocked_is_reference}}) {
    job.row->skipped = lessons::cpu_reference_skip_reason(size, job.kind, job.threads);
    if (!job.row->ran()) continue;
    if (cancel_requested(request.cancel)) return cancelled_error();
    auto work = [&] {
      if (job.kind == lessons::CpuReference::kNaive) {
        lessons::matmul_reference(host.a, host.b, c, size);
      } else {
        lessons::matmul_reference_blocked(host.a, host.b, c, size, job.threads);
      }
    };
    set_time(*job.row,
             time_on_host(work, lessons::predicted_cpu_seconds(size, job.kind, job.threads),
                          request.warmup, request.repeats),
             size);
    if (!job.is_the_reference) job.row->check = check_against(reference, host, c, size);
  }
  return Status::ok();
}

}  // namespace

LaunchConfig matmul_launch_config(const MatmulSize& size, const MatmulVariant& variant,
                                  const std::optional<Dim3>& grid) {
  LaunchConfig config = lessons::matmul_covering_config(size, variant);
  if (grid) config.grid = *grid;
  return config;
}

Result<MatmulReport> run_matmul(Device& device, const MatmulRequest& request) {
  const MatmulSize& size = request.size;
  TL_RETURN_IF_ERROR(lessons::validate_matmul_size(size, 0));
  std::vector<LaunchConfig> configs;
  for (const MatmulVariant& variant : request.variants) {
    configs.push_back(matmul_launch_config(size, variant, request.grid));
    TL_RETURN_IF_ERROR(check_launchable(device, size, variant, configs.back()));
  }

  const HostMatrices host = make_inputs(size, request.seed);
  auto matrices = allocate_matrices(device, size);
  if (!matrices) return matrices.error();
  TL_RETURN_IF_ERROR(upload_sixteen_bit_inputs(device, size, host, request.variants, *matrices));
  const DeviceMatrices& d = *matrices;

  MatmulReport report;
  report.on_gpu = device.is_gpu();
  report.size = size;

  auto upload = [&]() -> Status {
    TL_RETURN_IF_ERROR(device.copy_to_device(d.a.data(), host.a.data(), d.a.bytes()));
    return device.copy_to_device(d.b.data(), host.b.data(), d.b.bytes());
  };
  auto h2d = device.time_repeated(upload, 0, request.repeats);
  if (!h2d) return h2d.error();
  report.host_to_device = summarize_timings(*h2d);
  if (cancel_requested(request.cancel)) return cancelled_error();

  OptionalCublas cublas(device);
  Reference reference;
  if (request.check) {
    auto made = make_reference(device, size, host, d, cublas);
    if (!made) return made.error();
    reference = std::move(*made);
  } else {
    reference.source = "nothing checked: the check was not requested";
  }
  report.check_reference = reference.source;
  // Each tensor rung is checked against the product of its own rounded inputs.
  std::map<lessons::MatmulInput, TensorReference> tensor_references;
  for (const MatmulVariant& variant : request.variants) {
    const lessons::MatmulInput input = lessons::matmul_input(variant.kernel);
    if (!request.check || input == lessons::MatmulInput::kFp32 ||
        tensor_references.contains(input)) {
      continue;
    }
    auto made = make_tensor_reference(device, size, host, input, d, cublas);
    if (!made) return made.error();
    tensor_references.emplace(input, std::move(*made));
  }
  auto reference_for = [&](lessons::MatmulInput input) -> const Reference& {
    const auto found = tensor_references.find(input);
    return found != tensor_references.end() ? found->second.reference : reference;
  };

  std::vector<float> c(size.c_elements());
  // Runs `work` timed and fetches C, which it must have written from scratch.
  auto measure = [&](MatmulTiming& row, const std::function<Status()>& work,
                     lessons::MatmulInput input = lessons::MatmulInput::kFp32) -> Status {
    TL_RETURN_IF_ERROR(device.copy_to_device(d.c.data(), host.poison.data(), d.c.bytes()));
    auto times = device.time_repeated(work, request.warmup, request.repeats);
    if (!times) return times.error();
    TL_RETURN_IF_ERROR(device.synchronize());
    set_time(row, summarize_timings(*times), size);
    auto download = [&]() -> Status {
      return device.copy_to_host(c.data(), d.c.data(), d.c.bytes());
    };
    if (report.device_to_host.empty()) {
      auto d2h = device.time_repeated(download, 0, request.repeats);
      if (!d2h) return d2h.error();
      report.device_to_host = summarize_timings(*d2h);
    } else {
      TL_RETURN_IF_ERROR(download());
    }
    const Reference& against = reference_for(input);
    row.check = check_against(against, host, c, size);
    if (&against != &reference) row.check_reference = against.source;
    return Status::ok();
  };

  for (std::size_t i = 0; i < request.variants.size(); ++i) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    const MatmulVariant& variant = request.variants[i];
    MatmulTiming row;
    row.name = variant.to_string();
    row.config = configs[i];
    TL_RETURN_IF_ERROR(measure(
        row, [&] { return launch(device, variant, configs[i], d, size); },
        lessons::matmul_input(variant.kernel)));
    report.kernels.push_back(std::move(row));
  }

  report.cublas.name = "cuBLAS SGEMM";
  if (!request.cublas) {
    report.cublas.skipped = "cuBLAS not requested";
  } else if (!cublas.available()) {
    report.cublas.skipped = OptionalCublas::unavailable_reason();
  } else if (const Status started = cublas.initialize(); !started) {
    report.cublas.skipped = "cuBLAS could not start: " + started.message();
  } else {
    if (cancel_requested(request.cancel)) return cancelled_error();
    TL_RETURN_IF_ERROR(measure(report.cublas, [&] {
      return cublas.multiply(d.a.data(), d.b.data(), d.c.data(), size.m, size.n, size.k);
    }));
    // Checked against itself it would pass trivially: say nothing instead.
    if (reference.kind == Reference::Source::kCublas) report.cublas.check.reset();
  }

  // cuBLAS at each tensor rung's precision, on the same 16-bit copies (TF32: the float inputs).
  for (const lessons::MatmulInput input :
       {lessons::MatmulInput::kFp16, lessons::MatmulInput::kBf16, lessons::MatmulInput::kTf32}) {
    if (!uses_input(request.variants, input)) continue;
    MatmulTiming row;
    row.name =
        "cuBLAS GemmEx, " + std::string(lessons::to_string(input)) + " inputs, FP32 accumulation";
    if (!request.cublas) {
      row.skipped = "cuBLAS not requested";
    } else if (!cublas.available()) {
      row.skipped = OptionalCublas::unavailable_reason();
    } else if (const Status started = cublas.initialize(); !started) {
      row.skipped = "cuBLAS could not start: " + started.message();
    } else {
      if (cancel_requested(request.cancel)) return cancelled_error();
      const std::pair<const void*, const void*> inputs = device_inputs(d, input);
      TL_RETURN_IF_ERROR(measure(
          row,
          [&] {
            return cublas.multiply(kernels::float_format(input), inputs.first, inputs.second,
                                   d.c.data(), size.m, size.n, size.k);
          },
          input));
      // The library is the yardstick here, not the subject: its own rounding of TF32 inputs need
      // not be the one the reference models.
      row.check.reset();
      row.check_reference.clear();
    }
    report.cublas_tensor.push_back({input, std::move(row)});
  }

  TL_RETURN_IF_ERROR(time_cpu_references(request, host, reference, report));
  return report;
}

Result<std::vector<MatmulCountedKernel>> count_matmul(Device& device, const MatmulSize& size,
                                                      const std::vector<MatmulVariant>& variants,
                                                      const std::optional<Dim3>& grid,
                                                      std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_matmul_size(size, 0));
  std::vector<LaunchConfig> configs;
  for (const MatmulVariant& variant : variants) {
    configs.push_back(matmul_launch_config(size, variant, grid));
    TL_RETURN_IF_ERROR(check_launchable(device, size, variant, configs.back()));
  }
  const HostMatrices host = make_inputs(size, seed);
  auto matrices = allocate_matrices(device, size);
  if (!matrices) return matrices.error();
  const DeviceMatrices& d = *matrices;
  TL_RETURN_IF_ERROR(device.copy_to_device(d.a.data(), host.a.data(), d.a.bytes()));
  TL_RETURN_IF_ERROR(device.copy_to_device(d.b.data(), host.b.data(), d.b.bytes()));
  TL_RETURN_IF_ERROR(upload_sixteen_bit_inputs(device, size, host, variants, *matrices));
  std::vector<MatmulCountedKernel> counted;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    // One launch outside the counted range first: the pipelined rung tunes its tile shape on its
    // first launch (a dozen candidate kernels), and CUPTI counts every kernel in the range.
    TL_RETURN_IF_ERROR(launch(device, variants[i], configs[i], d, size));
    TL_RETURN_IF_ERROR(device.synchronize());
    auto counters =
        count_kernel(device, [&] { return launch(device, variants[i], configs[i], d, size); });
    if (!counters) return counters.error();
    counted.push_back({variants[i], *counters});
  }
  return counted;
}

Result<MatmulTraceReport> trace_matmul(Device& device, const MatmulSize& size,
                                       const MatmulVariant& variant, const LaunchConfig& config,
                                       TraceSink& sink, std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_matmul_size(size, 0));
  TL_RETURN_IF_ERROR(check_launchable(device, size, variant, config));
  const HostMatrices host = make_inputs(size, seed);
  auto matrices = allocate_matrices(device, size);
  if (!matrices) return matrices.error();
  TL_RETURN_IF_ERROR(upload_sixteen_bit_inputs(device, size, host, {variant}, *matrices));
  const DeviceMatrices& d = *matrices;
  TL_RETURN_IF_ERROR(device.copy_to_device(d.a.data(), host.a.data(), d.a.bytes()));
  TL_RETURN_IF_ERROR(device.copy_to_device(d.b.data(), host.b.data(), d.b.bytes()));
  TL_RETURN_IF_ERROR(device.copy_to_device(d.c.data(), host.poison.data(), d.c.bytes()));

  auto records = sink.acquire(device, size.c_elements());
  if (!records) return records.error();
  Status launched = launch(device, variant, config, d, size, *records);
  if (launched) launched = device.synchronize();
  // Publish even after a failed launch: the sink must give its buffer back (e.g. unmap it), and the
  // view then honestly shows that nothing was written.
  const Status published = sink.publish(device);
  TL_RETURN_IF_ERROR(launched);
  TL_RETURN_IF_ERROR(published);

  MatmulTraceReport report;
  report.shape = {size.m, size.n};
  report.config = config;
  std::vector<float> c(size.c_elements());
  TL_RETURN_IF_ERROR(device.copy_to_host(c.data(), d.c.data(), d.c.bytes()));
  OptionalCublas cublas(device);
  const lessons::MatmulInput input = lessons::matmul_input(variant.kernel);
  if (input != lessons::MatmulInput::kFp32) {
    auto tensor_reference = make_tensor_reference(device, size, host, input, d, cublas);
    if (!tensor_reference) return tensor_reference.error();
    report.check = check_against(tensor_reference->reference, host, c, size);
    report.check_reference = tensor_reference->reference.source;
    return report;
  }
  auto reference = make_reference(device, size, host, d, cublas);
  if (!reference) return reference.error();
  report.check = check_against(*reference, host, c, size);
  report.check_reference = reference->source;
  return report;
}

}  // namespace tl::compute
