#include "lessons/07_moving_data/moving_data_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <utility>

#include "compute/cuda/cuda_status.hpp"
#include "kernels/kernel_registry.hpp"
#include "lessons/07_moving_data/kernels/moving_data_kernels.hpp"
#include "lessons/07_moving_data/moving_data_runner.hpp"

namespace tl::compute {
namespace {

// Streams and events for one pipeline run, destroyed whatever happens.
class StreamsAndEvents {
 public:
  ~StreamsAndEvents() {
    // After an error part of the pipeline may still be queued (on a default stream too): let it
    // finish before the caller frees the buffers it reads and writes.
    cudaDeviceSynchronize();
    for (cudaEvent_t e : events) cudaEventDestroy(e);
    for (cudaStream_t s : streams) cudaStreamDestroy(s);
    if (scratch != nullptr) cudaFree(scratch);
  }
  Status create(std::uint32_t stream_count, std::size_t event_count, bool blocking) {
    for (std::uint32_t i = 0; i < stream_count; ++i) {
      cudaStream_t s = nullptr;
      // Non-blocking unless the experiment is about blocking streams: the legacy default stream,
      // which other code may use, must not serialise these streams with each other.
      if (blocking) {
        TL_RETURN_IF_ERROR(cuda_status(cudaStreamCreate(&s), "cudaStreamCreate"));
      } else {
        TL_RETURN_IF_ERROR(cuda_status(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                                       "cudaStreamCreateWithFlags(cudaStreamNonBlocking)"));
      }
      streams.push_back(s);
    }
    for (std::size_t i = 0; i < event_count; ++i) {
      cudaEvent_t e = nullptr;
      TL_RETURN_IF_ERROR(cuda_status(cudaEventCreate(&e), "cudaEventCreate"));
      events.push_back(e);
    }
    return Status::ok();
  }
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> events;
  float* scratch = nullptr;  // the default-stream kernel's input and output
};

// The default-stream kernel's size: one block, small beside a chunk's kernel.
constexpr int kMarkerElements = 256;

cudaMemLocation on_device(int device) {
  cudaMemLocation location{};
  location.type = cudaMemLocationTypeDevice;
  location.id = device;
  return location;
}

cudaMemLocation on_host() {
  cudaMemLocation location{};
  location.type = cudaMemLocationTypeHost;
  location.id = 0;
  return location;
}

}  // namespace

Result<std::vector<lessons::TimelineOp>> run_gpu_pipeline(
    const GpuPipelineBuffers& b, std::span<const lessons::ChunkRange> chunks, std::uint32_t streams,
    lessons::HostMemory memory, std::uint32_t rounds, std::uint32_t block,
    lessons::Schedule schedule) {
  using lessons::Queue;
  const auto& kernels = kernels::gpu_kernels().get<kernels::MovingDataKernels>();
  int device = 0;
  TL_RETURN_IF_ERROR(cuda_status(cudaGetDevice(&device), "cudaGetDevice"));
  // The same plan the emulator's model schedules: the operations in issue order, their streams
  // and what they wait for.
  const std::vector<lessons::PlannedOp> plan =
      lessons::plan_pipeline(chunks.size(), streams, schedule);
  StreamsAndEvents se;
  // Two events per operation (before, after) and the origin; the copy stream is created after the
  // pipeline's streams, as index `streams`.
  const bool copy_stream = schedule == lessons::Schedule::kCopyStream;
  TL_RETURN_IF_ERROR(se.create(streams + (copy_stream ? 1 : 0), plan.size() * 2 + 1,
                               lessons::creates_blocking_streams(schedule)));
  if (lessons::has_default_stream_kernel(schedule)) {
    void* scratch = nullptr;
    TL_RETURN_IF_ERROR(cuda_status(cudaMalloc(&scratch, 2 * kMarkerElements * sizeof(float)),
                                   "cudaMalloc of the default-stream kernel's buffer"));
    se.scratch = static_cast<float*>(scratch);
    TL_RETURN_IF_ERROR(
        cuda_status(cudaMemset(se.scratch, 0, 2 * kMarkerElements * sizeof(float)), "cudaMemset"));
  }
  TL_RETURN_IF_ERROR(cuda_status(cudaDeviceSynchronize(), "cudaDeviceSynchronize"));
  cudaEvent_t origin = se.events.back();
  TL_RETURN_IF_ERROR(cuda_status(cudaEventRecord(origin, se.streams[0]), "cudaEventRecord"));
  const bool managed = memory == lessons::HostMemory::kManaged;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const lessons::PlannedOp& op = plan[i];
    // The default streams by their explicit handles: this file is compiled without
    // --default-stream=per-thread, and naming the handle says which one is meant either way.
    cudaStream_t s = op.queue == Queue::kLegacyDefault      ? cudaStreamLegacy
                     : op.queue == Queue::kPerThreadDefault ? cudaStreamPerThread
                                                            : se.streams[op.stream];
    cudaEvent_t* e = &se.events[i * 2];
    if (op.wait_for >= 0) {
      // The end event of the operation waited for (its chunk's copy in, on the copy stream).
      TL_RETURN_IF_ERROR(cuda_status(
          cudaStreamWaitEvent(s, se.events[static_cast<std::size_t>(op.wait_for) * 2 + 1], 0),
          "cudaStreamWaitEvent"));
    }
    TL_RETURN_IF_ERROR(cuda_status(cudaEventRecord(e[0], s), "cudaEventRecord"));
    if (op.chunk == lessons::kNoChunk) {
      TL_RETURN_IF_ERROR(kernels.transform_on_stream(s, chunk_config(kMarkerElements, block),
                                                     se.scratch, se.scratch + kMarkerElements,
                                                     kMarkerElements, static_cast<int>(rounds)));
    } else {
      const std::size_t offset = chunks[op.chunk].begin;
      const std::size_t bytes = chunks[op.chunk].count * sizeof(float);
      switch (op.stage) {
        case lessons::Stage::kCopyIn:
          if (managed) {
            TL_RETURN_IF_ERROR(cuda_status(
                cudaMemPrefetchAsync(b.device_in + offset, bytes, on_device(device), 0, s),
                "cudaMemPrefetchAsync to the device"));
          } else {
            TL_RETURN_IF_ERROR(cuda_status(cudaMemcpyAsync(b.device_in + offset, b.host_in + offset,
                                                           bytes, cudaMemcpyHostToDevice, s),
                                           "cudaMemcpyAsync host to device"));
          }
          break;
        case lessons::Stage::kKernel:
          TL_RETURN_IF_ERROR(kernels.transform_on_stream(
              s, chunk_config(chunks[op.chunk].count, block), b.device_in + offset,
              b.device_out + offset, static_cast<int>(chunks[op.chunk].count),
              static_cast<int>(rounds)));
          break;
        case lessons::Stage::kCopyOut:
          if (managed) {
            TL_RETURN_IF_ERROR(
                cuda_status(cudaMemPrefetchAsync(b.device_out + offset, bytes, on_host(), 0, s),
                            "cudaMemPrefetchAsync to the host"));
          } else {
            TL_RETURN_IF_ERROR(
                cuda_status(cudaMemcpyAsync(b.host_out + offset, b.device_out + offset, bytes,
                                            cudaMemcpyDeviceToHost, s),
                            "cudaMemcpyAsync device to host"));
          }
          break;
      }
    }
    TL_RETURN_IF_ERROR(cuda_status(cudaEventRecord(e[1], s), "cudaEventRecord"));
  }
  TL_RETURN_IF_ERROR(cuda_status(cudaDeviceSynchronize(), "the pipeline"));

