#include "dense_layer_runner.hpp"

#include <algorithm>
#include <functional>
#include <thread>
#include <utility>

#include "compute/lessons/run_support.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_kernels.hpp"

#if defined(THREADLAB_HAVE_CUDA)
#include "lessons/05_dense_layer/dense_cublas.hpp"
#endif

namespace tl::compute {
namespace {

using lessons::DenseLayerPath;

struct DeviceLayer {
  DeviceArray<float> w, x, b, z, y;
};

// Everything that can be refused before touching the device: the sizes, the launch shape and, on
// the emulator, the amount of work.
Status validate_request(const Device& device, const lessons::DenseLayerParams& params,
                        const LaunchConfig& config, bool traced) {
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer(params, 0));
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer_launch(config));
  if (!device.is_gpu()) {
    TL_RETURN_IF_ERROR(lessons::check_emulator_size(params));
    TL_RETURN_IF_ERROR(check_emulator_budget(device, config, traced));
  }
  return Status::ok();
}

Result<DeviceLayer> allocate_layer(Device& device, const lessons::DenseLayerParams& params) {
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(lessons::validate_dense_layer(params, memory->free_bytes));
  DeviceLayer layer;
  const std::pair<DeviceArray<float>*, std::uint64_t> arrays[] = {
      {&layer.w, params.out * params.in},
      {&layer.x, params.batch * params.in},
      {&layer.b, params.out},
      {&layer.z, params.outputs()},
      {&layer.y, params.outputs()}};
  for (const auto& [array, count] : arrays) {
    auto allocated = allocate_array<float>(device, count);
    if (!allocated) return allocated.error();
    *array = std::move(*allocated);
  }
  return layer;
}

Status upload(Device& device, DeviceLayer& layer, const lessons::DenseLayerData& data) {
  TL_RETURN_IF_ERROR(device.copy_to_device(layer.w.data(), data.weights.data(), layer.w.bytes()));
  TL_RETURN_IF_ERROR(device.copy_to_device(layer.x.data(), data.inputs.data(), layer.x.bytes()));
  return device.copy_to_device(layer.b.data(), data.bias.data(), layer.b.bytes());
}

// Z and Y start as NaN before each path's checked run, so an element no thread wrote (or a product
// that never ran) fails the check instead of passing with the previous path's values.
Status poison_outputs(Device& device, DeviceLayer& layer, const std::vector<float>& nans) {
  TL_RETURN_IF_ERROR(device.copy_to_device(layer.z.data(), nans.data(), layer.z.bytes()));
  return device.copy_to_device(layer.y.data(), nans.data(), layer.y.bytes());
}

// The statistics of a path made of several launches, each timed on its own: repeat i of the path
// is the sum of repeat i of every launch.
TimingStats summed(const std::vector<const std::vector<double>*>& launches) {
  std::vector<double> totals(launches.front()->size(), 0.0);
  for (const std::vector<double>* samples : launches) {
    for (std::size_t i = 0; i < totals.size() && i < samples->size(); ++i) {
      totals[i] += (*samples)[i];
    }
  }
  return summarize_timings(totals);
}

// Runs the path once more from poisoned outputs, untimed, and brings its Y home for the check.
Result<std::vector<float>> checked_run(Device& device, DeviceLayer& layer,
                                       const std::vector<float>& nans,
                                       const std::function<Status()>& path) {
  TL_RETURN_IF_ERROR(poison_outputs(device, layer, nans));
  TL_RETURN_IF_ERROR(path());
  TL_RETURN_IF_ERROR(device.synchronize());
  std::vector<float> y(layer.y.size());
  TL_RETURN_IF_ERROR(device.copy_to_host(y.data(), layer.y.data(), layer.y.bytes()));
  return y;
}

struct Shape {
  int batch, in, out;
};
Shape int_shape(const lessons::DenseLayerParams& params) {
  // validate_dense_layer keeps every dimension (and every matrix) within int.
  return {static_cast<int>(params.batch), static_cast<int>(params.in),
          static_cast<int>(params.out)};
}

Result<std::vector<double>> time_launch(Device& device, const DenseLayerRequest& request,
                                        const std::function<Status()>& launch) {
  auto times = device.time_repeated(launch, request.warmup, request.repeats);
  if (!times) return times.error();
  TL_RETURN_IF_ERROR(device.synchronize());
  return std::move(*times);
}

