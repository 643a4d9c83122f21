#pragma once
// Runs lesson 5 on a device: Y = sigmoid(X · Wᵀ + b) three ways on the same data. A timed run
// measures every path side by side (unfused: three kernels; fused: one kernel; cuBLAS SGEMM plus a
// fused epilogue, on a GPU) and checks each against the exact layer; a traced run records who
// computed each element of Y on the selected path. The UI, the CLI and the tests all go through
// here.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "compute/trace_sink.hpp"
#include "core/stats.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"
#include "lessons/05_dense_layer/dense_layer_picture.hpp"

namespace tl::compute {

struct DenseLayerRequest {
  lessons::DenseLayerParams params;  // the size, and the path whose output the picture shows
  // Every kernel of every path runs with this configuration: x along the neurons, y along the
  // batch rows (lessons::validate_dense_layer_launch).
  LaunchConfig config = lessons::dense_layer_config(lessons::DenseLayerParams{});
  bool check = true;
  bool time_cpu = true;       // also time the single- and multi-threaded CPU references
  bool keep_outputs = false;  // copy each path's Y into the report (tests, exports)
  int warmup = 1;             // untimed runs before the timed ones
  int repeats = 5;
  std::uint32_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;  // checked between measurements
};

struct DenseLayerReport {
  bool on_gpu = false;

  // Unfused: each of its three launches, and the path as their sum, repeat by repeat.
  TimingStats unfused_product;
  TimingStats unfused_bias;
  TimingStats unfused_sigmoid;
  TimingStats unfused;
  TimingStats fused;
  // cuBLAS SGEMM, the epilogue kernel, and their sum. Empty where the path is absent, and then
  // cublas_absent_reason says why (the emulator, or cuBLAS failing to start).
  TimingStats cublas_product;
  TimingStats cublas_epilogue;
  TimingStats cublas;
  std::string cublas_absent_reason;

  TimingStats host_to_device;  // W, X and b
  TimingStats device_to_host;  // Y

  // Empty when not requested or skipped; the skip reasons say why (predicted too slow).
  TimingStats cpu_single;
  TimingStats cpu_multi;
  unsigned cpu_threads = 0;
  std::string cpu_single_skipped;
  std::string cpu_multi_skipped;

  std::optional<lessons::DenseCheckResult> unfused_check;
  std::optional<lessons::DenseCheckResult> fused_check;
  std::optional<lessons::DenseCheckResult> cublas_check;

  // Each path's Y (batch × out), when the request asked to keep them; cublas_output stays empty
  // where the path is absent.
  std::vector<float> unfused_output;
  std::vector<float> fused_output;
  std::vector<float> cublas_output;

  // The layer drawn small, with the output of request.params.path (fused where that path is
  // absent).
  lessons::LayerPicture picture;

  [[nodiscard]] bool has_cublas() const { return !cublas.empty(); }
};

// Why the cuBLAS path cannot run on `device`, or empty when it can (a GPU, in a build with CUDA).
[[nodiscard]] std::string cublas_absent_reason(const Device& device);

// Validates the layer and the configuration (on the emulator also its size), allocates, uploads,
// times every path, checks each, and times the CPU references unless predicted too slow. Launch
// errors come back as errors carrying CUDA's own message; the device stays usable unless the error
// is sticky.
Result<DenseLayerReport> run_dense_layer(Device& device, const DenseLayerRequest& request);

// One traced launch of params.path writing batch · out records (element r * out + o) into `sink`;
// the same inputs as run_dense_layer with the same seed. Unfused: the product and bias kernels run
// untraced and the final sigmoid kernel is traced; fused: the fused kernel; cublas: SGEMM, then the
// traced epilogue (a GPU only). Returns the check of the traced path's output.
Result<lessons::DenseCheckResult> trace_dense_layer(Device& device,
                                                    const lessons::DenseLayerParams& params,
                                                    const LaunchConfig& config, TraceSink& sink,
                                                    std::uint32_t seed = 1);

}  // namespace tl::compute
