#include "moving_data_runner.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>

#include "compute/lessons/run_support.hpp"
#include "core/format.hpp"
#include "core/lessons/random_inputs.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_kernels.hpp"
#include "lessons/05_dense_layer/kernels/dense_layer_shapes.hpp"
#include "lessons/07_moving_data/kernels/moving_data_kernels.hpp"
#if defined(THREADLAB_HAVE_CUDA)
#include "lessons/07_moving_data/moving_data_cuda.hpp"
#endif

namespace tl::compute {
namespace {

using lessons::HostMemory;
using lessons::TimelineOp;

constexpr std::uint64_t kEmulatorCopySweepTop = 64ull << 20;

// The median of the samples' totals, and the run that gave it.
struct RunsOf {
  std::vector<double> totals;
  std::vector<std::vector<TimelineOp>> runs;
  void add(std::vector<TimelineOp> ops) {
    totals.push_back(lessons::summarize_pipeline(ops).total_ms);
    runs.push_back(std::move(ops));
  }
  [[nodiscard]] const std::vector<TimelineOp>& median_run() const {
    std::vector<std::size_t> order(totals.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return totals[a] < totals[b]; });
    return runs[order[order.size() / 2]];
  }
};

// The host side of the pipeline: pageable vectors always, pinned buffers where the system gives
// them.
struct HostBuffers {
  std::vector<float> pageable_in, pageable_out;
  PinnedHostArray<float> pinned_in, pinned_out;
  [[nodiscard]] bool has_pinned() const { return pinned_in.data() != nullptr; }
};

Result<double> time_once(Device& device, const std::function<Status()>& work) {
  auto ms = device.time_repeated(work, 0, 1);
  if (!ms) return ms.error();
  return ms->front();
}

// The copy sweep: for each size, host → device and device → host, from pageable and from pinned
// memory (where there is some), each the median of the repeats after a warm-up.
Status sweep_copies(Device& device, const MovingDataRequest& request, std::uint64_t top,
                    MovingDataReport& report) {
  const std::vector<std::uint64_t> sizes = lessons::copy_sweep_sizes(top);
  if (sizes.empty()) return Status::ok();
  const std::uint64_t largest = sizes.back();
  std::vector<std::uint8_t> pageable(largest, 1);
  auto device_buffer = allocate_array<std::uint8_t>(device, largest);
  if (!device_buffer) return device_buffer.error();
  auto pinned = allocate_pinned_array<std::uint8_t>(device, largest);
  if (!pinned) {
    report.pinned_unavailable = "pinned memory refused (" + pinned.message() +
                                "): the pinned copies and pipelines are left out";
  } else {
    std::memset(pinned->data(), 1, largest);
  }
  for (bool to_device : {true, false}) {
    for (bool use_pinned : {false, true}) {
      if (use_pinned && !pinned) continue;
      CopySeries series{to_device, use_pinned, {}, std::nullopt};
      std::uint8_t* host = use_pinned ? pinned->data() : pageable.data();
      for (std::uint64_t bytes : sizes) {
        if (cancel_requested(request.cancel)) return cancelled_error();
        auto copy = [&]() -> Status {
          return to_device ? device.copy_to_device(device_buffer->data(), host, bytes)
                           : device.copy_to_host(host, device_buffer->data(), bytes);
        };
        auto times = device.time_repeated(copy, 1, request.repeats);
        if (!times) return times.error();
        series.points.push_back({bytes, summarize_timings(*times).median_ms});
      }
      series.knee = lessons::copy_knee(series.points);
      report.copies.push_back(std::move(series));
    }
  }

  // The same 1 MiB as 256 copies of 4 KiB and as one copy, from pinned memory where there is
  // some: each copy pays the fixed cost once.
  constexpr std::uint64_t kSmall = 4096, kCount = 256;
  if (largest >= kSmall * kCount) {
    std::uint8_t* host = pinned ? pinned->data() : pageable.data();
    auto many = device.time_repeated(
        [&]() -> Status {
          for (std::uint64_t i = 0; i < kCount; ++i) {
            TL_RETURN_IF_ERROR(device.copy_to_device(device_buffer->data() + i * kSmall,
                                                     host + i * kSmall, kSmall));
          }
          return Status::ok();
        },
        1, request.repeats);
    if (!many) return many.error();
    auto one = device.time_repeated(
        [&] { return device.copy_to_device(device_buffer->data(), host, kSmall * kCount); }, 1,
        request.repeats);
    if (!one) return one.error();
    report.small_copy_bytes = kSmall;
    report.small_copies = kCount;
    report.many_small = summarize_timings(*many);
    report.one_batched = summarize_timings(*one);
  }
  return Status::ok();
}

// Rounds that make the kernel take about as long as a chunk's copy in, where overlap can win the
// most: the kernel's time is a fixed part plus a part per round, measured at two round counts.
Result<std::uint32_t> balance_rounds(Device& device, const HostBuffers& host, float* device_in,
                                     float* device_out, std::uint64_t count, std::uint32_t block) {
  const float* source = host.has_pinned() ? host.pinned_in.data() : host.pageable_in.data();
  const std::size_t bytes = count * sizeof(float);
  auto copy =
      device.time_repeated([&] { return device.copy_to_device(device_in, source, bytes); }, 1, 3);
  if (!copy) return copy.error();
  const auto& kernels = device.kernels().get<kernels::MovingDataKernels>();
  const LaunchConfig config = chunk_config(count, block);
  auto kernel_ms = [&](int rounds) -> Result<double> {
    auto t = device.time_repeated(
        [&] {
          return kernels.transform(config, device_in, device_out, static_cast<int>(count), rounds);
        },
        1, 3);
    if (!t) return t.error();
    return summarize_timings(*t).median_ms;
  };
  constexpr int kLow = 1, kHigh = 65;
  auto low = kernel_ms(kLow);
  if (!low) return low.error();
  auto high = kernel_ms(kHigh);
  if (!high) return high.error();
  const double per_round = std::max(1e-9, (*high - *low) / (kHigh - kLow));
  const double fixed = std::max(0.0, *low - per_round * kLow);
  const double wanted = (summarize_timings(*copy).median_ms - fixed) / per_round;
  return static_cast<std::uint32_t>(
      std::clamp(wanted, 1.0, static_cast<double>(lessons::kMaxRounds)));
}

// The emulator has no streams and no copy engines: it runs every chunk's three stages one after
// another, measuring each (and the default-stream kernel, one block, where the schedule has one),
// and the timeline is the model's schedule of those times.
Result<std::vector<TimelineOp>> emulated_pipeline(Device& device, const float* in, float* out,
                                                  float* device_in, float* device_out,
                                                  std::span<const lessons::ChunkRange> chunks,
                                                  std::uint32_t streams, bool overlap,
                                                  std::uint32_t rounds, std::uint32_t block,
                                                  lessons::Schedule schedule,
                                                  std::uint32_t connections) {
  const auto& kernels = device.kernels().get<kernels::MovingDataKernels>();
  lessons::ScheduleModel model{.connections = connections, .overlap = overlap};
  if (lessons::has_default_stream_kernel(schedule)) {
    // The GPU's default-stream kernel is one block over a scratch buffer; here it runs over the
    // start of the output, which the chunks' kernels write afterwards.
    const auto count = static_cast<int>(std::min<std::uint64_t>(block, chunks.front().count));
    auto marker = time_once(device, [&] {
      return kernels.transform(chunk_config(static_cast<std::uint64_t>(count), block), device_in,
                               device_out, count, static_cast<int>(rounds));
    });
    if (!marker) return marker.error();
    model.marker_ms = *marker;
  }
  std::vector<lessons::StageTimes> per_chunk;
  for (const lessons::ChunkRange& c : chunks) {
    const std::size_t bytes = c.count * sizeof(float);
    lessons::StageTimes t;
    auto in_ms = time_once(
        device, [&] { return device.copy_to_device(device_in + c.begin, in + c.begin, bytes); });
    if (!in_ms) return in_ms.error();
    auto k_ms = time_once(device, [&] {
      return kernels.transform(chunk_config(c.count, block), device_in + c.begin,
                               device_out + c.begin, static_cast<int>(c.count),
                               static_cast<int>(rounds));
    });
    if (!k_ms) return k_ms.error();
    auto out_ms = time_once(
        device, [&] { return device.copy_to_host(out + c.begin, device_out + c.begin, bytes); });
    if (!out_ms) return out_ms.error();
    per_chunk.push_back({*in_ms, *k_ms, *out_ms});
  }
  return lessons::model_schedule(per_chunk, streams, schedule, model);
}

Result<PipelineRun> run_pipeline(Device& device, const MovingDataRequest& request,
                                 const MovingDataReport& report, HostBuffers& host,
                                 float* device_in, float* device_out, std::uint32_t streams,
                                 HostMemory memory, lessons::Schedule schedule) {
  const lessons::MovingDataParams& p = report.params;
  const auto chunks = lessons::split_chunks(p.elements(), p.chunks);
  const bool pinned = memory != HostMemory::kPageable && host.has_pinned();
  const float* in = pinned ? host.pinned_in.data() : host.pageable_in.data();
  float* out = pinned ? host.pinned_out.data() : host.pageable_out.data();
  PipelineRun run;
  run.streams = streams;
  run.memory = memory;
  run.schedule = schedule;
  run.modelled = !device.is_gpu();
  RunsOf runs;
  for (int r = 0; r < request.repeats + 1; ++r) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    // Every run starts from a poisoned output, so a chunk that one run failed to bring back fails
    // the check instead of showing an earlier run's result.
    std::fill_n(out, p.elements(), std::numeric_limits<float>::quiet_NaN());
    std::vector<TimelineOp> ops;
    if (!device.is_gpu()) {
      auto modelled = emulated_pipeline(device, in, out, device_in, device_out, chunks, streams,
                                        memory != HostMemory::kPageable, p.rounds, p.block,
                                        schedule, report.connections);
      if (!modelled) return modelled.error();
      ops = std::move(*modelled);
    } else {
#if defined(THREADLAB_HAVE_CUDA)
      GpuPipelineBuffers buffers{in, out, device_in, device_out};
      std::optional<ManagedBuffer> managed_in, managed_out;
      if (memory == HostMemory::kManaged) {
        auto a = ManagedBuffer::allocate(p.elements());
        if (!a) return a.error();
        auto b = ManagedBuffer::allocate(p.elements());
        if (!b) return b.error();
        std::memcpy(a->data(), host.pageable_in.data(), p.elements() * sizeof(float));
        std::fill_n(b->data(), p.elements(), std::numeric_limits<float>::quiet_NaN());
        managed_in = std::move(*a);
        managed_out = std::move(*b);
        buffers = {managed_in->data(), managed_out->data(), managed_in->data(),
                   managed_out->data()};
      }
      auto measured =
          run_gpu_pipeline(buffers, chunks, streams, memory, p.rounds, p.block, schedule);
      if (!measured) return measured.error();
      ops = lessons::start_on_engines(std::move(*measured));
      if (managed_out) {
        std::memcpy(host.pageable_out.data(), managed_out->data(), p.elements() * sizeof(float));
      }
#else
      return Error{ErrorKind::kNoDevice, "this build has no CUDA"};
#endif
    }
    if (r > 0) runs.add(std::move(ops));  // the first run warms up
  }
  run.ops = runs.median_run();
  run.summary = lessons::summarize_pipeline(run.ops);
  run.total = summarize_timings(runs.totals);
  return run;
}

