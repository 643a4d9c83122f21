#include "convolution_runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <thread>

#include "compute/lessons/run_support.hpp"
#include "core/format.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/numeric/low_precision.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"
#include "lessons/04_matmul/matmul.hpp"
#include "lessons/11_convolution/convolution_cudnn.hpp"
#include "lessons/11_convolution/kernels/convolution_kernels.hpp"

namespace tl::compute {
namespace {

using lessons::ConvRung;
using lessons::ConvShape;

// The FP32 check of outputs stored in FP16 (cuDNN's FP16 output): half a unit in the last place of
// an FP16 value on top, 2⁻¹¹ of its size.
constexpr double kHalfOutputRounding = 1.0 / 2048.0;

// A CPU reference above this many flops is left out of the timed rows (it still runs once for the
// check): the float64 loop runs at a few GFLOP/s on a desktop's cores.
constexpr double kCpuTimedFlopsLimit = 2e9;

std::uint32_t blocks(std::uint64_t count, std::uint64_t per) {
  return static_cast<std::uint32_t>((count + per - 1) / per);
}

lessons::MatmulSize gemm_size(const ConvShape& shape) {
  // NHWC: (N·P·Q × C·R·S) · (C·R·S × K). NCHW, per image: (K × C·R·S) · (C·R·S × P·Q).
  const auto crs = static_cast<std::uint32_t>(shape.reduction());
  if (shape.nhwc) {
    return {static_cast<std::uint32_t>(std::uint64_t{shape.n} * shape.p() * shape.q()), shape.k,
            crs};
  }
  return {shape.k, shape.p() * shape.q(), crs};
}

LaunchConfig gemm_config(const ConvShape& shape) {
  lessons::MatmulVariant variant;
  variant.kernel = lessons::MatmulKernel::kPipelined;
  return lessons::matmul_covering_config(gemm_size(shape), variant);
}

struct HostInputs {
  std::vector<float> in;  // in the shape's layout
  std::vector<float> w;   // KCRS
  std::vector<float> wg;  // the GEMM's (C·R·S) × K
  // FP16: the same values rounded, as 16-bit words for the device and as floats for the reference.
  std::vector<std::uint16_t> in16, wg16, w16_library;
  std::vector<float> in_rounded, w_rounded;
  std::vector<float> w_library;  // cuDNN's filter layout: KCRS for NCHW, KRSC for NHWC
};

HostInputs make_inputs(const ConvShape& shape) {
  HostInputs h;
  std::vector<float> nchw(shape.input_elements());
  h.w.assign(shape.weight_elements(), 0.0f);
  lessons::fill_random(nchw, 1);
  lessons::fill_random(h.w, 2);
  h.in = lessons::conv_to_layout(shape, nchw, shape.c, shape.h, shape.w);
  h.wg = lessons::conv_gemm_weights(shape, h.w);
  // cuDNN's NHWC filter is K × R × S × C: the KCRS weights rearranged as K "images" of C channels.
  h.w_library = lessons::conv_to_layout(shape, h.w, shape.c, shape.r, shape.s);
  auto round = [](const std::vector<float>& from, std::vector<std::uint16_t>& bits,
                  std::vector<float>* rounded) {
    bits.resize(from.size());
    if (rounded != nullptr) rounded->resize(from.size());
    for (std::size_t i = 0; i < from.size(); ++i) {
      bits[i] = numeric::float_to_half_bits(from[i]);
      if (rounded != nullptr) (*rounded)[i] = numeric::half_bits_to_float(bits[i]);
    }
  };
  round(h.in, h.in16, &h.in_rounded);
  round(h.wg, h.wg16, nullptr);
  round(h.w, h.w16_library, &h.w_rounded);
  if (shape.nhwc) round(h.w_library, h.w16_library, nullptr);
  return h;
}

// Device copies of what a run needs; the FP16 ones only where something reads them.
struct DeviceBuffers {
  std::optional<DeviceArray<float>> in, w, wg, out, col, w_library;
  std::optional<DeviceArray<std::uint16_t>> in16, wg16, w16_library, out16;
};

template <class T>
Status upload(Device& device, std::optional<DeviceArray<T>>& to, const std::vector<T>& from) {
  auto array = allocate_array<T>(device, from.size());
  if (!array) return array.error();
  to.emplace(std::move(*array));
  return device.copy_to_device(to->data(), from.data(), from.size() * sizeof(T));
}

template <class T>
Status allocate(Device& device, std::optional<DeviceArray<T>>& to, std::uint64_t count) {
  auto array = allocate_array<T>(device, count);
  if (!array) return array.error();
  to.emplace(std::move(*array));
  return Status::ok();
}

// The GEMM half of im2col + GEMM through lesson 4's pipelined kernel; `trace` (null: timed) is the
// output's records, offset per image for NCHW.
Status run_gemm(Device& device, const ConvShape& shape, const float* col, const float* w,
                const float* wg, float* out, TraceRecord* trace) {
  const auto& gemm = device.kernels().get<kernels::MatmulKernels>();
  const lessons::MatmulSize size = gemm_size(shape);
  const LaunchConfig config = gemm_config(shape);
  const auto kernel = lessons::MatmulKernel::kPipelined;
  const int m = static_cast<int>(size.m), n = static_cast<int>(size.n),
            k = static_cast<int>(size.k);
  if (shape.nhwc) return gemm.block_tiled_traced(config, kernel, col, wg, out, m, n, k, trace);
  const std::uint64_t col_per_image = shape.reduction() * shape.p() * shape.q();
  const std::uint64_t out_per_image = std::uint64_t{shape.k} * shape.p() * shape.q();
  for (std::uint32_t image = 0; image < shape.n; ++image) {
    TL_RETURN_IF_ERROR(gemm.block_tiled_traced(
        config, kernel, w, col + image * col_per_image, out + image * out_per_image, m, n, k,
        trace == nullptr ? nullptr : trace + image * out_per_image));
  }
  return Status::ok();
}

// Launches `rung` once (timed kernels when `trace` is null).
Status launch_rung(Device& device, const ConvShape& shape, ConvRung rung, Dim3 block,
                   DeviceBuffers& b, TraceRecord* trace) {
  const auto& k = device.kernels().get<kernels::ConvolutionKernels>();
  const kernels::ConvDims d = shape.dims();
  const LaunchConfig config = conv_launch_config(shape, rung, block, conv_target(device));
  switch (rung) {
    case ConvRung::kDirect:
      return trace ? k.direct_traced(config, d, b.in->data(), b.w->data(), b.out->data(), trace)
                   : k.direct(config, d, b.in->data(), b.w->data(), b.out->data());
    case ConvRung::kTiled:
      return trace ? k.tiled_traced(config, d, b.in->data(), b.w->data(), b.out->data(), trace)
                   : k.tiled(config, d, b.in->data(), b.w->data(), b.out->data());
    case ConvRung::kIm2colGemm:
      TL_RETURN_IF_ERROR(
          k.im2col(conv_im2col_config(shape, block), d, b.in->data(), b.col->data()));
      return run_gemm(device, shape, b.col->data(), b.w->data(), b.wg->data(), b.out->data(),
                      trace);
    case ConvRung::kImplicitGemm:
      return trace ? k.implicit_gemm_traced(config, d, b.in->data(), b.wg->data(), b.out->data(),
                                            trace)
                   : k.implicit_gemm(config, d, b.in->data(), b.wg->data(), b.out->data());
    case ConvRung::kTensorFp16:
      return k.tensor(config, d, b.in16->data(), b.wg16->data(), b.out->data(), trace);
  }
  return invalid_argument("unknown rung");
}

// Sets up what `rungs` (and cuDNN, if `library`) read.
Status upload_inputs(Device& device, const ConvShape& shape, const HostInputs& h,
                     const std::vector<ConvRung>& rungs, bool library, DeviceBuffers& b) {
  bool fp16 = library, im2col = false;
  for (ConvRung rung : rungs) {
    fp16 = fp16 || rung == ConvRung::kTensorFp16;
    im2col = im2col || rung == ConvRung::kIm2colGemm;
  }
  TL_RETURN_IF_ERROR(upload(device, b.in, h.in));
  TL_RETURN_IF_ERROR(upload(device, b.w, h.w));
  TL_RETURN_IF_ERROR(upload(device, b.wg, h.wg));
  TL_RETURN_IF_ERROR(allocate(device, b.out, shape.output_elements()));
  if (im2col) TL_RETURN_IF_ERROR(allocate(device, b.col, shape.im2col_elements()));
  if (fp16) {
    TL_RETURN_IF_ERROR(upload(device, b.in16, h.in16));
    TL_RETURN_IF_ERROR(upload(device, b.wg16, h.wg16));
  }
  if (library) {
    TL_RETURN_IF_ERROR(upload(device, b.w_library, h.w_library));
    TL_RETURN_IF_ERROR(upload(device, b.w16_library, h.w16_library));
    TL_RETURN_IF_ERROR(allocate(device, b.out16, shape.output_elements()));
  }
  return Status::ok();
}

// Fills the output with NaN, launches once and reads it back: an output no thread wrote stays NaN
// and fails the check.
Result<std::vector<float>> launch_once(Device& device, const ConvShape& shape,
                                       const std::function<Status()>& launch, float* out) {
  const std::vector<float> nan(shape.output_elements(), std::numeric_limits<float>::quiet_NaN());
  TL_RETURN_IF_ERROR(device.copy_to_device(out, nan.data(), nan.size() * sizeof(float)));
  TL_RETURN_IF_ERROR(launch());
  TL_RETURN_IF_ERROR(device.synchronize());
  std::vector<float> got(nan.size());
  TL_RETURN_IF_ERROR(device.copy_to_host(got.data(), out, got.size() * sizeof(float)));
  return got;
}

#if defined(THREADLAB_HAVE_CUDA)
// One cuDNN row: `row.graph` says which API finds the algorithm; timed like the rungs, then checked
// against `reference` (the FP16 one, of the rounded inputs, for FP16). A path that cannot prepare
// greys its row with the reason and the run goes on.
Status run_cudnn(Device& device, const ConvShape& shape, int repeats, const DeviceBuffers& b,
                 ConvLibraryResult& row, const lessons::ConvReference& reference) {
  const bool fp16 = row.fp16;
  const void* in = fp16 ? static_cast<const void*>(b.in16->data()) : b.in->data();
  const void* w = fp16 ? static_cast<const void*>(b.w16_library->data()) : b.w_library->data();
  void* out = fp16 ? static_cast<void*>(b.out16->data()) : b.out->data();
  CudnnConvolution cudnn;
  const Status prepared =
      row.graph ? cudnn.prepare_graph(shape, fp16, in, w, out) : cudnn.prepare(shape, fp16);
  if (!prepared) {
    // A lost context is the device's to report; anything else greys this row alone.
    if (prepared.error().kind == ErrorKind::kCudaStickyError) return prepared;
    row.not_timed = prepared.message();
    return Status::ok();
  }
  const CudnnChoice& choice = cudnn.choice();
  row.algorithm =
      choice.algorithm + (choice.tensor_ops ? ", tensor cores" : "") +
      (choice.workspace_bytes > 0 ? ", workspace " + format_bytes(choice.workspace_bytes)
                                  : std::string(", no workspace"));
  if (row.graph) {
    row.details = "the fastest of " + std::to_string(choice.plans_timed) + " plans timed";
    if (!choice.left_out.empty()) row.details += "; left out: " + choice.left_out;
    if (!choice.knobs.empty()) row.details += "; its knobs (type=value): " + choice.knobs;
  }
  auto launch = [&] { return cudnn.forward(in, w, out); };
  auto times = device.time_repeated(launch, 1, repeats);
  if (!times) return times.error();
  row.time = summarize_timings(*times);
  if (!fp16) {
    auto got = launch_once(device, shape, launch, b.out->data());
    if (!got) return got.error();
    row.check = lessons::check_conv(shape, reference, *got);
    return Status::ok();
  }
  // FP16 output: NaN halves first, then the words back to floats.
  const std::vector<std::uint16_t> nan(shape.output_elements(), 0x7E00);
  TL_RETURN_IF_ERROR(device.copy_to_device(b.out16->data(), nan.data(), nan.size() * 2));
  TL_RETURN_IF_ERROR(launch());
  TL_RETURN_IF_ERROR(device.synchronize());
  std::vector<std::uint16_t> words(nan.size());
  TL_RETURN_IF_ERROR(device.copy_to_host(words.data(), b.out16->data(), words.size() * 2));
  std::vector<float> got(words.size());
  for (std::size_t i = 0; i < words.size(); ++i) got[i] = numeric::half_bits_to_float(words[i]);
  row.check = lessons::check_conv(shape, reference, got, kHalfOutputRounding);
  return Status::ok();
}
#endif

}  // namespace

LaunchConfig conv_im2col_config(const ConvShape& shape, Dim3 block) {
  return {{blocks(shape.im2col_elements(), block.volume()), 1, 1}, block};
}

ConvTarget conv_target(const Device& device) {
  if (!device.is_gpu()) return {};
  // What a block may opt in to is the multiprocessor's shared memory less the part the system
  // reserves for each block (cudaDevAttrMaxSharedMemoryPerBlockOptin is exactly that: 227 KiB on
  // Hopper, 163 KiB on the A100).
  const DeviceInfo& info = device.info();
  const std::uint64_t optin =
      info.shared_memory_per_multiprocessor > info.reserved_shared_memory_per_block
          ? info.shared_memory_per_multiprocessor - info.reserved_shared_memory_per_block
          : 0;
  return {info.multiprocessors, optin};
}

bool conv_tensor_resident(const ConvShape& shape, const ConvTarget& target) {
  return target.multiprocessors > 0 &&
         kernels::conv_resident_applies(shape.dims(), target.shared_per_block_optin);
}

std::string conv_tensor_kernel(const ConvShape& shape, const ConvTarget& target) {
  if (conv_tensor_resident(shape, target)) return "conv_implicit_gemm_fp16_resident";
  // 3 × 3 filters over 64 channels launch the tile compiled for that shape.
  return shape.r == 3 && shape.s == 3 && shape.c == 64 ? "conv_implicit_gemm_fp16_3x3x64"
                                                       : "conv_implicit_gemm_fp16";
}

LaunchConfig conv_launch_config(const ConvShape& shape, ConvRung rung, Dim3 block,
                                const ConvTarget& target) {
  const std::uint64_t pixels = std::uint64_t{shape.n} * shape.p() * shape.q();
  switch (rung) {
    case ConvRung::kDirect:
      return {{blocks(shape.output_elements(), block.volume()), 1, 1}, block};
    case ConvRung::kTiled:
      return {{blocks(shape.q(), kernels::kConvTile), blocks(shape.p(), kernels::kConvTile),
               shape.n * shape.k},
              {kernels::kConvTile, kernels::kConvTile, 1}};
    case ConvRung::kIm2colGemm:
      return gemm_config(shape);
    case ConvRung::kImplicitGemm:
      return {{blocks(pixels, kernels::kIgemmTileM), blocks(shape.k, kernels::kIgemmTileN), 1},
              {kernels::kIgemmThreads, 1, 1}};
    case ConvRung::kTensorFp16:
      if (conv_tensor_resident(shape, target)) {
        const auto grid = kernels::conv_resident_grid(shape.dims(), target.multiprocessors);
        return {{grid.x, grid.y, 1}, {kernels::kResidentThreads, 1, 1}};
      }
      return {{blocks(pixels, kernels::kTensorTileM), blocks(shape.k, kernels::kTensorTileN), 1},
              {kernels::kTensorThreads, 1, 1}};
  }
  return {};
}

std::string conv_rung_unavailable(const Device& device, const ConvShape& shape, ConvRung rung,
                                  Dim3 block) {
  if (rung == ConvRung::kTensorFp16) {
    if (!device.is_gpu()) return kernels::kConvTensorNotEmulated;
    const DeviceInfo& info = device.info();
    if (info.compute_major * 10 + info.compute_minor < kernels::kTensorMinCapability) {
      return "it needs compute capability 8.0 or newer (cp.async, FP16 WMMA); this GPU is " +
             std::to_string(info.compute_major) + "." + std::to_string(info.compute_minor);
    }
    if (const Status fits = kernels::check_tensor_conv_shape(shape.dims()); !fits) {
      return fits.message();
    }
  }
  std::vector<LaunchConfig> configs{conv_launch_config(shape, rung, block, conv_target(device))};
  if (rung == ConvRung::kIm2colGemm) configs.push_back(conv_im2col_config(shape, block));
  for (const LaunchConfig& config : configs) {
    const auto problems = validate(config, device.info().limits);
    if (!problems.empty()) {
      return config.to_string() + " cannot launch: " + problems.front().message;
    }
    if (const Status fits = check_emulator_budget(device, config, false); !fits) {
      return fits.message();
    }
  }
  return {};
}

Result<ConvReport> run_convolution(Device& device, const ConvRequest& request) {
  const ConvShape& shape = request.shape;
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(
      lessons::validate_conv_shape(shape, memory->free_bytes, device.is_gpu() ? 1 : 2));
  ConvReport report;
  report.on_gpu = device.is_gpu();
  const HostInputs h = make_inputs(shape);
  const lessons::ConvReference reference = lessons::conv_reference(shape, h.in, h.w);
  std::optional<lessons::ConvReference> reference16;
  auto fp16_reference = [&]() -> const lessons::ConvReference& {
    if (!reference16) reference16 = lessons::conv_reference(shape, h.in_rounded, h.w_rounded);
    return *reference16;
  };

  bool library = false;
#if defined(THREADLAB_HAVE_CUDA)
  if (report.on_gpu && request.cudnn) {
    auto found = cudnn_library();
    library = found.is_ok();
    report.cudnn_library = found ? *found : found.error().message;
  }
#endif
  if (!report.on_gpu) {
    report.cudnn_library = "cuDNN runs on a GPU: the emulator has none to call";
  } else if (!request.cudnn) {
    report.cudnn_library = "cuDNN not requested";
  }

  DeviceBuffers b;
  TL_RETURN_IF_ERROR(upload_inputs(device, shape, h, request.rungs, library, b));
  auto upload_time = device.time_repeated(
      [&]() -> Status {
        TL_RETURN_IF_ERROR(device.copy_to_device(b.in->data(), h.in.data(), h.in.size() * 4));
        return device.copy_to_device(b.w->data(), h.w.data(), h.w.size() * 4);
      },
      0, request.repeats);
  if (!upload_time) return upload_time.error();
  report.host_to_device = summarize_timings(*upload_time);

  for (ConvRung rung : request.rungs) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    ConvRungResult result{rung, {}, {}, std::nullopt, {}, {}};
    auto launch = [&]() { return launch_rung(device, shape, rung, request.block, b, nullptr); };
    auto times = device.time_repeated(launch, 1, request.repeats);
    if (!times) return times.error();
    result.time = summarize_timings(*times);
    if (rung == ConvRung::kIm2colGemm) {
      const auto& k = device.kernels().get<kernels::ConvolutionKernels>();
      const kernels::ConvDims d = shape.dims();
      auto im2col = device.time_repeated(
          [&] {
            return k.im2col(conv_im2col_config(shape, request.block), d, b.in->data(),
                            b.col->data());
          },
          1, request.repeats);
      if (!im2col) return im2col.error();
      result.im2col_step = summarize_timings(*im2col);
      auto gemm = device.time_repeated(
          [&] {
            return run_gemm(device, shape, b.col->data(), b.w->data(), b.wg->data(), b.out->data(),
                            nullptr);
          },
          1, request.repeats);
      if (!gemm) return gemm.error();
      result.gemm_step = summarize_timings(*gemm);
    }
    auto got = launch_once(device, shape, launch, b.out->data());
    if (!got) return got.error();
    result.check = lessons::check_conv(
        shape, rung == ConvRung::kTensorFp16 ? fp16_reference() : reference, *got);
    report.rungs.push_back(std::move(result));
  }

#if defined(THREADLAB_HAVE_CUDA)
  for (const bool fp16 : {false, true}) {
    for (const bool graph : {true, false}) {
      ConvLibraryResult row;
      row.fp16 = fp16;
      row.graph = graph;
      if (!library) {
        row.not_timed = report.cudnn_library;
        report.cudnn.push_back(std::move(row));
        continue;
      }
      if (cancel_requested(request.cancel)) return cancelled_error();
      TL_RETURN_IF_ERROR(
          run_cudnn(device, shape, request.repeats, b, row, fp16 ? fp16_reference() : reference));
      report.cudnn.push_back(std::move(row));
    }
  }
#endif

