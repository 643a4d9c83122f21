#include "thread_hierarchy_runner.hpp"

#include <string>

#include "compute/lessons/run_support.hpp"
#include "core/format.hpp"
#include "lessons/01_vector_add/vector_add.hpp"

namespace tl::compute {
namespace {

struct DeviceBuffers {
  DeviceArray<float> in;
  DeviceArray<float> out;
};

// Checks the parameters (also against the device's free memory), then uploads `in` and a
// poisoned `out`.
Result<DeviceBuffers> prepare(Device& device, const lessons::ThreadHierarchyParams& params,
                              const std::vector<float>& in, const std::vector<float>& out) {
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(lessons::validate_thread_hierarchy(params, memory->free_bytes));
  auto in_array = allocate_array<float>(device, params.n);
  if (!in_array) return in_array.error();
  auto out_array = allocate_array<float>(device, params.n);
  if (!out_array) return out_array.error();
  const std::size_t bytes = params.n * sizeof(float);
  TL_RETURN_IF_ERROR(device.copy_to_device(in_array->data(), in.data(), bytes));
  TL_RETURN_IF_ERROR(device.copy_to_device(out_array->data(), out.data(), bytes));
  return DeviceBuffers{std::move(*in_array), std::move(*out_array)};
}

std::vector<float> random_input(std::uint64_t n, std::uint32_t seed) {
  std::vector<float> in(n);
  lessons::fill_random(in, seed);
  return in;
}

}  // namespace

double ThreadHierarchyReport::kernel_gigabytes_per_second() const {
  return gigabytes_per_second(lessons::thread_hierarchy_bytes(n), kernel.median_ms);
}

Result<ThreadHierarchyReport> run_thread_hierarchy(Device& device,
                                                   const ThreadHierarchyRequest& request) {
  const lessons::ThreadHierarchyParams& params = request.params;
  TL_RETURN_IF_ERROR(lessons::validate_thread_hierarchy(params, 0));
  TL_RETURN_IF_ERROR(check_emulator_budget(device, params.config, /*traced=*/false));
  const std::uint64_t n = params.n;
  const std::vector<float> in = random_input(n, request.seed);
  std::vector<float> out = poisoned_floats(n);
  auto buffers = prepare(device, params, in, out);
  if (!buffers) return buffers.error();

  ThreadHierarchyReport report;
  report.on_gpu = device.is_gpu();
  report.n = n;
  report.threads = *lessons::count_grid_threads(params.config);
  report.passes = params.grid_stride ? lessons::grid_stride_passes(n, report.threads) : 1;

  const auto& kernels = device.kernels().thread_hierarchy;
  const float* in_device = buffers->in.data();
  float* out_device = buffers->out.data();
  auto launch = [&]() -> Status {
    return params.grid_stride ? kernels.grid_stride(params.config, in_device, out_device, n)
                              : kernels.one_per_thread(params.config, in_device, out_device, n);
  };
  auto times = device.time_repeated(launch, request.warmup, request.repeats);
  if (!times) return times.error();
  TL_RETURN_IF_ERROR(device.synchronize());
  report.kernel = summarize_timings(*times);
  if (cancel_requested(request.cancel)) return cancelled_error();

  // The copies a program around this kernel pays for: for the end-to-end time.
  const std::size_t bytes = n * sizeof(float);
  auto upload = device.time_repeated(
      [&] { return device.copy_to_device(buffers->in.data(), in.data(), bytes); }, 0,
      request.repeats);
  if (!upload) return upload.error();
  report.host_to_device = summarize_timings(*upload);
  auto download = device.time_repeated(
      [&] { return device.copy_to_host(out.data(), out_device, bytes); }, 0, request.repeats);
  if (!download) return download.error();
  report.device_to_host = summarize_timings(*download);

  if (request.check) {
    TL_RETURN_IF_ERROR(device.copy_to_host(out.data(), out_device, n * sizeof(float)));
    report.check = lessons::check_thread_hierarchy(in, out);
  }
  if (request.time_cpu) {
    // Linear work: the CPU loop never takes long next to uploading the same data.
    std::vector<float> reference(n);
    report.cpu_single = time_on_host([&] { lessons::thread_hierarchy_reference(in, reference); },
                                     request.warmup, request.repeats);
    report.cpu_multi = time_on_host(
        [&] { report.cpu_threads = lessons::thread_hierarchy_reference_parallel(in, reference); },
        request.warmup, request.repeats);
    if (cancel_requested(request.cancel)) return cancelled_error();
  }
  return report;
}

Result<ThreadHierarchyTrace> trace_thread_hierarchy(Device& device,
                                                    const lessons::ThreadHierarchyParams& params,
                                                    TraceSink& sink, std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_thread_hierarchy(params, 0));
  const std::uint64_t block_count = params.config.grid.volume();
  if (block_count > kThreadHierarchyMaxTracedBlocks) {
    return invalid_argument("A traced launch records every block, and " +
                            format_count(block_count) + " blocks are more than the " +
                            format_count(kThreadHierarchyMaxTracedBlocks) +
                            " it keeps: use fewer blocks (a grid-stride loop still covers N).");
  }
  if (params.n > kThreadHierarchyMaxTracedN) {
    return invalid_argument(
        "A traced launch records every element, and N = " + format_count(params.n) +
        " is more than the " + format_count(kThreadHierarchyMaxTracedN) + " it keeps.");
  }
  TL_RETURN_IF_ERROR(check_emulator_budget(device, params.config, /*traced=*/true));
  const std::uint64_t n = params.n;
  const std::vector<float> in = random_input(n, seed);
  std::vector<float> out = poisoned_floats(n);
  auto buffers = prepare(device, params, in, out);
  if (!buffers) return buffers.error();

  // Zeroed block records: a block that never ran keeps start = end = 0.
  auto blocks_array = allocate_array<BlockRecord>(device, block_count);
  if (!blocks_array) return blocks_array.error();
  TL_RETURN_IF_ERROR(device.fill_zero(blocks_array->data(), blocks_array->bytes()));

  auto records = sink.acquire(device, n);
  if (!records) return records.error();
  const auto& kernels = device.kernels().thread_hierarchy;
  Status launched =
      params.grid_stride
          ? kernels.grid_stride_traced(params.config, buffers->in.data(), buffers->out.data(), n,
                                       *records, blocks_array->data())
          : kernels.one_per_thread_traced(params.config, buffers->in.data(), buffers->out.data(), n,
                                          *records, blocks_array->data());
  if (launched) launched = device.synchronize();
  // Publish even after a failed launch: the sink must give its buffer back (e.g. unmap it), and the
  // view then honestly shows that nothing was written.
  const Status published = sink.publish(device);
  TL_RETURN_IF_ERROR(launched);
  TL_RETURN_IF_ERROR(published);

  ThreadHierarchyTrace trace;
  trace.blocks.resize(block_count);
  TL_RETURN_IF_ERROR(
      device.copy_to_host(trace.blocks.data(), blocks_array->data(), blocks_array->bytes()));
  TL_RETURN_IF_ERROR(device.copy_to_host(out.data(), buffers->out.data(), n * sizeof(float)));
  trace.check = lessons::check_thread_hierarchy(in, out);
  return trace;
}

}  // namespace tl::compute