// The dense layer of lesson 5, fed from host memory batch by batch: each batch's inputs copied in,
// the fused kernel, its outputs copied out; samples per second, copies included, against the CPU
// computing the same batches on all its threads.
Status sweep_batches(Device& device, const MovingDataRequest& request, MovingDataReport& report) {
  BatchSweep& sweep = report.batches;
  sweep.in = request.dense_in;
  sweep.out = request.dense_out;
  const std::uint64_t largest =
      *std::max_element(request.batch_sizes.begin(), request.batch_sizes.end());
  sweep.samples = largest;
  lessons::DenseLayerParams all;
  all.batch = largest;
  all.in = sweep.in;
  all.out = sweep.out;
  const lessons::DenseLayerData data = lessons::make_dense_layer_data(all, request.seed);
  auto w = allocate_array<float>(device, sweep.in * sweep.out);
  auto b = allocate_array<float>(device, sweep.out);
  auto x = allocate_array<float>(device, largest * sweep.in);
  auto y = allocate_array<float>(device, largest * sweep.out);
  if (!w || !b || !x || !y) {
    return Error{ErrorKind::kOutOfMemory, "no device memory for the mini-batch sweep"};
  }
  TL_RETURN_IF_ERROR(
      device.copy_to_device(w->data(), data.weights.data(), data.weights.size() * 4));
  TL_RETURN_IF_ERROR(device.copy_to_device(b->data(), data.bias.data(), data.bias.size() * 4));
  // A data loader's batches come from pinned memory (pin_memory=True) where the system gives it.
  auto pinned_x = allocate_pinned_array<float>(device, largest * sweep.in);
  auto pinned_y = allocate_pinned_array<float>(device, largest * sweep.out);
  std::vector<float> pageable_y(largest * sweep.out);
  sweep.pinned = pinned_x && pinned_y;
  const float* host_x = data.inputs.data();
  float* host_y = pageable_y.data();
  if (sweep.pinned) {
    std::copy(data.inputs.begin(), data.inputs.end(), pinned_x->data());
    host_x = pinned_x->data();
    host_y = pinned_y->data();
  }
  const auto& kernels = device.kernels().get<kernels::DenseLayerKernels>();
  std::vector<float> cpu_y(largest * sweep.out);
  for (std::uint64_t batch : request.batch_sizes) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    // At most 256 batches a measurement: small batches are slow per sample, and a rate needs no
    // more to be steady.
    const std::uint64_t batches = std::min<std::uint64_t>(256, largest / batch);
    const LaunchConfig config = kernels::dense_layer_fast_config(batch, sweep.out);
    auto gpu = device.time_repeated(
        [&]() -> Status {
          for (std::uint64_t i = 0; i < batches; ++i) {
            const std::uint64_t row = i * batch;
            TL_RETURN_IF_ERROR(device.copy_to_device(x->data() + row * sweep.in,
                                                     host_x + row * sweep.in,
                                                     batch * sweep.in * sizeof(float)));
            TL_RETURN_IF_ERROR(
                kernels.fused_fast(config, x->data() + row * sweep.in, w->data(), b->data(),
                                   y->data() + row * sweep.out, static_cast<int>(batch),
                                   static_cast<int>(sweep.in), static_cast<int>(sweep.out)));
            TL_RETURN_IF_ERROR(device.copy_to_host(host_y + row * sweep.out,
                                                   y->data() + row * sweep.out,
                                                   batch * sweep.out * sizeof(float)));
          }
          return Status::ok();
        },
        1, request.repeats);
    if (!gpu) return gpu.error();
    lessons::BatchPoint point;
    point.batch = batch;
    const double samples = static_cast<double>(batches * batch);
    point.device_samples_per_second = samples / (summarize_timings(*gpu).median_ms * 1e-3);
    if (request.time_cpu) {
      // The same number of batches on the CPU, each a call over `batch` rows on all its threads.
      // The CPU has no link to cross: its inputs are where it computes, so only the batch's size
      // changes what it does.
      lessons::DenseLayerParams one = all;
      one.batch = batch;
      lessons::DenseLayerData slice{
          data.weights, data.bias,
          std::vector<float>(data.inputs.begin(),
                             data.inputs.begin() + static_cast<std::ptrdiff_t>(batch * sweep.in))};
      const TimingStats cpu = time_on_host(
          [&] {
            for (std::uint64_t i = 0; i < batches; ++i) {
              sweep.cpu_threads = lessons::dense_layer_reference_parallel(
                  one, slice, std::span<float>(cpu_y.data(), batch * sweep.out));
            }
          },
          0, std::max(1, request.repeats / 2));
      point.cpu_samples_per_second = samples / (cpu.median_ms * 1e-3);
    }
    sweep.points.push_back(point);
  }
  if (request.time_cpu) sweep.crossover = lessons::batch_crossover(sweep.points);
  return Status::ok();
}

}  // namespace

