#include "precision_runner.hpp"

#include <cmath>
#include <cstdio>

#include "compute/lessons/run_support.hpp"
#include "lessons/08_precision/kernels/precision_kernels.hpp"

namespace tl::compute {
namespace {

using lessons::Accumulate;
using lessons::FloatFormat;
using lessons::PrecisionVariant;

constexpr std::uint32_t kSecondSeedOffset = 0x9E3779B9u;

std::size_t element_bytes(FloatFormat format) {
  return numeric::layout(format).storage_bits / 8;
}

LaunchConfig one_per_element(std::uint64_t n) {
  const std::uint32_t block = 256;
  return {Dim3{static_cast<std::uint32_t>((n + block - 1) / block), 1, 1}, Dim3{block, 1, 1}};
}

std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", value);
  return text;
}

// The FP32 inputs on the device, as floats.
struct FloatInputs {
  DeviceArray<float> a, b;
};

Result<DeviceArray<float>> upload(Device& device, const std::vector<float>& host) {
  auto array = allocate_array<float>(device, host.size());
  if (!array) return array.error();
  TL_RETURN_IF_ERROR(device.copy_to_device(array->data(), host.data(), array->bytes()));
  return array;
}

// `in` rounded to `format` on the device, by the kernels' own conversion (a device copy of the
// FP32 data for FP32). Raw bytes: floats or 16-bit words.
Result<DeviceArray<std::uint8_t>> rounded_on_device(Device& device, FloatFormat format,
                                                    const DeviceArray<float>& in) {
  const std::size_t n = in.size();
  auto out = allocate_array<std::uint8_t>(device, n * element_bytes(format));
  if (!out) return out.error();
  if (format == FloatFormat::kFp32) {
    TL_RETURN_IF_ERROR(device.copy_on_device(out->data(), in.data(), in.bytes()));
  } else {
    TL_RETURN_IF_ERROR(device.kernels().get<kernels::PrecisionKernels>().round_floats(
        format, one_per_element(n), in.data(), out->data(), static_cast<int>(n)));
  }
  return out;
}

double relative_error(double value, double exact) {
  if (std::isnan(value)) return HUGE_VAL;
  const double d = std::fabs(value - exact);
  return exact == 0 ? d : d / std::fabs(exact);
}

double relative_rms(std::span<const double> c, std::span<const double> reference) {
  double error = 0;
  double norm = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    error += (c[i] - reference[i]) * (c[i] - reference[i]);
    norm += reference[i] * reference[i];
  }
  return norm == 0 ? std::sqrt(error) : std::sqrt(error / norm);
}

}  // namespace

bool runs_format(const Device& device, FloatFormat format) {
  if (!device.is_gpu() || device.info().compute_major >= 8) return true;
  return format != FloatFormat::kTf32 && format != FloatFormat::kBf16;
}

LaunchConfig precision_matmul_config(std::uint32_t size) {
  const std::uint32_t tile = kernels::kPrecisionMatmulTile;
  const std::uint32_t blocks = (size + tile - 1) / tile;
  return {Dim3{blocks, blocks, 1}, Dim3{tile, tile, 1}};
}

LaunchConfig precision_dot_config(const lessons::PrecisionParams& params) {
  return {Dim3{params.blocks, 1, 1}, Dim3{params.block, 1, 1}};
}

bool PrecisionReport::passed() const {
  for (const auto& r : results) {
    if (!r.dot_within || r.matmul_outside != 0) return false;
    if (r.variant.accumulate == Accumulate::kFp32 && r.matmul_not_finite != 0) return false;
  }
  return !results.empty();
}

std::string PrecisionReport::describe_check() const {
  std::uint64_t outside = 0;
  std::string failed;
  for (const auto& r : results) {
    outside += r.matmul_outside;
    if (!r.dot_within) failed += " " + lessons::variant_key(r.variant) + " dot";
    if (r.matmul_outside != 0) failed += " " + lessons::variant_key(r.variant) + " matmul";
  }
  if (passed()) {
    return "every FP32-accumulated result is within its rounding-error bound of the float64 "
           "result of its rounded inputs (dot product and every element of C)";
  }
  return "outside the rounding-error bound:" + failed + " (" + std::to_string(outside) +
         " matrix elements)";
}

