#include "vector_add_runner.hpp"

#include "compute/lessons/run_support.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>
#include <vector>

namespace tl::compute {
namespace {

struct DeviceVectors {
  DeviceArray<float> a, b, c;
};

// The whole footprint, checked before anything is allocated (F6 of the reliability review): the
// host's A, B and C and the device's three arrays. On the emulator both come out of the same free
// memory, and measuring it after the host inputs were filled counted them against the arrays
// (wrong advice) or let the inputs alone exhaust memory (an OOM kill at 23 GiB). Also the
// emulator's thread cap, which thread-hierarchy applies as well.
Status check_fits_before_allocating(Device& device, std::uint64_t n, const LaunchConfig& config,
                                    bool traced) {
  TL_RETURN_IF_ERROR(lessons::validate_vector_add_size(n, 0));
  TL_RETURN_IF_ERROR(check_emulator_budget(device, config, traced));
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  return lessons::validate_vector_add_size(n, memory->free_bytes, device.is_gpu() ? 1 : 2);
}

// Configurations CUDA refuses are launched, so its own error can be seen; the ones it would accept
// but that overflow the kernel's int index are refused here, before they write out of bounds.
Status check_launchable(const Device& device, const LaunchConfig& config) {
  if (!validate(config, device.info().limits).empty()) return Status::ok();
  return lessons::check_vector_add_index_range(config);
}

Result<DeviceVectors> allocate_vectors(Device& device, std::uint64_t n) {
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(lessons::validate_vector_add_size(n, memory->free_bytes));
  DeviceVectors v;
  auto a = allocate_array<float>(device, n);
  if (!a) return a.error();
  auto b = allocate_array<float>(device, n);
  if (!b) return b.error();
  auto c = allocate_array<float>(device, n);
  if (!c) return c.error();
  v.a = std::move(*a);
  v.b = std::move(*b);
  v.c = std::move(*c);
  return v;
}

// Times the copies of run_vector_add again, from and to pinned host memory holding the same A and
// B. Pinned memory is a scarce resource the operating system may refuse: then the report says why
// and keeps only the pageable series.
Status time_pinned_copies(Device& device, const std::vector<float>& a, const std::vector<float>& b,
                          DeviceVectors& v, int repeats, VectorAddReport& report) {
  const std::size_t n = a.size();
  const std::size_t bytes = n * sizeof(float);
  auto pinned_a = allocate_pinned_array<float>(device, n);
  auto pinned_b = pinned_a ? allocate_pinned_array<float>(device, n)
                           : Result<PinnedHostArray<float>>(pinned_a.error());
  auto pinned_c = pinned_b ? allocate_pinned_array<float>(device, n)
                           : Result<PinnedHostArray<float>>(pinned_b.error());
  if (!pinned_c) {
    report.pinned_unavailable = "no pinned host memory for the copies: " + pinned_c.message();
    return Status::ok();
  }
  std::copy(a.begin(), a.end(), pinned_a->data());
  std::copy(b.begin(), b.end(), pinned_b->data());
  auto upload = device.time_repeated(
      [&]() -> Status {
        TL_RETURN_IF_ERROR(device.copy_to_device(v.a.data(), pinned_a->data(), bytes));
        return device.copy_to_device(v.b.data(), pinned_b->data(), bytes);
      },
      0, repeats);
  if (!upload) return upload.error();
  auto download = device.time_repeated(
      [&] { return device.copy_to_host(pinned_c->data(), v.c.data(), bytes); }, 0, repeats);
  if (!download) return download.error();
  report.host_to_device_pinned = summarize_timings(*upload);
  report.device_to_host_pinned = summarize_timings(*download);
  return Status::ok();
}

// C starts as NaN so that an element no thread wrote fails the check instead of passing by luck.
std::vector<float> poisoned(std::uint64_t n) {
  return std::vector<float>(n, std::numeric_limits<float>::quiet_NaN());
}

}  // namespace

Result<VectorAddReport> run_vector_add(Device& device, const VectorAddRequest& request) {
  const std::uint64_t n = request.n;
  TL_RETURN_IF_ERROR(lessons::validate_vector_add_size(n, 0));
  TL_RETURN_IF_ERROR(check_launchable(device, request.config));
  TL_RETURN_IF_ERROR(check_fits_before_allocating(device, n, request.config, /*traced=*/false));
  std::vector<float> a(n), b(n);
  lessons::fill_random(a, request.seed);
  lessons::fill_random(b, request.seed * 2654435761u + 1);
  std::vector<float> c = poisoned(n);

  auto vectors = allocate_vectors(device, n);
  if (!vectors) return vectors.error();
  DeviceVectors& v = *vectors;
  const std::size_t bytes = n * sizeof(float);

  VectorAddReport report;
  report.on_gpu = device.is_gpu();
  report.n = n;

  auto upload = [&]() -> Status {
    TL_RETURN_IF_ERROR(device.copy_to_device(v.a.data(), a.data(), bytes));
    return device.copy_to_device(v.b.data(), b.data(), bytes);
  };
  auto h2d = device.time_repeated(upload, 0, request.repeats);
  if (!h2d) return h2d.error();
  report.host_to_device = summarize_timings(*h2d);
  TL_RETURN_IF_ERROR(device.copy_to_device(v.c.data(), c.data(), bytes));
  if (cancel_requested(request.cancel)) return cancelled_error();

  const auto& kernels = device.kernels().get<kernels::VectorAddKernels>();
  const int n_int = static_cast<int>(n);
  auto launch = [&]() -> Status {
    return kernels.add(request.config, v.a.data(), v.b.data(), v.c.data(), n_int);
  };
  auto kernel_times = device.time_repeated(launch, request.warmup, request.repeats);
  if (!kernel_times) return kernel_times.error();
  TL_RETURN_IF_ERROR(device.synchronize());
  report.kernel = summarize_timings(*kernel_times);
  if (cancel_requested(request.cancel)) return cancelled_error();

  auto download = [&]() -> Status { return device.copy_to_host(c.data(), v.c.data(), bytes); };
  auto d2h = device.time_repeated(download, 0, request.repeats);
  if (!d2h) return d2h.error();
  report.device_to_host = summarize_timings(*d2h);
  if (request.time_pinned) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    TL_RETURN_IF_ERROR(time_pinned_copies(device, a, b, v, request.repeats, report));
  }