void time_cpu_references(const DenseLayerRequest& request, const lessons::DenseLayerData& data,
                         DenseLayerReport& report) {
  const lessons::DenseLayerParams& params = request.params;
  const int runs = request.warmup + request.repeats;
  std::vector<float> reference(params.outputs());
  report.cpu_single_skipped = lessons::cpu_reference_skip_reason(params, 1, runs);
  if (report.cpu_single_skipped.empty() && !cancel_requested(request.cancel)) {
    report.cpu_single =
        time_on_host([&] { lessons::dense_layer_reference(params, data, reference); },
                     request.warmup, request.repeats);
  }
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  report.cpu_multi_skipped = lessons::cpu_reference_skip_reason(params, threads, runs);
  if (report.cpu_multi_skipped.empty() && !cancel_requested(request.cancel)) {
    report.cpu_multi = time_on_host(
        [&] {
          report.cpu_threads =
              lessons::dense_layer_reference_parallel(params, data, reference, threads);
        },
        request.warmup, request.repeats);
  }
}

#if defined(THREADLAB_HAVE_CUDA)
// The cuBLAS path, timed and checked. A failure of cuBLAS itself (it could not start, e.g. out of
// memory for its workspace) leaves the path absent with the reason; a sticky CUDA error ends the
// run, since nothing after it can work.
Status run_cublas_path(Device& device, const DenseLayerRequest& request, DeviceLayer& layer,
                       const std::vector<float>& nans, const lessons::DenseLayerData& data,
                       std::vector<float>& output, DenseLayerReport& report) {
  const Shape s = int_shape(request.params);
  CublasDenseLayer cublas;
  auto absent_if_failed = [&](const Status& status) -> Status {
    if (status || status.error().kind == ErrorKind::kCudaStickyError) return status;
    report.cublas_absent_reason = "cuBLAS failed: " + status.message();
    return Status::ok();
  };
  const Status started = cublas.initialize();
  if (!started) return absent_if_failed(started);

  auto product = [&] {
    return cublas.product(layer.x.data(), layer.w.data(), layer.z.data(), s.batch, s.in, s.out);
  };
  auto epilogue = [&] {
    return CublasDenseLayer::epilogue(request.config, layer.z.data(), layer.b.data(),
                                      layer.y.data(), s.batch, s.out);
  };
  auto product_times = time_launch(device, request, product);
  if (!product_times) return absent_if_failed(product_times.status());
  auto epilogue_times = time_launch(device, request, epilogue);
  if (!epilogue_times) return epilogue_times.error();
  auto y = checked_run(device, layer, nans, [&]() -> Status {
    TL_RETURN_IF_ERROR(product());
    return epilogue();
  });
  if (!y) return y.error();

  report.cublas_product = summarize_timings(*product_times);
  report.cublas_epilogue = summarize_timings(*epilogue_times);
  report.cublas = summed({&*product_times, &*epilogue_times});
  if (request.check) report.cublas_check = lessons::check_dense_layer(request.params, data, *y);
  output = std::move(*y);
  return Status::ok();
}
#endif

}  // namespace

std::string cublas_absent_reason(const Device& device) {
  if (!device.is_gpu()) {
    return "cuBLAS is NVIDIA's GPU library: the CPU emulator cannot run it, so this path needs a "
           "CUDA GPU.";
  }
#if defined(THREADLAB_HAVE_CUDA)
  return {};
#else
  return "this ThreadLab was built without the CUDA toolkit, so it has no cuBLAS.";
#endif
}