Result<PrecisionReport> run_precision(Device& device, const PrecisionRequest& request) {
  const lessons::PrecisionParams& p = request.params;
  TL_RETURN_IF_ERROR(lessons::validate_precision(p));
  const LaunchConfig dot_config = precision_dot_config(p);
  const LaunchConfig matmul_config = precision_matmul_config(p.size);
  TL_RETURN_IF_ERROR(check_emulator_budget(device, dot_config, false));
  TL_RETURN_IF_ERROR(check_emulator_budget(device, matmul_config, false));

  const std::uint64_t n = p.n;
  const std::uint64_t cells = std::uint64_t{p.size} * p.size;
  const auto a = lessons::make_precision_data(n, p.data, request.seed);
  const auto b = lessons::make_precision_data(n, p.data, request.seed + kSecondSeedOffset);
  const auto ma = lessons::make_precision_data(cells, p.data, request.seed + 1);
  const auto mb = lessons::make_precision_data(cells, p.data, request.seed + 2);

  PrecisionReport report;
  report.on_gpu = device.is_gpu();
  report.params = p;
  report.exact_dot = lessons::exact_dot(a, b);
  report.abs_dot = lessons::abs_dot(a, b);
  std::vector<double> reference(cells), magnitudes(cells);
  lessons::reference_matmul(ma, mb, p.size, reference, magnitudes);

  auto da = upload(device, a);
  if (!da) return da.error();
  auto db = upload(device, b);
  if (!db) return db.error();
  auto dma = upload(device, ma);
  if (!dma) return dma.error();
  auto dmb = upload(device, mb);
  if (!dmb) return dmb.error();
  auto partials = allocate_array<float>(device, p.blocks);
  if (!partials) return partials.error();
  auto dot_out = allocate_array<float>(device, 1);
  if (!dot_out) return dot_out.error();
  auto c = allocate_array<float>(device, cells);
  if (!c) return c.error();
  const auto& kernels = device.kernels().get<kernels::PrecisionKernels>();

  for (FloatFormat format : numeric::kFloatFormats) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    if (!runs_format(device, format)) {
      report.notes.push_back(std::string(numeric::display_name(format)) +
                             " skipped: it needs compute capability 8.0 or later, this GPU has " +
                             std::to_string(device.info().compute_major) + "." +
                             std::to_string(device.info().compute_minor));
      continue;
    }
    // The inputs as the kernels see them, and the float64 results of exactly those inputs.
    const auto ra = lessons::rounded_copy(a, format);
    const auto rb = lessons::rounded_copy(b, format);
    const auto rma = lessons::rounded_copy(ma, format);
    const auto rmb = lessons::rounded_copy(mb, format);
    const double rounded_dot = lessons::exact_dot(ra, rb);
    const double rounded_abs = lessons::abs_dot(ra, rb);
    std::vector<double> rounded_reference(cells), rounded_magnitudes(cells);
    lessons::reference_matmul(rma, rmb, p.size, rounded_reference, rounded_magnitudes);
    report.inputs.push_back({format, relative_error(rounded_dot, report.exact_dot),
                             relative_rms(rounded_reference, reference)});

    auto ra_device = rounded_on_device(device, format, *da);
    if (!ra_device) return ra_device.error();
    auto rb_device = rounded_on_device(device, format, *db);
    if (!rb_device) return rb_device.error();
    auto rma_device = rounded_on_device(device, format, *dma);
    if (!rma_device) return rma_device.error();
    auto rmb_device = rounded_on_device(device, format, *dmb);
    if (!rmb_device) return rmb_device.error();

    for (const PrecisionVariant& variant : lessons::precision_variants()) {
      if (variant.format != format) continue;
      if (cancel_requested(request.cancel)) return cancelled_error();
      PrecisionVariantResult r;
      r.variant = variant;
      auto dot = [&]() -> Status {
        TL_RETURN_IF_ERROR(kernels.dot_partials(format, variant.accumulate, dot_config,
                                                ra_device->data(), rb_device->data(),
                                                static_cast<int>(n), partials->data()));
        return kernels.dot_finish(format, variant.accumulate, partials->data(),
                                  static_cast<int>(p.blocks), dot_out->data());
      };
      auto dot_times = device.time_repeated(dot, request.warmup, request.repeats);
      if (!dot_times) return dot_times.error();
      TL_RETURN_IF_ERROR(device.synchronize());
      r.dot_time = summarize_timings(*dot_times);
      float dot_value = 0;
      TL_RETURN_IF_ERROR(device.copy_to_host(&dot_value, dot_out->data(), sizeof(float)));
      r.dot = dot_value;
      r.dot_error = relative_error(r.dot, report.exact_dot);

      const int size = static_cast<int>(p.size);
      auto matmul = [&]() -> Status {
        return kernels.matmul(format, variant.accumulate, matmul_config, rma_device->data(),
                              rmb_device->data(), c->data(), size, size, size);
      };
      auto matmul_times = device.time_repeated(matmul, request.warmup, request.repeats);
      if (!matmul_times) return matmul_times.error();
      TL_RETURN_IF_ERROR(device.synchronize());
      r.matmul_time = summarize_timings(*matmul_times);
      std::vector<float> host_c(cells);
      TL_RETURN_IF_ERROR(device.copy_to_host(host_c.data(), c->data(), c->bytes()));
      r.matmul_error = lessons::relative_rms_error(host_c, reference);
      for (float x : host_c) r.matmul_not_finite += std::isfinite(x) ? 0 : 1;

      if (variant.accumulate == Accumulate::kFp32) {
        // Checked: FP32 sums of these rounded inputs obey the float rounding-error bound.
        const double u = numeric::range(FloatFormat::kFp32).unit_roundoff;
        r.dot_checked = true;
        r.dot_bound =
            lessons::error_bound(lessons::dot_depth(n, p.block, p.blocks), u, rounded_abs);
        r.dot_within = std::isfinite(r.dot) && std::fabs(r.dot - rounded_dot) <= r.dot_bound;
        for (std::uint64_t i = 0; i < cells; ++i) {
          const double bound = lessons::error_bound(p.size, u, rounded_magnitudes[i]);
          if (!(std::fabs(host_c[i] - rounded_reference[i]) <= bound)) ++r.matmul_outside;
        }
      }
      report.results.push_back(r);
    }
  }
  return report;
}