  if (request.check) report.check = lessons::check_vector_add(a, b, c);

  if (request.time_vectorized) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    report.vectorized_config = lessons::vectorized_vector_add_config(n);
    // C poisoned again, so that the check sees only what this kernel wrote.
    if (request.check) {
      std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
      TL_RETURN_IF_ERROR(device.copy_to_device(v.c.data(), c.data(), bytes));
    }
    auto launch_vectorized = [&]() -> Status {
      return kernels.add_vectorized(report.vectorized_config, v.a.data(), v.b.data(), v.c.data(),
                                    n_int);
    };
    auto times = device.time_repeated(launch_vectorized, request.warmup, request.repeats);
    if (!times) return times.error();
    TL_RETURN_IF_ERROR(device.synchronize());
    report.kernel_vectorized = summarize_timings(*times);
    if (request.check) {
      TL_RETURN_IF_ERROR(device.copy_to_host(c.data(), v.c.data(), bytes));
      report.check_vectorized = lessons::check_vector_add(a, b, c);
    }
  }

  if (request.time_cpu) {
    std::vector<float> reference(n);
    if (cancel_requested(request.cancel)) return cancelled_error();
    report.cpu_single = time_on_host([&] { lessons::vector_add_reference(a, b, reference); },
                                     request.warmup, request.repeats);
    if (cancel_requested(request.cancel)) return cancelled_error();
    report.cpu_multi = time_on_host(
        [&] { report.cpu_threads = lessons::vector_add_reference_parallel(a, b, reference); },
        request.warmup, request.repeats);
  }
  return report;
}

void TracedVectorAddInputs::release() {
  a_device_.reset();
  b_device_.reset();
  c_device_.reset();
  device_ = nullptr;
  n_ = 0;
  checked_config_.reset();
}

Result<lessons::CheckResult> trace_vector_add(Device& device, std::uint64_t n,
                                              const LaunchConfig& config, TraceSink& sink,
                                              std::uint32_t seed, TracedVectorAddInputs* reuse) {
  TL_RETURN_IF_ERROR(lessons::validate_vector_add_size(n, 0));
  TL_RETURN_IF_ERROR(check_launchable(device, config));
  TracedVectorAddInputs once;
  TracedVectorAddInputs& in = reuse != nullptr ? *reuse : once;
  const std::size_t bytes = n * sizeof(float);
  if (in.device_ != &device || in.n_ != n || in.seed_ != seed) {
    in.release();
    TL_RETURN_IF_ERROR(check_fits_before_allocating(device, n, config, /*traced=*/false));
    in.a_.assign(n, 0.0f);
    in.b_.assign(n, 0.0f);
    lessons::fill_random(in.a_, seed);
    lessons::fill_random(in.b_, seed * 2654435761u + 1);
    auto vectors = allocate_vectors(device, n);
    if (!vectors) return vectors.error();
    TL_RETURN_IF_ERROR(device.copy_to_device(vectors->a.data(), in.a_.data(), bytes));
    TL_RETURN_IF_ERROR(device.copy_to_device(vectors->b.data(), in.b_.data(), bytes));
    in.a_device_ = std::move(vectors->a);
    in.b_device_ = std::move(vectors->b);
    in.c_device_ = std::move(vectors->c);
    in.device_ = &device;
    in.n_ = n;
    in.seed_ = seed;
    ++in.uploads_;
  }
  const bool check_known = in.checked_config_ == config;
  std::vector<float> c;
  if (!check_known) {
    // C starts as NaN, so an element no thread writes fails the check instead of passing by luck.
    c = poisoned(n);
    TL_RETURN_IF_ERROR(device.copy_to_device(in.c_device_.data(), c.data(), bytes));
  }

  auto records = sink.acquire(device, n);
  if (!records) return records.error();
  Status launched = device.kernels().get<kernels::VectorAddKernels>().add_traced(
      config, in.a_device_.data(), in.b_device_.data(), in.c_device_.data(), static_cast<int>(n),
      *records);
  if (launched) launched = device.synchronize();
  // Publish even after a failed launch: the sink must give its buffer back (e.g. unmap it), and the
  // view then honestly shows that nothing was written.
  const Status published = sink.publish(device);
  if (!launched) {
    in.checked_config_.reset();  // C may be half written: the next launch checks afresh
    return launched.error();
  }
  TL_RETURN_IF_ERROR(published);
  if (check_known) return in.checked_;
  TL_RETURN_IF_ERROR(device.copy_to_host(c.data(), in.c_device_.data(), bytes));
  in.checked_ = lessons::check_vector_add(in.a_, in.b_, c);
  in.checked_config_ = config;
  return in.checked_;
}

}  // namespace tl::compute
