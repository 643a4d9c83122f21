#include "matrix_add_runner.hpp"

#include <vector>

#include "compute/hardware_counters.hpp"
#include "compute/lessons/run_support.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "lessons/03_2d_blocks/kernels/matrix_add_kernels.hpp"

namespace tl::compute {
namespace {

struct HostMatrices {
  std::vector<float> a, b;
};

HostMatrices random_matrices(std::uint64_t elements, std::uint32_t seed) {
  HostMatrices m{std::vector<float>(elements), std::vector<float>(elements)};
  lessons::fill_random(m.a, seed);
  lessons::fill_random(m.b, seed * 2654435761u + 1);
  return m;
}

struct DeviceMatrices {
  DeviceArray<float> a, b, c;
};

Result<DeviceMatrices> upload(Device& device, const lessons::MatrixAddParams& params,
                              const HostMatrices& host) {
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(lessons::validate_matrix_add(params, memory->free_bytes));
  const std::uint64_t elements = params.rows * params.cols;
  auto a = allocate_array<float>(device, elements);
  if (!a) return a.error();
  auto b = allocate_array<float>(device, elements);
  if (!b) return b.error();
  auto c = allocate_array<float>(device, elements);
  if (!c) return c.error();
  TL_RETURN_IF_ERROR(device.copy_to_device(a->data(), host.a.data(), a->bytes()));
  TL_RETURN_IF_ERROR(device.copy_to_device(b->data(), host.b.data(), b->bytes()));
  return DeviceMatrices{std::move(*a), std::move(*b), std::move(*c)};
}

using MatrixKernel = Status (*)(const LaunchConfig&, const float*, const float*, float*, int, int);

MatrixKernel kernel_for(const kernels::MatrixAddKernels& kernels, lessons::MatrixMapping mapping) {
  return mapping == lessons::MatrixMapping::kXToCol ? kernels.x_to_col : kernels.x_to_row;
}

// Poisons C, times one mapping, then reads C back and checks it.
Result<MatrixMappingTiming> time_mapping(Device& device, const MatrixAddRequest& request,
                                         const lessons::MatrixAddParams& params,
                                         const HostMatrices& host, DeviceMatrices& matrices) {
  MatrixMappingTiming timing;
  timing.mapping = params.mapping;
  timing.config = params.config;
  timing.sectors_per_warp = lessons::sectors_per_warp_access(params);
  std::vector<float> c = poisoned_floats(params.rows * params.cols);
  TL_RETURN_IF_ERROR(device.copy_to_device(matrices.c.data(), c.data(), matrices.c.bytes()));
  const MatrixKernel kernel =
      kernel_for(device.kernels().get<kernels::MatrixAddKernels>(), params.mapping);
  const int rows = static_cast<int>(params.rows);
  const int cols = static_cast<int>(params.cols);
  auto launch = [&]() -> Status {
    return kernel(params.config, matrices.a.data(), matrices.b.data(), matrices.c.data(), rows,
                  cols);
  };
  auto times = device.time_repeated(launch, request.warmup, request.repeats);
  if (!times) return times.error();
  TL_RETURN_IF_ERROR(device.synchronize());
  timing.kernel = summarize_timings(*times);
  timing.gigabytes_per_second = gigabytes_per_second(
      lessons::matrix_add_bytes(params.rows, params.cols), timing.kernel.median_ms);
  if (request.check) {
    TL_RETURN_IF_ERROR(device.copy_to_host(c.data(), matrices.c.data(), matrices.c.bytes()));
    timing.check = lessons::check_matrix_add(host.a, host.b, c, params.cols);
  }
  return timing;
}

}  // namespace

Result<MatrixAddReport> run_matrix_add(Device& device, const MatrixAddRequest& request) {
  const lessons::MatrixAddParams& selected = request.params;
  lessons::MatrixAddParams other = selected;
  other.mapping = lessons::other_mapping(selected.mapping);
  other.config = lessons::matrix_covering_config(selected.rows, selected.cols,
                                                 selected.config.block, other.mapping);
  TL_RETURN_IF_ERROR(lessons::validate_matrix_add(selected, 0));
  TL_RETURN_IF_ERROR(lessons::validate_matrix_add(other, 0));
  TL_RETURN_IF_ERROR(check_emulator_budget(device, selected.config, /*traced=*/false));
  TL_RETURN_IF_ERROR(check_emulator_budget(device, other.config, /*traced=*/false));

  const HostMatrices host = random_matrices(selected.rows * selected.cols, request.seed);
  auto matrices = upload(device, selected, host);
  if (!matrices) return matrices.error();

  MatrixAddReport report;
  report.on_gpu = device.is_gpu();
  report.selected = selected.mapping;
  const bool col_selected = selected.mapping == lessons::MatrixMapping::kXToCol;
  const lessons::MatrixAddParams& coalesced = col_selected ? selected : other;
  const lessons::MatrixAddParams& strided = col_selected ? other : selected;
  // Coalesced first, strided second, whichever is selected: the same order on every run.
  auto col_timing = time_mapping(device, request, coalesced, host, *matrices);
  if (!col_timing) return col_timing.error();
  report.x_to_col = std::move(*col_timing);
  if (cancel_requested(request.cancel)) return cancelled_error();
  auto row_timing = time_mapping(device, request, strided, host, *matrices);
  if (!row_timing) return row_timing.error();
  report.x_to_row = std::move(*row_timing);
  if (cancel_requested(request.cancel)) return cancelled_error();

  // The copies a program around either kernel pays for: for the end-to-end time.
  const std::size_t bytes = host.a.size() * sizeof(float);
  auto upload_times = device.time_repeated(
      [&]() -> Status {
        TL_RETURN_IF_ERROR(device.copy_to_device(matrices->a.data(), host.a.data(), bytes));
        return device.copy_to_device(matrices->b.data(), host.b.data(), bytes);
      },
      0, request.repeats);
  if (!upload_times) return upload_times.error();
  report.host_to_device = summarize_timings(*upload_times);
  std::vector<float> c(host.a.size());
  auto download_times = device.time_repeated(
      [&] { return device.copy_to_host(c.data(), matrices->c.data(), bytes); }, 0, request.repeats);
  if (!download_times) return download_times.error();
  report.device_to_host = summarize_timings(*download_times);

  if (request.time_cpu) {
    // Linear work: the CPU loop never takes long next to uploading the same data.
    std::vector<float> reference(host.a.size());
    report.cpu_single =
        time_on_host([&] { lessons::matrix_add_reference(host.a, host.b, reference); },
                     request.warmup, request.repeats);
    report.cpu_multi = time_on_host(
        [&] {
          report.cpu_threads = lessons::matrix_add_reference_parallel(host.a, host.b, reference);
        },
        request.warmup, request.repeats);
  }
  return report;
}

Result<std::vector<MatrixCountedKernel>> count_matrix_add(Device& device,
                                                          const lessons::MatrixAddParams& params,
                                                          std::uint32_t seed) {
  lessons::MatrixAddParams other = params;
  other.mapping = lessons::other_mapping(params.mapping);
  other.config =
      lessons::matrix_covering_config(params.rows, params.cols, params.config.block, other.mapping);
  TL_RETURN_IF_ERROR(lessons::validate_matrix_add(params, 0));
  TL_RETURN_IF_ERROR(lessons::validate_matrix_add(other, 0));
  const HostMatrices host = random_matrices(params.rows * params.cols, seed);
  auto matrices = upload(device, params, host);
  if (!matrices) return matrices.error();
  const bool col_selected = params.mapping == lessons::MatrixMapping::kXToCol;
  std::vector<MatrixCountedKernel> counted;
  for (const lessons::MatrixAddParams* p :
       {col_selected ? &params : &other, col_selected ? &other : &params}) {
    const MatrixKernel kernel =
        kernel_for(device.kernels().get<kernels::MatrixAddKernels>(), p->mapping);
    auto counters = count_kernel(device, [&]() -> Status {
      return kernel(p->config, matrices->a.data(), matrices->b.data(), matrices->c.data(),
                    static_cast<int>(p->rows), static_cast<int>(p->cols));
    });
    if (!counters) return counters.error();
    counted.push_back({p->mapping, *counters});
  }
  return counted;
}

Result<lessons::ElementCheck> trace_matrix_add(Device& device,
                                               const lessons::MatrixAddParams& params,
                                               TraceSink& sink, std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_matrix_add(params, 0));
  TL_RETURN_IF_ERROR(check_emulator_budget(device, params.config, /*traced=*/true));
  const std::uint64_t elements = params.rows * params.cols;
  const HostMatrices host = random_matrices(elements, seed);
  auto matrices = upload(device, params, host);
  if (!matrices) return matrices.error();
  std::vector<float> c = poisoned_floats(elements);
  TL_RETURN_IF_ERROR(device.copy_to_device(matrices->c.data(), c.data(), matrices->c.bytes()));

  auto records = sink.acquire(device, elements);
  if (!records) return records.error();
  const auto& kernels = device.kernels().get<kernels::MatrixAddKernels>();
  const auto traced = params.mapping == lessons::MatrixMapping::kXToCol ? kernels.x_to_col_traced
                                                                        : kernels.x_to_row_traced;
  Status launched =
      traced(params.config, matrices->a.data(), matrices->b.data(), matrices->c.data(),
             static_cast<int>(params.rows), static_cast<int>(params.cols), *records);
  if (launched) launched = device.synchronize();
  // Publish even after a failed launch: the sink must give its buffer back (e.g. unmap it), and the
  // view then honestly shows that nothing was written.
  const Status published = sink.publish(device);
  TL_RETURN_IF_ERROR(launched);
  TL_RETURN_IF_ERROR(published);
  TL_RETURN_IF_ERROR(device.copy_to_host(c.data(), matrices->c.data(), matrices->c.bytes()));
  return lessons::check_matrix_add(host.a, host.b, c, params.cols);
}

}  // namespace tl::compute
