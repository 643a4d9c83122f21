#include "thread_hierarchy_runner.hpp"

#include <functional>
#include <string>

#include "compute/lessons/run_support.hpp"
#include "core/format.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "lessons/02_thread_hierarchy/kernels/thread_hierarchy_kernels.hpp"

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

// The divergence kernels do hundreds of operations per element: the emulator, which runs each
// thread on its own, would take minutes at the sizes the plain kernel handles.
Status check_emulator_branch_budget(const Device& device,
                                    const lessons::ThreadHierarchyParams& params) {
  if (device.is_gpu() || params.branch == lessons::BranchRule::kNone ||
      params.n <= kEmulatorMaxBranchElements) {
    return Status::ok();
  }
  return Error{ErrorKind::kTooSlow,
               "the divergence demo does " + std::to_string(2 * lessons::kBranchSteps) +
                   " floating-point operations per element, and the CPU emulator runs them one "
                   "thread after another: it stops at N = " +
                   format_count(kEmulatorMaxBranchElements) + " (asked: " + format_count(params.n) +
                   ")."};
}

using BranchKernel = Status (*)(const LaunchConfig&, const float*, float*, std::uint64_t, bool);

BranchKernel branch_kernel(const kernels::ThreadHierarchyKernels& kernels,
                           lessons::BranchRule rule) {
  return rule == lessons::BranchRule::kByWarp ? kernels.branch_by_warp : kernels.branch_by_thread;
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
  TL_RETURN_IF_ERROR(check_emulator_branch_budget(device, params));
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

  const auto& kernels = device.kernels().get<kernels::ThreadHierarchyKernels>();
  const float* in_device = buffers->in.data();
  float* out_device = buffers->out.data();
  auto time_kernel = [&](const std::function<Status()>& launch) -> Result<TimingStats> {
    auto times = device.time_repeated(launch, request.warmup, request.repeats);
    if (!times) return times.error();
    TL_RETURN_IF_ERROR(device.synchronize());
    return summarize_timings(*times);
  };
  if (params.branch == lessons::BranchRule::kNone) {
    auto kernel = time_kernel([&]() -> Status {
      return params.grid_stride ? kernels.grid_stride(params.config, in_device, out_device, n)
                                : kernels.one_per_thread(params.config, in_device, out_device, n);
    });
    if (!kernel) return kernel.error();
    report.kernel = *kernel;
  } else {
    // Both rules over the same data, the chosen one last, so that its output is what is checked.
    const lessons::BranchRule other = params.branch == lessons::BranchRule::kByThread
                                          ? lessons::BranchRule::kByWarp
                                          : lessons::BranchRule::kByThread;
    for (lessons::BranchRule rule : {other, params.branch}) {
      const BranchKernel launch = branch_kernel(kernels, rule);
      auto kernel = time_kernel(
          [&] { return launch(params.config, in_device, out_device, n, params.grid_stride); });
      if (!kernel) return kernel.error();
      (rule == lessons::BranchRule::kByThread ? report.branch_by_thread : report.branch_by_warp) =
          *kernel;
      if (cancel_requested(request.cancel)) return cancelled_error();
    }
    report.kernel = params.branch == lessons::BranchRule::kByThread ? report.branch_by_thread
                                                                    : report.branch_by_warp;
  }
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
    report.check = lessons::check_thread_hierarchy(params, in, out);
  }
  if (request.time_cpu) {
    // Linear work: the CPU loop never takes long next to uploading the same data (the branch's
    // sides cost more per element, but no more than the emulated kernels just timed).
    std::vector<float> reference(n);
    const auto block_threads = static_cast<std::uint32_t>(params.config.block.volume());
    auto single = [&] {
      if (params.branch == lessons::BranchRule::kNone) {
        lessons::thread_hierarchy_reference(in, reference);
      } else {
        lessons::branch_reference(params.branch, block_threads, in, reference);
      }
    };
    auto multi = [&] {
      report.cpu_threads =
          params.branch == lessons::BranchRule::kNone
              ? lessons::thread_hierarchy_reference_parallel(in, reference)
              : lessons::branch_reference_parallel(params.branch, block_threads, in, reference);
    };
    report.cpu_single = time_on_host(single, request.warmup, request.repeats);
    if (cancel_requested(request.cancel)) return cancelled_error();
    report.cpu_multi = time_on_host(multi, request.warmup, request.repeats);
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
  TL_RETURN_IF_ERROR(check_emulator_branch_budget(device, params));
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
  const auto& kernels = device.kernels().get<kernels::ThreadHierarchyKernels>();
  const float* in_device = buffers->in.data();
  float* out_device = buffers->out.data();
  Status launched = Status::ok();
  switch (params.branch) {
    case lessons::BranchRule::kNone:
      launched = params.grid_stride
                     ? kernels.grid_stride_traced(params.config, in_device, out_device, n, *records,
                                                  blocks_array->data())
                     : kernels.one_per_thread_traced(params.config, in_device, out_device, n,
                                                     *records, blocks_array->data());
      break;
    case lessons::BranchRule::kByThread:
      launched =
          kernels.branch_by_thread_traced(params.config, in_device, out_device, n,
                                          params.grid_stride, *records, blocks_array->data());
      break;
    case lessons::BranchRule::kByWarp:
      launched = kernels.branch_by_warp_traced(params.config, in_device, out_device, n,
                                               params.grid_stride, *records, blocks_array->data());
      break;
  }
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
  trace.check = lessons::check_thread_hierarchy(params, in, out);
  return trace;
}

}  // namespace tl::compute