  std::vector<lessons::TimelineOp> ops;
  auto since_origin = [&](cudaEvent_t e) -> Result<double> {
    float ms = 0;
    TL_RETURN_IF_ERROR(cuda_status(cudaEventElapsedTime(&ms, origin, e), "cudaEventElapsedTime"));
    return static_cast<double>(ms);
  };
  for (std::size_t i = 0; i < plan.size(); ++i) {
    auto start = since_origin(se.events[i * 2]);
    if (!start) return start.error();
    auto end = since_origin(se.events[i * 2 + 1]);
    if (!end) return end.error();
    const lessons::PlannedOp& op = plan[i];
    ops.push_back(
        {op.chunk, op.stream, op.stage, *start, *end, op.queue, static_cast<std::uint32_t>(i)});
  }
  // The origin was recorded on stream 0 first, but another stream's first event may be stamped a
  // hair before it: start the timeline at its earliest event.
  double first = 0;
  for (const auto& op : ops) first = std::min(first, op.start_ms);
  for (auto& op : ops) {
    op.start_ms -= first;
    op.end_ms -= first;
  }
  return ops;
}

Result<std::string> gpu_pci_bus_id() {
  int device = 0;
  TL_RETURN_IF_ERROR(cuda_status(cudaGetDevice(&device), "cudaGetDevice"));
  char id[64] = {};
  TL_RETURN_IF_ERROR(
      cuda_status(cudaDeviceGetPCIBusId(id, sizeof(id), device), "cudaDeviceGetPCIBusId"));
  return std::string(id);
}

Result<int> gpu_copy_engines() {
  int device = 0;
  TL_RETURN_IF_ERROR(cuda_status(cudaGetDevice(&device), "cudaGetDevice"));
  int engines = 0;
  TL_RETURN_IF_ERROR(
      cuda_status(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, device),
                  "cudaDeviceGetAttribute(asyncEngineCount)"));
  return engines;
}