std::string CopySeries::variant() const {
  return std::string(to_device ? "to-device-" : "to-host-") + (pinned ? "pinned" : "pageable");
}

const PipelineRun* MovingDataReport::selected_pipeline() const {
  for (const PipelineRun& run : pipelines) {
    if (run.streams == params.streams) return &run;
  }
  return nullptr;
}

const CopySeries* MovingDataReport::series(bool to_device, bool pinned) const {
  for (const CopySeries& s : copies) {
    if (s.to_device == to_device && s.pinned == pinned) return &s;
  }
  return nullptr;
}

Result<MovingDataReport> run_moving_data(Device& device, const MovingDataRequest& request) {
  MovingDataReport report;
  report.on_gpu = device.is_gpu();
  report.params = request.params;
  lessons::MovingDataParams& p = report.params;
  TL_RETURN_IF_ERROR(lessons::validate_moving_data(p));
  auto memory = device.memory_info();
  if (!memory) return memory.error();
  const std::uint64_t host_free = lessons::host_available_bytes();
  TL_RETURN_IF_ERROR(lessons::check_moving_data_memory(p, host_free, memory->free_bytes));
  // The CUDA runtime reads the variable once, when it creates the context; the model reads the
  // same, so that CUDA_DEVICE_MAX_CONNECTIONS=1 shows the false dependency on both backends.
  report.connections = lessons::connections_from(std::getenv("CUDA_DEVICE_MAX_CONNECTIONS"));
  if (p.memory == HostMemory::kManaged && !device.is_gpu()) {
    report.notes.push_back(
        "the emulator has no managed memory (all its memory is host memory): the managed pipeline "
        "is modelled like the pinned one");
  }

  // Where the link's ceiling comes from, and how many copy engines can work at once.
  if (device.is_gpu()) {
#if defined(THREADLAB_HAVE_CUDA)
    auto bus = gpu_pci_bus_id();
    if (bus) {
      report.link = lessons::read_link_ceiling(*bus);
    } else {
      report.link.source = "no PCI bus id: " + bus.message();
    }
    auto engines = gpu_copy_engines();
    if (engines) report.copy_engines = *engines;
#endif
  } else {
    report.link.source = "the emulator has no link: its copies are host memcpy";
  }

  // The copy sweep, up to what memory allows: the largest copy needs its bytes on the device and
  // twice on the host (pageable and pinned).
  std::uint64_t top = request.copy_sweep_top;
  // The emulator's copies are host memcpy: past a few tens of MiB they show nothing new and only
  // hold memory (three buffers of the largest size).
  if (!device.is_gpu() && top > kEmulatorCopySweepTop) {
    top = kEmulatorCopySweepTop;
    report.notes.push_back("the emulator's copy sweep stops at " +
                           format_bytes(static_cast<double>(top)) + ": its copies are host memcpy");
  }
  if (memory->free_bytes > 0) top = std::min(top, memory->free_bytes / 4);
  if (host_free > 0) top = std::min(top, host_free / 8);
  if (top < lessons::kCopySweepLargest && top < request.copy_sweep_top) {
    report.notes.push_back("the copy sweep stops at " + format_bytes(static_cast<double>(top)) +
                           ", what free host and device memory allow");
  }
  TL_RETURN_IF_ERROR(sweep_copies(device, request, top, report));

  // The pipeline's data: random inputs in pageable memory, and the same in pinned memory.
  HostBuffers host;
  const std::uint64_t n = p.elements();
  host.pageable_in.resize(n);
  lessons::fill_random(host.pageable_in, request.seed);
  host.pageable_out = poisoned_floats(n);
  auto pinned_in = allocate_pinned_array<float>(device, n);
  auto pinned_out = pinned_in ? allocate_pinned_array<float>(device, n)
                              : Result<PinnedHostArray<float>>(pinned_in.error());
  if (pinned_out) {
    std::copy(host.pageable_in.begin(), host.pageable_in.end(), pinned_in->data());
    std::fill_n(pinned_out->data(), n, std::numeric_limits<float>::quiet_NaN());
    host.pinned_in = std::move(*pinned_in);
    host.pinned_out = std::move(*pinned_out);
  } else {
    const std::string why = "pinned memory for the pipeline refused (" + pinned_out.message() +
                            "): its pinned runs use pageable memory and cannot overlap";
    report.pinned_unavailable =
        report.pinned_unavailable.empty() ? why : report.pinned_unavailable + "; " + why;
  }
  auto device_in = allocate_array<float>(device, n);
  if (!device_in) return device_in.error();
  auto device_out = allocate_array<float>(device, n);
  if (!device_out) return device_out.error();

  const auto chunks = lessons::split_chunks(n, p.chunks);
  if (p.rounds == 0) {
    auto rounds = balance_rounds(device, host, device_in->data(), device_out->data(),
                                 chunks.front().count, p.block);
    if (!rounds) return rounds.error();
    p.rounds = *rounds;
    report.notes.push_back("work = " + std::to_string(p.rounds) +
                           " multiply-adds per element: a chunk's kernel about as long as its "
                           "copy in");
  }

  for (std::uint32_t streams : lessons::measured_stream_counts(p.streams, p.chunks)) {
    auto run = run_pipeline(device, request, report, host, device_in->data(), device_out->data(),
                            streams, p.memory, p.schedule);
    if (!run) return run.error();
    report.pipelines.push_back(std::move(*run));
  }
  // The output of the selected memory's last run, against the CPU.
  const bool pinned_out_used = p.memory != HostMemory::kPageable && host.has_pinned() &&
                               !(device.is_gpu() && p.memory == HostMemory::kManaged);
  const std::span<const float> out = pinned_out_used
                                         ? std::span<const float>(host.pinned_out.data(), n)
                                         : std::span<const float>(host.pageable_out);
  report.check = lessons::check_transform(host.pageable_in, out, p.rounds);
  if (p.memory != HostMemory::kPageable) {
    auto run = run_pipeline(device, request, report, host, device_in->data(), device_out->data(),
                            p.streams, HostMemory::kPageable, lessons::Schedule::kDepthFirst);
    if (!run) return run.error();
    report.pageable_pipeline = std::move(*run);
  }
  device_in->reset();
  device_out->reset();

  if (cancel_requested(request.cancel)) return cancelled_error();
  TL_RETURN_IF_ERROR(sweep_batches(device, request, report));

  if (device.is_gpu()) {
#if defined(THREADLAB_HAVE_CUDA)
    // Well under the free memory: the input and the output, at most an eighth of it.
    auto now = device.memory_info();
    if (!now) return now.error();
    const std::uint64_t elements = std::min<std::uint64_t>(n, now->free_bytes / 8 / sizeof(float));
    auto managed = time_managed_kernel(elements, p.rounds, p.block, request.repeats);
    if (managed) {
      report.managed.available = true;
      report.managed.bytes = elements * sizeof(float);
      report.managed.first_touch = managed->first_touch;
      report.managed.prefetched = managed->prefetched;
      report.managed.concurrent_managed_access = managed->concurrent_managed_access;
      report.managed.faults =
          managed->concurrent_managed_access
              ? "the CUDA runtime counts no page faults for a program: the time the kernel loses "
                "without the prefetch is what they cost. Nsight Systems shows each one: nsys "
                "profile --cuda-um-gpu-page-faults=true --cuda-um-cpu-page-faults=true"
              : "this device cannot fault pages on demand (no concurrentManagedAccess): managed "
                "memory moves to the device whole at each launch, so there are no page faults to "
                "show";
    } else {
      report.managed.absent = "managed memory: " + managed.message();
    }
#endif
  } else {
    report.managed.absent =
        "the emulator has no managed memory and no page faults: its memory is all host memory";
  }
  return report;
}

