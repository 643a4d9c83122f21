// threadlab-emulator-bench: times lesson 4's naive and tiled matmul on the CPU emulator and prints
// the ratio. The tiled kernel calls __syncthreads() twice per tile, so its time beyond the naive
// one is almost all fiber switching: this is the figure that says whether barriers are cheap
// enough for a learner's reduction on a large hidden check (issue 17 asks for tiled ≤ 3× naive at
// 256³ on a 2-core machine). Then it times that reduction itself through the Lab's emulator path
// (app/lab/emulator): a learner's shared-memory tree and warp-shuffle sum of 2^20 + 7 floats,
// compiled by the system c++ (cold, then from the cache) and run. A benchmark, not a test: it
// asserts nothing about time.
//
//   threadlab-emulator-bench [SIZE] [REPEATS]     (defaults: 256, 7)
//   threadlab-emulator-bench --memory [REPEATS]    (default: 3)
//   threadlab-emulator-bench --fast-path [REPEATS] (default: 9)
//
// --memory times what recording memory accesses (issue 33) costs over the traced run it rides on,
// for the Lab's matrix-add solution at 1024 x 1024 (2^20 elements) and its tiled-matmul solution at
// 512^3: the exercise's own solution.cu, built with the Lab's prelude traced, then traced and
// recording (4 blocks, the default), and the per-line table made from the records.
//
// --fast-path times the emulator against one plain CPU thread on the same data in the same run
// (issue 39): lesson 1's vector add over 2^24 elements (its barrier-free kernel, the lesson's
// covering grid of 256-thread blocks) against the lesson's own single-thread loop, and lesson 6's
// vectorized sum of 2^24 floats (float4 grid-stride loop, warp shuffles, barriers: the fiber path,
// with the lesson's automatic grid) against one float accumulator walking the array. Rounds
// alternate reference and emulator so that the machine's load falls on both; the figure is the
// ratio of the medians' GB/s.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <time.h>
#include <unistd.h>

#include <filesystem>

#include "compute/device.hpp"
#include "core/launch_config.hpp"
#include "core/memory/memory_model.hpp"
#include "core/memory/warp_requests.hpp"
#include "core/result.hpp"
#include "kernels/emulator/grid_executor.hpp"
#include "kernels/kernel_registry.hpp"
#include "lab/emulator/learner_compiler.hpp"
#include "lab/emulator/learner_module.hpp"
#include "lessons/01_vector_add/kernels/vector_add_kernels.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "lessons/04_matmul/matmul_runner.hpp"
#include "lessons/06_reductions/reductions.hpp"

namespace {

constexpr int kTile = 16;

// Median wall time of `repeats` runs after one warm-up, in milliseconds; negative if a run failed.
double median_ms(int repeats, const std::function<tl::Status()>& run) {
  if (tl::Status warm = run(); !warm.is_ok()) {
    std::fprintf(stderr, "emulator-bench: %s\n", warm.message().c_str());
    return -1.0;
  }
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    if (tl::Status status = run(); !status.is_ok()) {
      std::fprintf(stderr, "emulator-bench: %s\n", status.message().c_str());
      return -1.0;
    }
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// A learner's reduction, as an exercise's solution would write it.
constexpr const char* kLearnerReduction = R"(
__global__ void reduce_sum(const float* x, float* total, int n) {
  __shared__ float partial[256];
  int t = threadIdx.x;
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) v += x[i];
  partial[t] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= 32; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t < 32) {
    v = partial[t];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (t == 0) atomicAdd(total, v);
  }
}
)";