Result<DenseLayerReport> run_dense_layer(Device& device, const DenseLayerRequest& request) {
  const lessons::DenseLayerParams& params = request.params;
  TL_RETURN_IF_ERROR(validate_request(device, params, request.config, false));
  const lessons::DenseLayerData data = lessons::make_dense_layer_data(params, request.seed);
  const std::vector<float> nans = poisoned_floats(params.outputs());
  auto allocated = allocate_layer(device, params);
  if (!allocated) return allocated.error();
  DeviceLayer& layer = *allocated;
  const Shape s = int_shape(params);
  const kernels::DenseLayerKernels& kernels = device.kernels().get<kernels::DenseLayerKernels>();
  const LaunchConfig& config = request.config;

  DenseLayerReport report;
  report.on_gpu = device.is_gpu();
  auto h2d = device.time_repeated([&] { return upload(device, layer, data); }, 0, request.repeats);
  if (!h2d) return h2d.error();
  report.host_to_device = summarize_timings(*h2d);
  if (cancel_requested(request.cancel)) return cancelled_error();

  // Unfused: each launch timed on its own. The timed repeats of the bias kernel add b to Z again
  // and again; that costs the same time, and the checked run below starts from scratch.
  // The product runs the same code on the unfused and the fused path: the comparison measures
  // fusion, not a better product on one side.
  const bool fast = params.product == lessons::DenseProduct::kFast;
  const LaunchConfig fast_config = lessons::dense_layer_fast_config(params);
  auto product = [&] {
    if (fast) {
      return kernels.product_fast(fast_config, layer.x.data(), layer.w.data(), layer.z.data(),
                                  s.batch, s.in, s.out);
    }
    return kernels.product(config, layer.x.data(), layer.w.data(), layer.z.data(), s.batch, s.in,
                           s.out);
  };
  auto add_bias = [&] {
    return kernels.add_bias(config, layer.z.data(), layer.b.data(), s.batch, s.out);
  };
  auto sigmoid = [&] {
    return kernels.sigmoid(config, layer.z.data(), layer.y.data(), s.batch, s.out);
  };
  auto product_times = time_launch(device, request, product);
  if (!product_times) return product_times.error();
  auto bias_times = time_launch(device, request, add_bias);
  if (!bias_times) return bias_times.error();
  auto sigmoid_times = time_launch(device, request, sigmoid);
  if (!sigmoid_times) return sigmoid_times.error();
  report.unfused_product = summarize_timings(*product_times);
  report.unfused_bias = summarize_timings(*bias_times);
  report.unfused_sigmoid = summarize_timings(*sigmoid_times);
  report.unfused = summed({&*product_times, &*bias_times, &*sigmoid_times});
  auto unfused_y = checked_run(device, layer, nans, [&]() -> Status {
    TL_RETURN_IF_ERROR(product());
    TL_RETURN_IF_ERROR(add_bias());
    return sigmoid();
  });
  if (!unfused_y) return unfused_y.error();
  if (cancel_requested(request.cancel)) return cancelled_error();

  auto fused = [&] {
    if (fast) {
      return kernels.fused_fast(fast_config, layer.x.data(), layer.w.data(), layer.b.data(),
                                layer.y.data(), s.batch, s.in, s.out);
    }
    return kernels.fused(config, layer.x.data(), layer.w.data(), layer.b.data(), layer.y.data(),
                         s.batch, s.in, s.out);
  };
  auto fused_times = time_launch(device, request, fused);
  if (!fused_times) return fused_times.error();
  report.fused = summarize_timings(*fused_times);
  auto fused_y = checked_run(device, layer, nans, fused);
  if (!fused_y) return fused_y.error();
  if (cancel_requested(request.cancel)) return cancelled_error();

  std::vector<float> cublas_y;
  report.cublas_absent_reason = cublas_absent_reason(device);
#if defined(THREADLAB_HAVE_CUDA)
  if (report.cublas_absent_reason.empty()) {
    TL_RETURN_IF_ERROR(run_cublas_path(device, request, layer, nans, data, cublas_y, report));
  }
#endif
  if (cancel_requested(request.cancel)) return cancelled_error();

  std::vector<float> y_home(params.outputs());
  auto d2h = device.time_repeated(
      [&] { return device.copy_to_host(y_home.data(), layer.y.data(), layer.y.bytes()); }, 0,
      request.repeats);
  if (!d2h) return d2h.error();
  report.device_to_host = summarize_timings(*d2h);

  if (request.check) {
    report.unfused_check = lessons::check_dense_layer(params, data, *unfused_y);
    if (cancel_requested(request.cancel)) return cancelled_error();
    report.fused_check = lessons::check_dense_layer(params, data, *fused_y);
  }
  if (request.time_cpu) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    time_cpu_references(request, data, report);
  }

  const std::vector<float>* shown = &*fused_y;
  if (params.path == DenseLayerPath::kUnfused) shown = &*unfused_y;
  if (params.path == DenseLayerPath::kCublas && !cublas_y.empty()) shown = &cublas_y;
  report.picture = lessons::summarize_layer(params, data, *shown);

  if (request.keep_outputs) {
    report.unfused_output = std::move(*unfused_y);
    report.fused_output = std::move(*fused_y);
    report.cublas_output = std::move(cublas_y);
  }
  return report;
}