Result<lessons::MovingDataCheck> trace_moving_data(Device& device,
                                                   const lessons::MovingDataParams& params,
                                                   TraceSink& sink, std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_moving_data(params));
  const std::uint64_t n = params.elements();
  // A traced pass needs rounds: "auto" is only resolved by a timed run, so it traces with one.
  const std::uint32_t rounds = params.rounds == 0 ? 1 : params.rounds;
  std::vector<float> in(n);
  lessons::fill_random(in, seed);
  std::vector<float> out = poisoned_floats(n);
  auto device_in = allocate_array<float>(device, n);
  if (!device_in) return device_in.error();
  auto device_out = allocate_array<float>(device, n);
  if (!device_out) return device_out.error();
  TL_RETURN_IF_ERROR(device.copy_to_device(device_in->data(), in.data(), n * sizeof(float)));
  TL_RETURN_IF_ERROR(device.copy_to_device(device_out->data(), out.data(), n * sizeof(float)));
  auto records = sink.acquire(device, n);
  if (!records) return records.error();
  const LaunchConfig config = chunk_config(n, params.block);
  Status launched = check_emulator_budget(device, config, true);
  if (launched) {
    launched = device.kernels().get<kernels::MovingDataKernels>().transform_traced(
        config, device_in->data(), device_out->data(), static_cast<int>(n),
        static_cast<int>(rounds), *records);
  }
  if (launched) launched = device.synchronize();
  // Publish even after a failed launch: the sink must give its buffer back.
  const Status published = sink.publish(device);
  if (!launched) return launched.error();
  TL_RETURN_IF_ERROR(published);
  TL_RETURN_IF_ERROR(device.copy_to_host(out.data(), device_out->data(), n * sizeof(float)));
  return lessons::check_transform(in, out, rounds);
}

LaunchConfig chunk_config(std::uint64_t count, std::uint32_t block) {
  return {{blocks_to_cover(count, block), 1, 1}, {block, 1, 1}};
}

}  // namespace tl::compute