  // The last rung's output back to the host, as a program would fetch its result.
  std::vector<float> result(shape.output_elements());
  auto download = device.time_repeated(
      [&] { return device.copy_to_host(result.data(), b.out->data(), result.size() * 4); }, 0,
      request.repeats);
  if (!download) return download.error();
  report.device_to_host = summarize_timings(*download);

  if (!request.time_cpu) {
    report.cpu_skipped = "CPU timings are off";
  } else if (lessons::conv_flops(shape) > kCpuTimedFlopsLimit) {
    report.cpu_skipped = "the float64 reference of " + shape.describe() +
                         " is too long to time repeatedly (it ran once, for the check)";
  } else {
    report.cpu_reference =
        time_on_host([&] { (void)lessons::conv_reference(shape, h.in, h.w); }, 0, request.repeats);
    report.cpu_threads = std::max(1u, std::thread::hardware_concurrency());
  }
  return report;
}

Result<std::optional<lessons::ConvCheck>> trace_convolution(Device& device, const ConvShape& shape,
                                                            ConvRung rung, Dim3 block,
                                                            TraceSink& sink) {
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  TL_RETURN_IF_ERROR(
      lessons::validate_conv_shape(shape, memory->free_bytes, device.is_gpu() ? 1 : 2));
  if (const std::string why = conv_rung_unavailable(device, shape, rung, block); !why.empty()) {
    return Error{ErrorKind::kInvalidArgument,
                 "the " + std::string(lessons::to_string(rung)) + " rung cannot run here: " + why};
  }
  TL_RETURN_IF_ERROR(
      check_emulator_budget(device, conv_launch_config(shape, rung, block), /*traced=*/true));
  const HostInputs h = make_inputs(shape);
  DeviceBuffers b;
  TL_RETURN_IF_ERROR(upload_inputs(device, shape, h, {rung}, false, b));
  const std::vector<float> nan(shape.output_elements(), std::numeric_limits<float>::quiet_NaN());
  TL_RETURN_IF_ERROR(device.copy_to_device(b.out->data(), nan.data(), nan.size() * 4));
  auto records = sink.acquire(device, shape.output_elements());
  if (!records) return records.error();
  Status launched = launch_rung(device, shape, rung, block, b, *records);
  if (launched) launched = device.synchronize();
  // Publish even after a failed launch: the sink must give its buffer back.
  const Status published = sink.publish(device);
  if (!launched) return launched.error();
  TL_RETURN_IF_ERROR(published);
  std::vector<float> got(shape.output_elements());
  TL_RETURN_IF_ERROR(device.copy_to_host(got.data(), b.out->data(), got.size() * 4));
  const lessons::ConvReference reference =
      rung == ConvRung::kTensorFp16 ? lessons::conv_reference(shape, h.in_rounded, h.w_rounded)
                                    : lessons::conv_reference(shape, h.in, h.w);
  return std::optional<lessons::ConvCheck>(lessons::check_conv(shape, reference, got));
}

}  // namespace tl::compute