// Compiles (cold, then cached) and runs the learner's reduction; prints what each step took.
int time_learner_reduction(int repeats) {
  namespace fs = std::filesystem;
  const fs::path cache =
      fs::temp_directory_path() / ("threadlab-emulator-bench-" + std::to_string(::getpid()));
  fs::remove_all(cache);
  const auto ms_since = [](std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  auto start = std::chrono::steady_clock::now();
  const tl::lab::LearnerCompileResult cold =
      tl::lab::compile_learner_kernel(kLearnerReduction, "reduce_sum", cache);
  const double cold_ms = ms_since(start);
  if (!cold) {
    std::fprintf(stderr, "emulator-bench: %s\n%s", cold.failure().message.c_str(),
                 cold.failure().diagnostics.c_str());
    fs::remove_all(cache);
    return 1;
  }
  start = std::chrono::steady_clock::now();
  const tl::lab::LearnerCompileResult cached =
      tl::lab::compile_learner_kernel(kLearnerReduction, "reduce_sum", cache);
  const double cached_ms = ms_since(start);
  start = std::chrono::steady_clock::now();
  auto module = tl::lab::EmulatedLearnerModule::load(cached.build().shared_object);
  const double load_ms = ms_since(start);
  if (!module) {
    std::fprintf(stderr, "emulator-bench: %s\n", module.message().c_str());
    fs::remove_all(cache);
    return 1;
  }
  const int n = (1 << 20) + 7;
  std::vector<float> x(static_cast<std::size_t>(n), 1.0f);
  float total = 0.0f;
  const float* px = x.data();
  float* ptotal = &total;
  int count = n;
  void* args[] = {&px, &ptotal, &count};
  const tl::Dim3 grid{(static_cast<std::uint32_t>(n) + 255) / 256, 1, 1};
  const double run_ms = median_ms(repeats, [&] {
    total = 0.0f;
    return module->launch(grid, {256, 1, 1}, 0, args);
  });
  fs::remove_all(cache);
  if (run_ms < 0) return 1;
  std::printf(
      "learner's reduction through the Lab's emulator path, 2^20 + 7 floats, %u blocks of 256:\n",
      grid.x);
  std::printf("  compile: %9.2f ms cold, %.2f ms from the cache; load: %.2f ms\n", cold_ms,
              cached_ms, load_ms);
  std::printf("  run:     %9.2f ms  (sum %.0f, expected %d)\n", run_ms, static_cast<double>(total),
              n);
  return total == static_cast<float>(n) ? 0 : 1;
}

// The host side of the Lab prelude's Matrix<T> (app/lab/prelude/threadlab_lab.cuh), as the Lab's
// emulator backend lays it out.
struct MatrixArgument {
  void* data;
  int rows;
  int cols;
  void* trace;
  void* fault;
  unsigned parameter;
};

std::string read_text(const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return {};
  std::string text;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
  std::fclose(f);
  return text;
}

struct Matrices {
  // Each array 256-byte aligned with a spare element past its end (the traced views' slot).
  explicit Matrices(int count, std::size_t elements) {
    for (int i = 0; i < count; ++i) {
      const std::size_t bytes = ((elements + 1) * 4 + 255) / 256 * 256;
      data.emplace_back(static_cast<float*>(std::aligned_alloc(256, bytes)), &std::free);
      std::fill(data.back().get(), data.back().get() + elements + 1, 1.0f);
      traces.emplace_back((elements + 1) * 4, 0u);  // 16-byte TraceRecords
    }
  }
  std::vector<std::unique_ptr<float, void (*)(void*)>> data;
  std::vector<std::vector<unsigned>> traces;
};

// Times one exercise solution traced, then traced and recording; prints the per-line table.
int time_memory_recording(const char* exercise, const char* kernel, tl::Dim3 grid, tl::Dim3 block,
                          const std::vector<std::pair<int, int>>& shapes,
                          const std::vector<int>& scalars, int repeats) {
  namespace fs = std::filesystem;
  const fs::path root = THREADLAB_SOURCE_DIR;
  const std::string source = read_text(root / "exercises" / exercise / "solution.cu");
  const std::string prelude = read_text(root / "app/lab/prelude/threadlab_lab.cuh");
  if (source.empty() || prelude.empty()) {
    std::fprintf(stderr, "emulator-bench: cannot read %s's solution or the Lab prelude\n",
                 exercise);
    return 1;
  }
  const fs::path cache =
      fs::temp_directory_path() / ("threadlab-emulator-bench-memory-" + std::to_string(::getpid()));
  fs::remove_all(cache);
  auto build = [&](bool record) -> std::optional<tl::lab::EmulatedLearnerModule> {
    tl::lab::LearnerCompileOptions options;
    options.preludes = {{"threadlab_lab.cuh", prelude}};
    options.defines = {"TL_LAB_TRACED"};
    options.record_memory = record;
    const auto compiled = tl::lab::compile_learner_kernel(source, kernel, cache, options);
    if (!compiled) {
      std::fprintf(stderr, "emulator-bench: %s\n%s", compiled.failure().message.c_str(),
                   compiled.failure().diagnostics.c_str());
      return std::nullopt;
    }
    auto module = tl::lab::EmulatedLearnerModule::load(compiled.build().shared_object);
    if (!module) {
      std::fprintf(stderr, "emulator-bench: %s\n", module.message().c_str());
      return std::nullopt;
    }
    return std::move(*module);
  };
  auto traced = build(false);
  auto recording = build(true);
  if (!traced || !recording) {
    fs::remove_all(cache);
    return 1;
  }
  std::size_t largest = 0;
  for (const auto& [r, c] : shapes) largest = std::max(largest, std::size_t(r) * c);
  Matrices m(static_cast<int>(shapes.size()), largest);
  std::vector<unsigned char> fault(256, 0);
  std::vector<MatrixArgument> matrices;
  tl::lab::EmulatedLearnerModule::MemoryRecordingOptions options;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const auto [rows, cols] = shapes[i];
    matrices.push_back(
        {m.data[i].get(), rows, cols, m.traces[i].data(), fault.data(), static_cast<unsigned>(i)});
    options.global.push_back(
        {reinterpret_cast<std::uint64_t>(m.data[i].get()), (std::uint64_t(rows) * cols + 1) * 4});
  }
  std::vector<int> ints = scalars;
  std::vector<void*> args;
  for (MatrixArgument& a : matrices) args.push_back(&a);
  for (int& v : ints) args.push_back(&v);

  const double traced_ms =
      median_ms(repeats, [&] { return traced->launch(grid, block, 0, args.data()); });
  tl::lab::EmulatedLearnerModule::MemoryRecording last;
  const double recording_ms = median_ms(repeats, [&]() -> tl::Status {
    auto r = recording->launch_recording_memory(grid, block, 0, args.data(), options);
    if (!r) return r.error();
    last = std::move(*r);
    return tl::Status::ok();
  });
  const auto start = std::chrono::steady_clock::now();
  const auto requests = tl::memory::group_warp_requests(last.records);
  const tl::memory::MemoryTable table = tl::memory::tabulate_by_line(
      requests, last.site_lines, last.recorded_blocks, last.grid_blocks);
  const double table_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  fs::remove_all(cache);
  if (traced_ms < 0 || recording_ms < 0) return 1;
  std::printf("%s (%s), grid %ux%u of %ux%u threads, median of %d:\n", exercise, kernel, grid.x,
              grid.y, block.x, block.y, repeats);
  std::printf("  traced:            %9.2f ms\n", traced_ms);
  std::printf("  traced, recording: %9.2f ms  (%.2fx; %llu of %llu blocks, %zu lane records)\n",
              recording_ms, recording_ms / traced_ms,
              static_cast<unsigned long long>(last.recorded_blocks),
              static_cast<unsigned long long>(last.grid_blocks), last.records.size());
  std::printf("  requests and table: %8.2f ms  (%zu warp requests)%s%s\n", table_ms,
              requests.size(), last.lines_note.empty() ? "" : "; ", last.lines_note.c_str());
  for (const tl::memory::LineTotals& row : table.rows) {
    const bool global = row.space == tl::memory::MemorySpace::kGlobal;
    std::printf("    line %3d %-6s %-5s %6llu requests  ", row.line, global ? "global" : "shared",
                row.kind == tl::memory::AccessKind::kLoad ? "load" : "store",
                static_cast<unsigned long long>(row.requests));
    if (global) {
      std::printf("%5.1f sectors/request (ideal %.1f)\n", row.sectors_per_request(),
                  row.ideal_sectors_per_request());
    } else {
      std::printf("%llu bank conflicts\n", static_cast<unsigned long long>(row.bank_conflicts()));
    }
  }
  return 0;
}