Result<PrecisionTraceCheck> trace_precision(Device& device, const lessons::PrecisionParams& params,
                                            TraceSink& sink, std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_precision(params));
  const LaunchConfig config = precision_matmul_config(params.size);
  TL_RETURN_IF_ERROR(check_emulator_budget(device, config, true));
  const std::uint64_t cells = std::uint64_t{params.size} * params.size;
  const auto ma = lessons::make_precision_data(cells, params.data, seed + 1);
  const auto mb = lessons::make_precision_data(cells, params.data, seed + 2);
  const FloatFormat format = params.drawn.format;
  if (!runs_format(device, format)) {
    return invalid_argument(std::string(numeric::display_name(format)) +
                            " needs compute capability 8.0 or later; draw FP32 or FP16 here.");
  }
  auto dma = upload(device, ma);
  if (!dma) return dma.error();
  auto dmb = upload(device, mb);
  if (!dmb) return dmb.error();
  auto ra = rounded_on_device(device, format, *dma);
  if (!ra) return ra.error();
  auto rb = rounded_on_device(device, format, *dmb);
  if (!rb) return rb.error();
  // C starts as NaN, so an element no thread writes fails the check.
  const auto poisoned = poisoned_floats(cells);
  auto c = upload(device, poisoned);
  if (!c) return c.error();

  auto records = sink.acquire(device, cells);
  if (!records) return records.error();
  const int size = static_cast<int>(params.size);
  Status launched = device.kernels().get<kernels::PrecisionKernels>().matmul_traced(
      format, params.drawn.accumulate, config, ra->data(), rb->data(), c->data(), size, size, size,
      *records);
  if (launched) launched = device.synchronize();
  const Status published = sink.publish(device);
  if (!launched) return launched.error();
  TL_RETURN_IF_ERROR(published);

  std::vector<float> host_c(cells);
  TL_RETURN_IF_ERROR(device.copy_to_host(host_c.data(), c->data(), c->bytes()));
  const auto rma = lessons::rounded_copy(ma, format);
  const auto rmb = lessons::rounded_copy(mb, format);
  std::vector<double> reference(cells), magnitudes(cells);
  lessons::reference_matmul(rma, rmb, params.size, reference, magnitudes);
  PrecisionTraceCheck check;
  std::uint64_t unwritten = 0, outside = 0;
  const bool fp32_sums = params.drawn.accumulate == Accumulate::kFp32;
  const double u = numeric::range(FloatFormat::kFp32).unit_roundoff;
  for (std::uint64_t i = 0; i < cells; ++i) {
    if (std::isnan(host_c[i])) {
      ++unwritten;
    } else if (fp32_sums && !(std::fabs(host_c[i] - reference[i]) <=
                              lessons::error_bound(params.size, u, magnitudes[i]))) {
      ++outside;
    }
  }
  check.passed = unwritten == 0 && outside == 0;
  const std::string what =
      lessons::variant_label(params.drawn) + " product, " + std::to_string(params.size) + "²: ";
  if (check.passed) {
    check.description = what + (fp32_sums ? "every element within its FP32 rounding-error bound"
                                          : "every element written (its error is the lesson's "
                                            "point, not a failure)");
  } else {
    check.description = what + std::to_string(unwritten) + " elements NaN or unwritten, " +
                        std::to_string(outside) + " outside the FP32 bound (largest bound " +
                        scientific(lessons::error_bound(params.size, u, 1.0)) + "·|A||B|)";
  }
  return check;
}

}  // namespace tl::compute