ManagedBuffer::ManagedBuffer(ManagedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)) {}
ManagedBuffer& ManagedBuffer::operator=(ManagedBuffer&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) cudaFree(data_);
    data_ = std::exchange(other.data_, nullptr);
  }
  return *this;
}
ManagedBuffer::~ManagedBuffer() {
  if (data_ != nullptr) cudaFree(data_);
}

Result<ManagedBuffer> ManagedBuffer::allocate(std::uint64_t floats) {
  void* p = nullptr;
  const cudaError_t error =
      cudaMallocManaged(&p, std::max<std::uint64_t>(1, floats) * sizeof(float));
  if (error != cudaSuccess) {
    cudaGetLastError();  // an allocation refused is not sticky
    return cuda_status(error, "cudaMallocManaged of " + std::to_string(floats * 4) + " bytes")
        .error();
  }
  ManagedBuffer buffer;
  buffer.data_ = static_cast<float*>(p);
  return buffer;
}

Result<ManagedTimes> time_managed_kernel(std::uint64_t elements, std::uint32_t rounds,
                                         std::uint32_t block, int repeats) {
  int device = 0;
  TL_RETURN_IF_ERROR(cuda_status(cudaGetDevice(&device), "cudaGetDevice"));
  ManagedTimes times;
  int concurrent = 0;
  TL_RETURN_IF_ERROR(
      cuda_status(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device),
                  "cudaDeviceGetAttribute(concurrentManagedAccess)"));
  times.concurrent_managed_access = concurrent != 0;
  auto in = ManagedBuffer::allocate(elements);
  if (!in) return in.error();
  auto out = ManagedBuffer::allocate(elements);
  if (!out) return out.error();
  const auto& kernels = kernels::gpu_kernels().get<kernels::MovingDataKernels>();
  const LaunchConfig config = chunk_config(elements, block);
  cudaEvent_t start = nullptr, stop = nullptr;
  TL_RETURN_IF_ERROR(cuda_status(cudaEventCreate(&start), "cudaEventCreate"));
  TL_RETURN_IF_ERROR(cuda_status(cudaEventCreate(&stop), "cudaEventCreate"));
  struct Events {
    cudaEvent_t a, b;
    ~Events() {
      cudaEventDestroy(a);
      cudaEventDestroy(b);
    }
  } owned{start, stop};

  // One timed kernel over managed memory, after the host has written every page of the input and
  // read every page of the output, so both live on the host; with `prefetch`, both are moved to
  // the device first (outside the timed part, as a data loader does ahead of time).
  auto once = [&](bool prefetch) -> Result<double> {
    float* x = in->data();
    for (std::uint64_t i = 0; i < elements; ++i) x[i] = static_cast<float>(i % 1024) / 1024.0f;
    volatile float sink = 0;
    for (std::uint64_t i = 0; i < elements; i += 1024) sink = sink + out->data()[i];
    if (prefetch) {
      const std::size_t bytes = elements * sizeof(float);
      TL_RETURN_IF_ERROR(
          cuda_status(cudaMemPrefetchAsync(in->data(), bytes, on_device(device), 0, nullptr),
                      "cudaMemPrefetchAsync to the device"));
      TL_RETURN_IF_ERROR(
          cuda_status(cudaMemPrefetchAsync(out->data(), bytes, on_device(device), 0, nullptr),
                      "cudaMemPrefetchAsync to the device"));
      TL_RETURN_IF_ERROR(cuda_status(cudaDeviceSynchronize(), "the prefetch"));
    }
    TL_RETURN_IF_ERROR(cuda_status(cudaEventRecord(start, nullptr), "cudaEventRecord"));
    TL_RETURN_IF_ERROR(kernels.transform_on_stream(nullptr, config, in->data(), out->data(),
                                                   static_cast<int>(elements),
                                                   static_cast<int>(rounds)));
    TL_RETURN_IF_ERROR(cuda_status(cudaEventRecord(stop, nullptr), "cudaEventRecord"));
    TL_RETURN_IF_ERROR(cuda_status(cudaEventSynchronize(stop), "the kernel over managed memory"));
    float ms = 0;
    TL_RETURN_IF_ERROR(cuda_status(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime"));
    return static_cast<double>(ms);
  };
  for (bool prefetch : {false, true}) {
    std::vector<double> samples;
    for (int r = 0; r < repeats + 1; ++r) {
      auto ms = once(prefetch);
      if (!ms) return ms.error();
      if (r > 0) samples.push_back(*ms);  // the first is a warm-up
    }
    (prefetch ? times.prefetched : times.first_touch) = summarize_timings(samples);
  }
  return times;
}

}  // namespace tl::compute