int time_memory_recordings(int repeats) {
  // 2^20 elements: 1024 x 1024, 16 x 16 blocks, as the Lab launches the exercise.
  int status =
      time_memory_recording("03_matrix_add", "matrix_add", {64, 64, 1}, {16, 16, 1},
                            {{1024, 1024}, {1024, 1024}, {1024, 1024}}, {1024, 1024}, repeats);
  status |= time_memory_recording("08_matmul_tiled", "matmul_tiled", {32, 32, 1}, {16, 16, 1},
                                  {{512, 512}, {512, 512}, {512, 512}}, {512, 512, 512}, repeats);
  return status;
}

// 256-byte aligned floats, as cudaMalloc gives them (the vectorized kernels take the float4 path).
using AlignedFloats = std::unique_ptr<float, void (*)(void*)>;
AlignedFloats aligned_floats(std::size_t count) {
  const std::size_t bytes = (count * sizeof(float) + 255) / 256 * 256;
  return {static_cast<float*>(std::aligned_alloc(256, bytes)), &std::free};
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// One row: the reference and the emulated kernel, alternating, `repeats` rounds after a warm-up
// of each. Returns false (after saying why) if the emulated launch fails.
struct PairTimes {
  double reference_ms = 0;
  double emulated_ms = 0;
  // The CPU time the emulated launch took on all its workers: on a machine that others load it
  // moves less than the wall time, and says what an A/B change of the executor did.
  double emulated_cpu_ms = 0;
};

double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}
std::optional<PairTimes> time_pair(int repeats, const std::function<void()>& reference,
                                   const std::function<tl::Status()>& emulated) {
  reference();
  if (tl::Status warm = emulated(); !warm.is_ok()) {
    std::fprintf(stderr, "emulator-bench: %s\n", warm.message().c_str());
    return std::nullopt;
  }
  std::vector<double> ref, emu, emu_cpu;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    reference();
    ref.push_back(ms_since(start));
    const double cpu_start = process_cpu_ms();
    start = std::chrono::steady_clock::now();
    if (tl::Status status = emulated(); !status.is_ok()) {
      std::fprintf(stderr, "emulator-bench: %s\n", status.message().c_str());
      return std::nullopt;
    }
    emu.push_back(ms_since(start));
    emu_cpu.push_back(process_cpu_ms() - cpu_start);
  }
  return PairTimes{median(ref), median(emu), median(emu_cpu)};
}

