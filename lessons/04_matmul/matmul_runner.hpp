#pragma once
// Runs lesson 4 on a device: inputs, copies, the timed kernels (naive and tiled, and cuBLAS on a
// GPU), the CPU references, the checks, and the traced launch. The UI, the CLI and the tests all go
// through here.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/kernel_counters.hpp"
#include "core/stats.hpp"
#include "core/trace.hpp"
#include "lessons/04_matmul/matmul.hpp"
#include "lessons/04_matmul/matmul_tensor.hpp"

namespace tl::compute {

struct MatmulRequest {
  lessons::MatmulSize size;
  // The kernels to time, in this order; the same kernel may appear with several tiles or blocks.
  std::vector<lessons::MatmulVariant> variants = {{lessons::MatmulKernel::kNaive, 16, {16, 16, 1}},
                                                  {lessons::MatmulKernel::kTiled, 16, {16, 16, 1}}};
  // nullopt: each kernel gets the grid that covers C with its block. Set: every kernel launches
  // this grid (with its own block), e.g. to show what a grid that is too small leaves unwritten.
  std::optional<Dim3> grid;
  bool cublas = true;    // also time cuBLAS SGEMM (on a GPU; the emulator row says why not)
  bool check = true;     // compare every result with a reference
  bool time_cpu = true;  // also time the CPU references that fit kCpuReferenceBudgetSeconds
  int warmup = 1;        // untimed runs before the timed ones (first-launch and clock ramp costs)
  int repeats = 5;
  std::uint32_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;  // checked between measurements
};

// One row of the timing table.
struct MatmulTiming {
  // "naive, block 16×16", "tiled, TILE = 16", "cuBLAS SGEMM", "CPU naive, 1 thread",
  // "CPU cache-blocked, 8 threads".
  std::string name;
  std::optional<LaunchConfig> config;               // for the lesson's kernels
  TimingStats time;                                 // empty when skipped
  double gflops = 0;                                // 2·M·N·K at the median time
  std::string skipped;                              // why it did not run; empty when it ran
  std::optional<lessons::MatmulCheckResult> check;  // absent when not checked
  // What the check compared against when it is not the report's check_reference: a tensor rung's
  // own reference, the product of its rounded inputs.
  std::string check_reference;
  [[nodiscard]] bool ran() const { return skipped.empty(); }
};

// cuBLAS at a tensor rung's precision (cublasGemmEx), timed when such a rung is requested.
struct MatmulLibraryTiming {
  lessons::MatmulInput input = lessons::MatmulInput::kFp16;
  MatmulTiming timing;
};

struct MatmulReport {
  bool on_gpu = false;
  lessons::MatmulSize size;
  std::vector<MatmulTiming> kernels;  // one per requested variant, in the same order
  MatmulTiming cublas;                // skipped on the emulator or when not requested
  // cuBLAS at the precision of each tensor rung requested: FP16, BF16, TF32, in that order.
  std::vector<MatmulLibraryTiming> cublas_tensor;
  MatmulTiming cpu_naive;  // skipped when too slow or not requested
  MatmulTiming cpu_blocked;
  TimingStats host_to_device;  // A and B
  TimingStats device_to_host;  // C
  // What the checks compared against: "CPU cache-blocked reference" or "cuBLAS SGEMM" (when the CPU
  // would be too slow), or why nothing was checked.
  std::string check_reference;
};

// Allocates, uploads, launches and times. Invalid sizes, tiles or block shapes, launches the
// emulator would take too long for (ErrorKind::kTooSlow) and CUDA's launch errors come back as
// errors carrying the reason; the device stays usable unless the error is sticky.
Result<MatmulReport> run_matmul(Device& device, const MatmulRequest& request);

// Hardware counters for each of `variants` (launched as run_matmul launches them, on the same
// inputs), one launch each through Device::count_kernel, apart from any timing.
struct MatmulCountedKernel {
  lessons::MatmulVariant variant;
  KernelCounters counters;
};
Result<std::vector<MatmulCountedKernel>> count_matmul(
    Device& device, const lessons::MatmulSize& size,
    const std::vector<lessons::MatmulVariant>& variants, const std::optional<Dim3>& grid,
    std::uint32_t seed = 1);

struct MatmulTraceReport {
  DataShape shape;      // C: M rows × N columns, element = row * N + col
  LaunchConfig config;  // the configuration that ran
  std::optional<lessons::MatmulCheckResult> check;
  std::string check_reference;  // as in MatmulReport
};

// One traced launch of `variant` with `config`, writing M·N records into `sink`; the same inputs as
// run_matmul with the same seed. A tiled variant needs config.block = tile×tile.
Result<MatmulTraceReport> trace_matmul(Device& device, const lessons::MatmulSize& size,
                                       const lessons::MatmulVariant& variant,
                                       const LaunchConfig& config, TraceSink& sink,
                                       std::uint32_t seed = 1);

// The configuration a request launches `variant` with: its covering grid, or `grid` when set.
[[nodiscard]] LaunchConfig matmul_launch_config(const lessons::MatmulSize& size,
                                                const lessons::MatmulVariant& variant,
                                                const std::optional<Dim3>& grid);

}  // namespace tl::compute
