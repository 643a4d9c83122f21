// Lesson 4's kernels compiled by nvcc, launched as lessons/04_matmul/kernels/matmul_launch.inl
// describes.

#include "kernels/gpu/gpu_launch.cuh"
#include "kernels/kernel_registry.hpp"
#include "lessons/04_matmul/kernels/matmul_kernels.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace tl::gpu {
#include "kernels/matmul_tile_io.cuh"
#include "lessons/04_matmul/kernels/matmul.cuh"
#include "lessons/04_matmul/kernels/matmul_pipelined.cuh"
#include "lessons/04_matmul/kernels/matmul_regtile_1d.cuh"
#include "lessons/04_matmul/kernels/matmul_regtile_2d.cuh"
#include "lessons/04_matmul/kernels/matmul_vectorized.cuh"
#include "lessons/04_matmul/kernels/matmul_warptile.cuh"
// After the kernels: their description, which names them.
#include "lessons/04_matmul/kernels/matmul_launch.inl"

// Compile experiments: kernels built only for the Compiled tab to show beside the rung they vary
// (never launched, so no description names them).
template __global__ void matmul_regtile_2d_four_blocks<Untraced>(const float*, const float*, float*,
                                                                 int, int, int, Untraced);

// ---------------------------------------------------------------------------------------------
// The pipelined rung's shapes, and autotuning among them
// (lessons/04_matmul/kernels/matmul_kernels.hpp says what it promises). Why measured once per
// process rather than cached in a file: the choice depends on the device, its driver and clocks,
// and which one wins is a matter of a few percent; a file would need keys for all of them and could
// go stale, while the measurement costs about 20 launches of the first large product (some 60 ms at
// 4096³ on an H200), once.
namespace {

struct PipelinedChoice {
  const char* name;
  Status (*launch)(const LaunchConfig& config, const float* a, const float* b, float* c, int m,
                   int n, int k);
};

// A shape above the 48 KiB of shared memory every kernel may have must opt in first (once per
// process: with several GPUs, one that was not current then refuses the shape, and tuning skips
// it).
template <class Shape>
Status launch_pipelined_shape(const LaunchConfig& config, const float* a, const float* b, float* c,
                              int m, int n, int k) {
  if constexpr (Shape::SHARED_BYTES > 48 * 1024) {
    static const cudaError_t opted = [] {
      cudaError_t e =
          cudaFuncSetAttribute(matmul_pipelined<Shape, true, tl::Untraced>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, Shape::SHARED_BYTES);
      if (e == cudaSuccess) {
        e = cudaFuncSetAttribute(matmul_pipelined<Shape, false, tl::Untraced>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, Shape::SHARED_BYTES);
      }
      return e;
    }();
    if (opted != cudaSuccess) {
      return Error{
          ErrorKind::kCudaError,
          std::string("matmul_pipelined needs ") + std::to_string(Shape::SHARED_BYTES) +
              " bytes of shared memory, which this device refused: " + cudaGetErrorString(opted)};
    }
  }
  return launch_pipelined<Shape, tl::Untraced>(config, a, b, c, m, n, k);
}

template <class Shape>
constexpr PipelinedChoice choice(const char* name) {
  return {name, &launch_pipelined_shape<Shape>};
}

// The lesson's shape first: it is what smaller launches and the emulator use.
constexpr PipelinedChoice kPipelinedChoices[] = {
    choice<MatmulPipelined>("BK = 16, 2 stages"),
    choice<PipelinedShape<8, 3>>("BK = 8, 3 stages"),
    choice<PipelinedShape<8, 4>>("BK = 8, 4 stages"),
    choice<PipelinedShape<16, 3>>("BK = 16, 3 stages"),
    choice<PipelinedShape<32, 2>>("BK = 32, 2 stages"),
};
constexpr int kPipelinedChoiceCount = static_cast<int>(std::size(kPipelinedChoices));

struct PipelinedTuning {
  std::mutex mutex;
  std::vector<int> chosen;  // per device ordinal; -1: not tuned yet
  std::vector<std::string> report;
};
PipelinedTuning& pipelined_tuning() {
  static PipelinedTuning tuning;
  return tuning;
}

// Each shape: one launch to warm up, then the best of 3 timed with events on the launch's stream.
Result<int> tune_pipelined(const LaunchConfig& config, const float* a, const float* b, float* c,
                           int m, int n, int k, std::string& report) {
  cudaEvent_t start = nullptr, stop = nullptr;
  if (cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) {
    if (start != nullptr) cudaEventDestroy(start);
    return Error{ErrorKind::kCudaError, "tuning the pipelined rung: cudaEventCreate failed"};
  }
  int best = 0;
  float best_ms = 0;
  report = "tuned at " + std::to_string(m) + "×" + std::to_string(n) + "×" + std::to_string(k) +
           ", best of 3:";
  Status failed = Status::ok();
  for (int i = 0; i < kPipelinedChoiceCount && failed; ++i) {
    const PipelinedChoice& shape = kPipelinedChoices[i];
    Status launched = shape.launch(config, a, b, c, m, n, k);
    if (!launched) {  // a shape this device cannot run is left out, and the report says so
      report += std::string(" ") + shape.name + " refused;";
      continue;
    }
    float shape_ms = 0;
    for (int r = 0; r < 3 && failed; ++r) {
      cudaEventRecord(start);
      failed = shape.launch(config, a, b, c, m, n, k);
      cudaEventRecord(stop);
      if (cudaEventSynchronize(stop) != cudaSuccess) {
        failed = kernels::launch_status("matmul_pipelined", config);
        if (failed) failed = Error{ErrorKind::kCudaError, "tuning the pipelined rung failed"};
      }
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      shape_ms = r == 0 ? ms : std::min(shape_ms, ms);
    }
    char line[96];
    std::snprintf(line, sizeof line, " %s %.3f ms;", shape.name, shape_ms);
    report += line;
    if (i == 0 || shape_ms < best_ms) best = i, best_ms = shape_ms;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (!failed) return failed.error();
  return best;
}

// The timed launch of the ladder's rungs: the pipelined rung in its tuned shape, the others as the
// description says.
Status block_tiled_gpu(const LaunchConfig& config, kernels::MatmulKernel kernel, const float* a,
                       const float* b, float* c, int m, int n, int k) {
  if (kernel != kernels::MatmulKernel::kPipelined) {
    return launch_block_tiled<tl::Untraced>(config, kernel, a, b, c, m, n, k);
  }
  TL_RETURN_IF_ERROR(kernels::check_block_tile_launch(kernel, config));
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) device = 0;
  PipelinedTuning& tuning = pipelined_tuning();
  std::lock_guard lock(tuning.mutex);
  if (static_cast<int>(tuning.chosen.size()) <= device) {
    tuning.chosen.resize(device + 1, -1);
    tuning.report.resize(device + 1);
  }
  int& chosen = tuning.chosen[device];
  const int side = std::min({m, n, k});
  if (chosen < 0 && side >= kernels::kPipelinedTuneMinSide) {
    auto tuned = tune_pipelined(config, a, b, c, m, n, k, tuning.report[device]);
    if (!tuned) return tuned.error();
    chosen = *tuned;
  }
  return kPipelinedChoices[std::max(chosen, 0)].launch(config, a, b, c, m, n, k);
}

}  // namespace
}  // namespace tl::gpu