Result<lessons::DenseCheckResult> trace_dense_layer(Device& device,
                                                    const lessons::DenseLayerParams& params,
                                                    const LaunchConfig& config, TraceSink& sink,
                                                    std::uint32_t seed) {
  TL_RETURN_IF_ERROR(validate_request(device, params, config, true));
  if (params.path == DenseLayerPath::kCublas) {
    const std::string absent = cublas_absent_reason(device);
    if (!absent.empty()) {
      return invalid_argument(absent + " Trace the unfused or the fused path instead.");
    }
  }
  const lessons::DenseLayerData data = lessons::make_dense_layer_data(params, seed);
  auto allocated = allocate_layer(device, params);
  if (!allocated) return allocated.error();
  DeviceLayer& layer = *allocated;
  TL_RETURN_IF_ERROR(upload(device, layer, data));
  TL_RETURN_IF_ERROR(poison_outputs(device, layer, poisoned_floats(params.outputs())));
  const Shape s = int_shape(params);
  const kernels::DenseLayerKernels& kernels = device.kernels().get<kernels::DenseLayerKernels>();

  // The stages before the traced one run first, so the sink's buffer is held only for the traced
  // launch.
#if defined(THREADLAB_HAVE_CUDA)
  CublasDenseLayer cublas;
#endif
  const bool fast = params.product == lessons::DenseProduct::kFast;
  const LaunchConfig fast_config = lessons::dense_layer_fast_config(params);
  if (params.path == DenseLayerPath::kUnfused) {
    TL_RETURN_IF_ERROR(fast ? kernels.product_fast(fast_config, layer.x.data(), layer.w.data(),
                                                   layer.z.data(), s.batch, s.in, s.out)
                            : kernels.product(config, layer.x.data(), layer.w.data(),
                                              layer.z.data(), s.batch, s.in, s.out));
    TL_RETURN_IF_ERROR(kernels.add_bias(config, layer.z.data(), layer.b.data(), s.batch, s.out));
  } else if (params.path == DenseLayerPath::kCublas) {
#if defined(THREADLAB_HAVE_CUDA)
    TL_RETURN_IF_ERROR(
        cublas.product(layer.x.data(), layer.w.data(), layer.z.data(), s.batch, s.in, s.out));
#endif
  }

  auto records = sink.acquire(device, params.outputs());
  if (!records) return records.error();
  Status launched;
  switch (params.path) {
    case DenseLayerPath::kUnfused:
      launched =
          kernels.sigmoid_traced(config, layer.z.data(), layer.y.data(), s.batch, s.out, *records);
      break;
    case DenseLayerPath::kFused:
      launched = fast ? kernels.fused_fast_traced(fast_config, layer.x.data(), layer.w.data(),
                                                  layer.b.data(), layer.y.data(), s.batch, s.in,
                                                  s.out, *records)
                      : kernels.fused_traced(config, layer.x.data(), layer.w.data(), layer.b.data(),
                                             layer.y.data(), s.batch, s.in, s.out, *records);
      break;
    case DenseLayerPath::kCublas:
#if defined(THREADLAB_HAVE_CUDA)
      launched = CublasDenseLayer::epilogue(config, layer.z.data(), layer.b.data(), layer.y.data(),
                                            s.batch, s.out, *records);
#endif
      break;
  }
  if (launched) launched = device.synchronize();
  // Publish even after a failed launch: the sink must give its buffer back (e.g. unmap it), and the
  // view then honestly shows that nothing was written.
  const Status published = sink.publish(device);
  TL_RETURN_IF_ERROR(launched);
  TL_RETURN_IF_ERROR(published);
  std::vector<float> y(params.outputs());
  TL_RETURN_IF_ERROR(device.copy_to_host(y.data(), layer.y.data(), layer.y.bytes()));
  return lessons::check_dense_layer(params, data, y);
}

}  // namespace tl::compute
