#pragma once
// Data parallel training: N replicas of the network, one per device, each on its own host thread.
// Every step, each replica takes its share of the batch (batch_share), computes the gradients of
// that share scaled as the whole batch's mean, and an all-reduce (gradient_all_reduce.hpp) sums
// them, so that every replica holds the batch's mean gradient and makes the same update: with the
// same seed and global batch, N replicas train as one device does, up to the order in which the
// floats are summed. Devices and all-reduce come from outside: GPUs and NCCL
// (gpu_data_parallel), or emulator devices and the CPU's sum (the tests).

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "core/result.hpp"
#include "gradient_all_reduce.hpp"
#include "mlp_trainer.hpp"

namespace tl::lessons {

// Replica `rank`'s share of `rows` examples split over `replicas`: contiguous, in rank order,
// sizes differing by at most one (the first rows % replicas replicas take one more).
struct BatchShare {
  int first = 0;
  int rows = 0;
};
BatchShare batch_share(int rows, int replicas, int rank);

// Makes replica `rank`'s device; called on that replica's thread (a GPU's current device is per
// thread).
using ReplicaDeviceFactory = std::function<Result<std::unique_ptr<compute::Device>>(int rank)>;
// Makes the all-reduce for `replicas` replicas (at least 2).
using AllReduceFactory = std::function<Result<std::unique_ptr<GradientAllReduce>>(int replicas)>;

class DataParallelTrainer {
 public:
  // `replicas` devices from `make_device`, each with the network of `settings` (the same seed:
  // the same weights and the same shuffles); one replica needs no all-reduce.
  static Result<std::unique_ptr<DataParallelTrainer>> create(
      const TrainingSettings& settings, int replicas, const ReplicaDeviceFactory& make_device,
      const AllReduceFactory& make_all_reduce);
  ~DataParallelTrainer();
  DataParallelTrainer(const DataParallelTrainer&) = delete;
  DataParallelTrainer& operator=(const DataParallelTrainer&) = delete;

  [[nodiscard]] int replicas() const;
  [[nodiscard]] const TrainingSettings& settings() const { return settings_; }
  [[nodiscard]] const MlpShape& shape() const;
  [[nodiscard]] const TrainingData& data() const;
  [[nodiscard]] int steps_per_epoch() const;
  [[nodiscard]] std::string device_name(int rank) const;
  // "NCCL 2.28.9", "the CPU (in-process)", or "none (one replica)".
  [[nodiscard]] std::string all_reduce_name() const;
  // Bytes every all-reduce sums: the gradient of every parameter, as float32.
  [[nodiscard]] std::size_t gradient_bytes() const;

  // One epoch: every replica shuffles the same way and takes its share of each batch. The step
  // losses are the whole batch's (the replicas' share-weighted means), checked as one device's are.
  Result<EpochSummary> train_epoch();
  [[nodiscard]] const std::vector<double>& step_losses() const { return step_losses_; }
  // Over the whole data set, on replica 0 (all replicas hold the same parameters).
  Result<Evaluation> evaluate();
  Result<std::vector<float>> probabilities(std::span<const float> points);
  Result<std::vector<float>> parameters(int rank);
  // The all-reduced gradients of the first `rows` examples (each replica its share), as replica
  // `rank` holds them after the sum, with the batch's loss.
  Result<MlpTrainer::Gradients> gradients(int rows, int rank = 0);

  // The step on the first batch, `warmup` times untimed then `repeats` times, and the all-reduce
  // alone `repeats` times: wall-clock milliseconds per step and per all-reduce (0 for one
  // replica), each the slowest replica's, every replica's device synchronised before the clock
  // stops. The parameters train on meanwhile: time on a trainer made for it.
  struct StepTiming {
    double step_ms = 0;
    double all_reduce_ms = 0;
  };
  Result<StepTiming> time_steps(int warmup, int repeats);

 private:
  struct Replica;
  class Threads;
  DataParallelTrainer(TrainingSettings settings, int replicas);
  Status on_every_replica(const std::function<Status(int rank)>& task);
  Status step(Replica& replica, int rank, int first, int rows, float* stats_slot);

  TrainingSettings settings_;
  std::vector<std::unique_ptr<Replica>> replicas_;
  std::unique_ptr<GradientAllReduce> all_reduce_;
  std::unique_ptr<AbortableBarrier> barrier_;  // the timing's common start
  std::unique_ptr<Threads> threads_;
  std::vector<double> step_losses_;
  std::int64_t steps_done_ = 0;
  int epochs_done_ = 0;
  double seconds_ = 0;
};

// ---- Scaling: the same global batch on 1, 2, ..., N replicas ----

struct ScalingPoint {
  int replicas = 0;
  std::vector<int> shares;  // examples per replica in one batch
  double step_ms = 0;
  double all_reduce_ms = 0;
  double samples_per_second = 0;
  double speedup = 0;     // against one replica
  double efficiency = 0;  // speedup / replicas (the ideal is 1)
};

struct ScalingReport {
  std::vector<std::string> devices;  // the N replicas' devices
  std::string all_reduce;
  std::string network;  // "2,256,256,2"
  int batch = 0;
  std::size_t gradient_bytes = 0;
  std::vector<ScalingPoint> points;  // 1..N replicas
};

// Times a step at `settings.batch` on 1, 2, ..., `replicas` replicas, each on fresh trainers.
Result<ScalingReport> measure_scaling(const TrainingSettings& settings, int replicas,
                                      const ReplicaDeviceFactory& make_device,
                                      const AllReduceFactory& make_all_reduce, int repeats);

// Bytes each replica sends in a ring all-reduce of `bytes` over `replicas`: 2 (N − 1) / N of the
// buffer (a reduce-scatter, then an all-gather). NCCL may pick another algorithm (a tree); the ring
// is the rule of thumb.
double ring_bytes_per_replica(std::size_t bytes, int replicas);

// The report as the CLI prints it: a text table, CSV (one row per replica count) or JSON.
std::string scaling_table(const ScalingReport& report);
std::string scaling_csv(const ScalingReport& report);
std::string scaling_json(const ScalingReport& report);

// ---- GPUs and NCCL ----

// Whether data parallel training on `gpus` GPUs can run here: at least 2 asked for, that many CUDA
// GPUs, NCCL loadable. The error says which is missing (kNoDevice) or that the request is wrong
// (kInvalidArgument).
Status gpu_data_parallel_available(int gpus);
// One CUDA device per replica (replica r on GPU r), and NCCL's all-reduce.
ReplicaDeviceFactory gpu_replica_devices();
AllReduceFactory nccl_all_reduces();
// CUDA GPUs visible (0 in a build without CUDA).
int visible_gpus();

// The emulator's replicas, and the CPU's sum (the tests, and anywhere without GPUs).
ReplicaDeviceFactory emulator_replica_devices();
AllReduceFactory host_all_reduces();

}  // namespace tl::lessons