namespace tl::kernels {
namespace registered {
KernelSetEntry matmul_gpu();  // listed in the generated GPU registry
}

int matmul_pipelined_shape_count() {
  return gpu::kPipelinedChoiceCount;
}
std::string matmul_pipelined_shape_name(int index) {
  if (index < 0 || index >= gpu::kPipelinedChoiceCount) return "?";
  return gpu::kPipelinedChoices[index].name;
}
Status matmul_pipelined_shape_gpu(int index, const LaunchConfig& config, const float* a,
                                  const float* b, float* c, int m, int n, int k) {
  if (index < 0 || index >= gpu::kPipelinedChoiceCount) {
    return invalid_argument("the pipelined rung has " + std::to_string(gpu::kPipelinedChoiceCount) +
                            " shapes, not shape " + std::to_string(index));
  }
  TL_RETURN_IF_ERROR(check_block_tile_launch(MatmulKernel::kPipelined, config));
  return gpu::kPipelinedChoices[index].launch(config, a, b, c, m, n, k);
}
std::string matmul_pipelined_tuned_gpu() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return {};
  gpu::PipelinedTuning& tuning = gpu::pipelined_tuning();
  std::lock_guard lock(tuning.mutex);
  if (device >= static_cast<int>(tuning.chosen.size()) || tuning.chosen[device] < 0) return {};
  return std::string(gpu::kPipelinedChoices[tuning.chosen[device]].name) + " (" +
         tuning.report[device] + ")";
}

std::span<const KernelSymbol> matmul_tensor_gpu_symbols();  // matmul_tensor_gpu.cu

namespace {
std::span<const KernelSymbol> matmul_gpu_symbols() {
  // The ladder's kernels and the tensor rungs' (lessons/04_matmul/kernels/matmul_tensor_gpu.cu).
  static const std::vector<KernelSymbol> kAll = [] {
    std::vector<KernelSymbol> all(gpu::matmul_symbols().begin(), gpu::matmul_symbols().end());
    for (const KernelSymbol& symbol : matmul_tensor_gpu_symbols()) all.push_back(symbol);
    return all;
  }();
  return kAll;
}
}  // namespace

KernelSetEntry registered::matmul_gpu() {
  static const MatmulKernels kTable = [] {
    MatmulKernels table = gpu::matmul_kernels();
    table.block_tiled = gpu::block_tiled_gpu;
    table.tensor = matmul_tensor_gpu;
    table.tensor_layout_probe = matmul_tensor_layout_probe_gpu;
    return table;
  }();
  return register_set("matmul", "04_matmul", kTable, &matmul_gpu_symbols);
}
}  // namespace tl::kernels