void print_pair(const char* name, const PairTimes& t, double bytes) {
  const double ref_gbs = bytes / (t.reference_ms * 1e6);
  const double emu_gbs = bytes / (t.emulated_ms * 1e6);
  std::printf(
      "  %-16s one CPU thread %8.2f ms %6.2f GB/s | emulated %8.2f ms %6.2f GB/s | "
      "ratio %.2f | emulated CPU time %7.2f ms\n",
      name, t.reference_ms, ref_gbs, t.emulated_ms, emu_gbs, emu_gbs / ref_gbs, t.emulated_cpu_ms);
}

int time_fast_path(int repeats) {
  constexpr std::size_t n = std::size_t{1} << 24;
  auto device = tl::compute::make_emulator_device();
  AlignedFloats a = aligned_floats(n), b = aligned_floats(n), c = aligned_floats(n);
  for (std::size_t i = 0; i < n; ++i) {
    a.get()[i] = static_cast<float>(i % 1000) * 0.5f;
    b.get()[i] = static_cast<float>(i % 777) * 0.25f;
    c.get()[i] = 0.0f;
  }
  const std::span<const float> as(a.get(), n), bs(b.get(), n);
  const std::span<float> cs(c.get(), n);
  std::vector<float> expected(n);
  tl::lessons::vector_add_reference(as, bs, expected);

  const auto& add = device->kernels().get<tl::kernels::VectorAddKernels>();
  const tl::LaunchConfig add_config = tl::lessons::covering_config(n, 256);
  const auto add_times = time_pair(
      repeats, [&] { tl::lessons::vector_add_reference(as, bs, cs); },
      [&] { return add.add(add_config, a.get(), b.get(), c.get(), static_cast<int>(n)); });
  if (!add_times) return 1;
  if (!std::equal(expected.begin(), expected.end(), c.get())) {
    std::fprintf(stderr, "emulator-bench: the emulated vector add differs from the loop\n");
    return 1;
  }

  const auto& reductions = device->kernels().get<tl::kernels::ReductionKernels>();
  const tl::LaunchConfig sum_config =
      tl::lessons::sum_config(tl::kernels::SumRung::kVectorized, n, 256, 0);
  AlignedFloats block_sums = aligned_floats(sum_config.grid.x);
  float out = 0.0f;
  unsigned blocks_done = 0;
  const tl::kernels::SumOutputs outputs{&out, block_sums.get(), &blocks_done};
  volatile float sink = 0.0f;  // keeps the reference sum from being optimised away
  const auto sum_times = time_pair(
      repeats, [&] { sink = tl::lessons::sequential_float_sum(as); },
      [&] {
        return reductions.sum(tl::kernels::SumRung::kVectorized, sum_config, a.get(),
                              static_cast<int>(n), outputs);
      });
  if (!sum_times) return 1;
  const double exact = tl::lessons::exact_sum(as);
  const double bound = tl::lessons::sum_error_bound(
      tl::lessons::sum_depth(tl::kernels::SumRung::kVectorized, n, sum_config),
      tl::lessons::abs_sum(as));
  if (std::abs(static_cast<double>(out) - exact) > bound) {
    std::fprintf(stderr,
                 "emulator-bench: the emulated sum %.9g is off the exact %.9g by more "
                 "than %.3g\n",
                 static_cast<double>(out), exact, bound);
    return 1;
  }

  char host[256] = "unknown";
  ::gethostname(host, sizeof host);
  double load[3] = {0, 0, 0};
  std::FILE* loadavg = std::fopen("/proc/loadavg", "r");
  if (loadavg != nullptr) {
    if (std::fscanf(loadavg, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
    std::fclose(loadavg);
  }
  std::printf(
      "emulator fast path, 2^24 elements, %u workers, %u hardware threads, median of %d "
      "alternating rounds (load average %.2f %.2f %.2f at the end)\n",
      tl::emu::worker_count(), std::thread::hardware_concurrency(), repeats, load[0], load[1],
      load[2]);
  print_pair("vector add", *add_times, 3.0 * sizeof(float) * n);
  std::printf("    (%u blocks of %u, barrier-free; result equal to the loop's)\n",
              add_config.grid.x, add_config.block.x);
  print_pair("vectorized sum", *sum_times, 1.0 * sizeof(float) * n);
  std::printf("    (%u blocks of %u, fibers; sum %.9g, exact %.9g)\n", sum_config.grid.x,
              sum_config.block.x, static_cast<double>(out), exact);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--fast-path") {
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 9;
    return time_fast_path(repeats > 0 ? repeats : 9);
  }
  if (argc > 1 && std::string(argv[1]) == "--memory") {
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
    return time_memory_recordings(repeats > 0 ? repeats : 3);
  }
  const int size = argc > 1 ? std::atoi(argv[1]) : 256;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 7;
  if (size <= 0 || repeats <= 0) {
    std::fprintf(stderr, "usage: threadlab-emulator-bench [SIZE>0] [REPEATS>0]\n");
    return 2;
  }
  // Through lesson 4's runner on the emulator, as the app times them: the same kernels, the same
  // covering grids, each checked against the CPU reference.
  auto device = tl::compute::make_emulator_device();
  tl::compute::MatmulRequest request;
  const auto side = static_cast<std::uint32_t>(size);
  request.size = {side, side, side};
  request.variants = {{tl::lessons::MatmulKernel::kNaive, kTile, {kTile, kTile, 1}},
                      {tl::lessons::MatmulKernel::kTiled, kTile, {kTile, kTile, 1}}};
  request.cublas = false;
  request.time_cpu = false;
  request.warmup = 1;
  request.repeats = repeats;
  auto report = tl::compute::run_matmul(*device, request);
  if (!report) {
    std::fprintf(stderr, "emulator-bench: %s\n", report.message().c_str());
    return 1;
  }
  const tl::compute::MatmulTiming& naive = report->kernels.at(0);
  const tl::compute::MatmulTiming& tiled = report->kernels.at(1);
  for (const tl::compute::MatmulTiming* row : {&naive, &tiled}) {
    if (!row->ran() || !row->check || !row->check->passed) {
      std::fprintf(stderr, "emulator-bench: %s: %s\n", row->name.c_str(),
                   !row->ran()  ? row->skipped.c_str()
                   : row->check ? row->check->describe().c_str()
                                : "not checked");
      return 1;
    }
  }
  const auto blocks = static_cast<std::uint32_t>((size + kTile - 1) / kTile);
  const std::size_t barriers_per_block = 2 * static_cast<std::size_t>((size + kTile - 1) / kTile);
  std::printf("emulated matmul %d^3, %ux%u blocks of %dx%d threads, %u workers, median of %d\n",
              size, blocks, blocks, kTile, kTile, tl::emu::worker_count(), repeats);
  std::printf("  naive: %9.2f ms\n", naive.time.median_ms);
  std::printf("  tiled: %9.2f ms  (%zu barriers per block)\n", tiled.time.median_ms,
              barriers_per_block);
  std::printf("  tiled / naive: %.2fx   (both checked against the CPU reference)\n",
              tiled.time.median_ms / naive.time.median_ms);
  return time_learner_reduction(repeats);
}
